package tui

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
	"github.com/annotate-dev/annotate/tui/tuitest"
)

// The answer screen's keys as bench queues presses them: a letter typed
// into the empty answer, then ctrl+s, which submits it and brings the next
// task. Bubble Tea draws a frame after every message, so the benchmark
// does too: the key's, and each answer's (the submission, the draft and
// seed document, the preloads, the queue's counts and position).

// answerBenchTasks is how many answer tasks the store holds.
const answerBenchTasks = 500

func answerBenchStore(b *testing.B) *store.Store {
	s := storetest.Open(b)
	storetest.Seed(b, s, func(bd *storetest.Builder) {
		bd.Document(store.Document{ID: "doc-1", Title: "Tremblay v. Maple", Citation: "2099 ONSC 1",
			Text: "A landlord may enter without notice only in an emergency. A slow leak is not an emergency."})
		for i := range answerBenchTasks {
			q := fmt.Sprintf("q%d", i)
			bd.Query(store.Query{ID: q, Text: "Can my landlord come in without notice to fix a slow leak in the bathroom?",
				Persona: "lay", Jurisdiction: "ON", SeedDoc: "doc-1", SeedGroup: fmt.Sprintf("g%d", i/8)})
			bd.AnswerTask(q)
		}
	})
	return s
}

// framed delivers msg as Bubble Tea does: Update, a frame, then the
// messages of the commands it returned, each with its frame.
func (h *harness) framed(msg tea.Msg) {
	_, cmd := h.m.Update(msg)
	_ = h.m.render()
	tuitest.Run(cmd, h.framed)
}

// answerBenchOpen opens the answer tasks' queue for a new annotator.
func answerBenchOpen(b *testing.B, s *store.Store, round int) *harness {
	h := &harness{t: b, s: s, clock: newClock()}
	h.m = New(Options{Store: s, Annotator: fmt.Sprintf("bench%d", round), Kind: "answer_task", Client: "bench", Now: h.clock.now})
	h.m.e.noTicks = true
	h.framed(tea.WindowSizeMsg{Width: 120, Height: 40})
	tuitest.Run(h.m.Init(), h.framed)
	h.answer()
	return h
}

// BenchmarkAnswerTaskKeys/item: one task answered, a letter and ctrl+s,
// every frame drawn, until the next task is on screen with all it loads.
// BenchmarkAnswerTaskKeys/frame: a frame of the answer screen for a
// message that changes nothing on it.
func BenchmarkAnswerTaskKeys(b *testing.B) {
	s := answerBenchStore(b)
	round := 0
	b.Run("item", func(b *testing.B) {
		round++
		h := answerBenchOpen(b, s, round)
		done := 0
		for b.Loop() {
			if done == answerBenchTasks-1 { // a new annotator: the queue again
				b.StopTimer()
				round++
				h, done = answerBenchOpen(b, s, round), 0
				b.StartTimer()
			}
			before := h.answer().d.ref.ItemID
			h.framed(tea.KeyPressMsg{Code: 'a', Text: "a"})
			h.framed(ctrl('s'))
			if a := h.answer(); a.d.ref.ItemID == before || a.answer.Value() != "" {
				b.Fatalf("not on the next task:\n%s", h.view())
			}
			done++
		}
	})
	b.Run("frame", func(b *testing.B) {
		round++
		h := answerBenchOpen(b, s, round)
		h.framed(tea.KeyPressMsg{Code: 'a', Text: "a"})
		for b.Loop() {
			h.framed(queueCountMsg{gen: -1})
		}
	})
}
