package tui

import (
	"strconv"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/schema"
)

// The annotation of one item as a state machine, apart from Bubble Tea and
// the store: a flow is a value (the item's labels and the facts of its
// answer's missed-claims step); Next says which step it is at; Decide turns
// a decision key into an action for the screen to carry out; Apply takes a
// committed change and returns the flow after it. The item screen (item.go)
// keeps one flow and does the I/O the actions ask for.

// stepKind is what an item screen asks for.
type stepKind int

const (
	askField stepKind = iota // a field of the item (step.field)
	askOwn                   // the kind's own step after its fields (ownStepper: the missed-claims step)
	stepDone                 // nothing left to ask: the item is finished
)

// step is where a flow is.
type step struct {
	kind  stepKind
	field string // askField: the field asked
}

// kindKey names the kind of step (for cache keys).
func (s step) kindKey() string { return strconv.Itoa(int(s.kind)) }

func (s step) String() string {
	switch s.kind {
	case askField:
		return s.field
	case askOwn:
		return "own"
	}
	return "done"
}

// flow is the state of one item's annotation. Its methods never change it:
// Apply returns a new flow (the labels map is copied on write).
type flow struct {
	kind   schema.Kind
	labels map[string]string // the annotator's current labels on the item
	own    *ownStep          // the kind's own step after the fields, when this item asks it (the last claim of an answer)
	marker string            // the own step's marker on the parent ("" : not recorded)
	added  int               // items the annotator added at the own step that stand (claims)
	stay   bool              // an item was added at this step: it stays until enter
	preset map[string]string // the value enter accepts at a field (the generated category); nil: none
	// suggested are a system's predictions by field (annotate --suggest),
	// preselected where the field has one; nil when blind.
	suggested map[string]string
	notAsked  string // why nothing is asked of the annotator (shown read-only); "" : asked
	// passed are the optional fields the annotator passed on this visit
	// (enter with nothing preselected): nothing is recorded, the field is
	// not asked again until the item is opened anew or u takes the pass
	// back. nil: none.
	passed map[string]bool
	// lang is the language a refusal is said in (nil: English): a pure
	// formatter, so that the flow stays a value.
	lang *lang.Printer
}

// newFlow is the flow of an item as loaded, its refusals said in l.
func newFlow(d *itemData, l *lang.Printer) flow {
	v := viewOf(d.kind())
	f := flow{kind: d.kind(), labels: copyLabels(d.labels), notAsked: d.notAsked, suggested: d.suggested, lang: l, passed: d.passed}
	if k, ok := v.(ownStepper); ok {
		if o := k.ownStep(); o.asked(d) {
			f.own, f.marker, f.added = o, d.parent[o.marker], o.count(d)
		}
	}
	if v, ok := v.(preselector); ok {
		f.preset = v.preselect(d)
	}
	return f
}

