package server

import (
	"context"

	tea "charm.land/bubbletea/v2"
)

// boundedModel runs a model whose commands end with the session. Bubble Tea
// runs each command on a goroutine that holds the whole program (screen
// buffers, model: some 16 MB at 500x300) until the command returns, even
// after the program ended; the TUI's clock tick returns up to 15 s later.
// An annotator connecting and quitting in a loop would so keep hundreds of
// ended programs alive. Here each command runs on a goroutine of its own,
// and the goroutine Bubble Tea waits on returns as soon as the session's
// context ends, letting the program go.
//
// The commands are also counted in gate, from the Update that returns them
// until they return, so that the session's input can wait for them
// (pumpInput).
type boundedModel struct {
	tea.Model
	ctx  context.Context
	gate *commandGate
}

func (b boundedModel) Init() tea.Cmd { return bounded(b.ctx, b.gate, b.Model.Init()) }

func (b boundedModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := b.Model.Update(msg)
	return boundedModel{m, b.ctx, b.gate}, bounded(b.ctx, b.gate, cmd)
}

// bounded returns cmd made to return nil once ctx ends, counted in gate
// until it returns. The commands of a batch are bounded one by one (a
// batch returns its BatchMsg at once).
func bounded(ctx context.Context, gate *commandGate, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	gate.start()
	return func() tea.Msg {
		defer gate.done()
		type result struct {
			msg      tea.Msg
			panicked any
		}
		done := make(chan result, 1)
		go func() {
			// A panic is handed to Bubble Tea's goroutine, which recovers
			// it, rather than taking the server down from this one.
			defer func() {
				if r := recover(); r != nil {
					done <- result{panicked: r}
				}
			}()
			done <- result{msg: cmd()}
		}()
		select {
		case r := <-done:
			if r.panicked != nil {
				panic(r.panicked)
			}
			if batch, ok := r.msg.(tea.BatchMsg); ok {
				for i := range batch {
					batch[i] = bounded(ctx, gate, batch[i])
				}
			}
			return r.msg
		case <-ctx.Done():
			return nil
		}
	}
}
