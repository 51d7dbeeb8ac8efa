package ui

import tea "charm.land/bubbletea/v2"

// FramesPerSecond is the renderer's frame rate. Bubble Tea draws a changed
// view on its frame clock, not when Update returns: a key read at a random
// moment waits for the next tick, up to one frame (16.7 ms at the default
// 60 fps, 8.3 ms at 120, Bubble Tea's maximum) and half a frame on average,
// longer than reading the key, committing the decision and rendering
// together. So a key's median wait is half a frame plus the program's own
// work, and its slowest are a whole frame plus it: at 120 fps the median is
// within 8 ms, the 90th percentile about a frame. A frame with nothing
// changed writes nothing, so an idle screen costs a timer tick.
const FramesPerSecond = 120

// FramePacing is the program option every annotate program (local, review,
// serve) starts with.
func FramePacing() tea.ProgramOption { return tea.WithFPS(FramesPerSecond) }
