package ui

import tea "charm.land/bubbletea/v2"

// FramesPerSecond is the renderer's frame rate. Bubble Tea draws a changed
// view on its frame clock, not when Update returns: at its default 60 fps a
// key waits up to 16.7 ms (8.3 ms on average) for the next frame, longer than
// reading the key, committing the decision and rendering together. 120 fps,
// Bubble Tea's maximum, halves that wait; a frame with nothing changed
// writes nothing, so an idle screen costs a timer tick.
const FramesPerSecond = 120

// FramePacing is the program option every annotate program (local, review,
// serve) starts with.
func FramePacing() tea.ProgramOption { return tea.WithFPS(FramesPerSecond) }