func copyLabels(m map[string]string) map[string]string {
	out := make(map[string]string, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Next is the step the item is at: the first field asked and not labelled
// (schema.NextToAsk, so an undo re-asks the retracted field and those
// depending on it; an optional field in its place unless passed), then, on
// the last claim of an answer, the missed-claims step until the answer is
// marked (and while claims are being added).
func (f flow) Next() step {
	return f.next(func(field string) bool { return f.passed[field] })
}

// Finished reports whether the item is done as the counts see it: nothing
// asked is left but optional fields, which never leave an item unfinished.
func (f flow) Finished() bool {
	return f.next(func(string) bool { return true }).kind == stepDone
}

func (f flow) next(passed func(field string) bool) step {
	if f.notAsked != "" {
		return step{kind: stepDone}
	}
	if field := schema.NextToAsk(f.kind, f.labels, passed); field != "" {
		return step{kind: askField, field: field}
	}
	if f.own != nil && (f.marker == "" || f.stay) {
		return step{kind: askOwn}
	}
	return step{kind: stepDone}
}

// preselected is the value enter accepts at the current step: the
// suggested system's prediction of the field (single-valued fields), else
// the kind's preselect (a QA pair's generated category).
func (f flow) preselected() string {
	if s := f.Next(); s.kind == askField {
		if v := f.suggestion(s.field); v != "" {
			return v
		}
		return f.preset[s.field]
	}
	return ""
}

// suggestion is the suggested system's prediction of a field, "" when it
// has none (or the field takes several values: a checklist preselects
// nothing).
func (f flow) suggestion(field string) string {
	v := f.suggested[field]
	if fd, ok := schema.Lookup(field); v == "" || !ok || fd.Multi {
		return ""
	}
	return v
}

// eventKind is a change committed to the store.
type eventKind int

const (
	evLabelled   eventKind = iota // the item got a label (field = value)
	evMarked                      // the answer's missed_claims_checked was recorded (value); the step closes
	evClaimAdded                  // a missed claim was added; value: the answer's marker now ("" unchanged)
	evStepClosed                  // enter on a missed-claims step already marked: done with the answer
	evPassed                      // an optional field passed (field): nothing recorded
	evUnpassed                    // a pass taken back (field): the field is asked again
)

type event struct {
	kind         eventKind
	field, value string
}

// Apply returns the flow after a committed change.
func (f flow) Apply(ev event) flow {
	switch ev.kind {
	case evLabelled:
		f.labels = copyLabels(f.labels)
		f.labels[ev.field] = ev.value
	case evMarked:
		f.marker, f.stay = ev.value, false
	case evClaimAdded:
		f.added++
		f.stay = true
		if ev.value != "" {
			f.marker = ev.value
		}
	case evStepClosed:
		f.stay = false
	case evPassed, evUnpassed:
		passed := make(map[string]bool, len(f.passed)+1)
		for k := range f.passed {
			passed[k] = true
		}
		if ev.kind == evPassed {
			passed[ev.field] = true
		} else {
			delete(passed, ev.field)
		}
		f.passed = passed
	}
	return f
}

// inputKind is a decision key, whatever key the KeyMap binds to it.
type inputKind int

const (
	inYes inputKind = iota
	inNo
	inPick // n: the n-th option
	inAccept
	inAdd
)

type input struct {
	kind inputKind
	n    int    // inPick
	key  string // the key as typed, for the status line
}

// actionKind is what the screen does with a decision key.
type actionKind int

const (
	actSave     actionKind = iota // record field = value (on the answer when onAnswer)
	actAddOpen                    // open the inputs of a missed claim
	actClose                      // apply evStepClosed: the answer is done
	actNextItem                   // the item is finished already: show the next one
	actPass                       // pass the optional field (apply evPassed): nothing is recorded
	actRefuse                     // the key belongs to no option here: say why
)

type action struct {
	kind         actionKind
	onAnswer     bool // actSave: the label goes on the claim's answer
	field, value string
	why          string // actRefuse: the status line
}

// Decide turns a decision key into the action it asks for at the current
// step. A key that answers nothing here is refused with a reason, never
// ignored.
func (f flow) Decide(in input) action {
	s := f.Next()
	switch s.kind {
	case stepDone:
		if in.kind == inAccept {
			return action{kind: actNextItem}
		}
		if f.notAsked != "" {
			// The card says why (notAskedCard); this fits 80 columns.
			return refuse(f.lang.Sprintf("%s: nothing is asked here (read-only, see why above). enter goes on.", in.key))
		}
		return refuse(f.lang.Sprintf("Every field of this item is labelled: enter goes to the next item, u undoes the last decision."))
	case askOwn:
		switch {
		case in.kind == inAdd:
			return action{kind: actAddOpen}
		case in.kind == inAccept && f.marker != "":
			return action{kind: actClose}
		case in.kind == inAccept:
			v := f.own.checked
			if f.added > 0 {
				v = f.own.added
			}
			return action{kind: actSave, onAnswer: true, field: f.own.marker, value: v}
		}
		return refuse(f.lang.Sprintf("%s answers no question here: %s", in.key, f.lang.Text(f.own.refused)))
	}
	field, _ := schema.Lookup(s.field)
	keys := fieldKeys(f.lang, field)
	name := f.lang.Field(field.Name)
	switch in.kind {
	case inYes, inNo:
		if field.TwoWay {
			return action{kind: actSave, field: field.Name, value: field.Values[int(in.kind-inYes)]}
		}
		return refuse(f.lang.Sprintf("%s is not an option of %s: press %s.", in.key, name, keys))
	case inPick:
		if v, ok := field.ValueOfKey(in.n); ok {
			return action{kind: actSave, field: field.Name, value: v}
		}
		return refuse(f.lang.Sprintf("%s has %d options: press %s.", name, len(field.Values), keys))
	case inAccept:
		if p := f.preselected(); p != "" {
			return action{kind: actSave, field: field.Name, value: p}
		}
		if field.Optional {
			return action{kind: actPass, field: field.Name}
		}
		return refuse(f.lang.Sprintf("enter accepts a preselected option; %s has none: press %s.", name, keys))
	}
	return refuse(f.lang.Sprintf("%s adds a claim the extractor missed, after the last claim of an answer; %s: press %s.", in.key, name, keys))
}

// fieldKeys names the keys of a field's options: "y/n or 1-2", "1-3";
// an optional field's say enter passes it.
func fieldKeys(l *lang.Printer, f schema.Field) string {
	keys := "1-" + strconv.Itoa(len(f.Values))
	if f.TwoWay {
		keys = l.Sprintf("y/n or %s", keys)
	}
	if f.Optional {
		return l.Sprintf("%s, or enter to pass", keys)
	}
	return keys
}

func refuse(why string) action { return action{kind: actRefuse, why: why} }
