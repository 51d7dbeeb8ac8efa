// Package tuitest drives Bubble Tea models at Update level in tests: key
// presses by name, and commands run synchronously with their messages fed
// back, so a test sees exactly what a user would after each key.
package tuitest

import (
	"reflect"

	tea "charm.land/bubbletea/v2"
)

var cmdSlice = reflect.TypeOf([]tea.Cmd(nil))

// Run executes cmd and everything it yields, depth first and in order
// (tea.Batch, and tea.Sequence, whose message type is unexported), handing
// every other message to deliver. It reports whether a tea.QuitMsg came.
func Run(cmd tea.Cmd, deliver func(tea.Msg)) (quit bool) {
	if cmd == nil {
		return false
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			quit = Run(c, deliver) || quit
		}
	case tea.QuitMsg:
		return true
	default:
		if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().ConvertibleTo(cmdSlice) {
			for _, c := range v.Convert(cmdSlice).Interface().([]tea.Cmd) {
				quit = Run(c, deliver) || quit
			}
			return quit
		}
		deliver(msg)
	}
	return quit
}

var named = map[string]tea.KeyPressMsg{
	"enter":     {Code: tea.KeyEnter},
	"esc":       {Code: tea.KeyEscape},
	"tab":       {Code: tea.KeyTab},
	"shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift},
	"backspace": {Code: tea.KeyBackspace},
	"up":        {Code: tea.KeyUp},
	"down":      {Code: tea.KeyDown},
	"left":      {Code: tea.KeyLeft},
	"right":     {Code: tea.KeyRight},
	"pgup":      {Code: tea.KeyPgUp},
	"pgdown":    {Code: tea.KeyPgDown},
	"ctrl+c":    {Code: 'c', Mod: tea.ModCtrl},
	"ctrl+j":    {Code: 'j', Mod: tea.ModCtrl}, // enter through a tty not yet in raw mode (LF)
	"space":     {Code: tea.KeySpace, Text: " "},
}

// Key is the key press of a key name: "enter", "ctrl+c", "pgdown", or one
// character such as "y" or "3".
func Key(k string) tea.KeyPressMsg {
	if m, ok := named[k]; ok {
		return m
	}
	r := []rune(k)
	if len(r) != 1 {
		panic("tuitest.Key: unknown key " + k)
	}
	return tea.KeyPressMsg{Code: r[0], Text: k}
}
