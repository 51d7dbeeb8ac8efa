package schema

import (
	"strings"
	"testing"
)

type layerKind struct {
	k    Kind
	note string
}

func (l layerKind) Kind() Kind { return l.k }

type noted interface{ Note() string }

func (l *layerKind) Note() string { return l.note }

func TestRegistryKeepOrderLookUpAndRefuseTwice(t *testing.T) {
	var r Registry[interface{ Kind() Kind }]
	if got := r.Get("qa"); got != nil {
		t.Fatalf("empty list: Get = %v", got)
	}
	r.Add(layerKind{k: "b"})
	r.Add(&layerKind{k: "a", note: "with a note"})
	var order []Kind
	for _, k := range r.All() {
		order = append(order, k.Kind())
	}
	if strings.Join([]string{string(order[0]), string(order[1])}, ",") != "b,a" {
		t.Errorf("order %v, want b,a (registration)", order)
	}
	if n, ok := r.Get("a").(noted); !ok || n.Note() != "with a note" {
		t.Errorf("a's extension not found through Get")
	}
	if _, ok := r.Get("b").(noted); ok {
		t.Errorf("b has no note but Get(b) gives one")
	}
	if _, ok := r.Get("none").(noted); ok {
		t.Errorf("an unregistered kind has an extension")
	}
	if _, ok := r.Lookup("none"); ok {
		t.Errorf("Lookup found an unregistered kind")
	}
	defer func() {
		msg, _ := recover().(string)
		if !strings.Contains(msg, "kind b registered twice") {
			t.Errorf("a second b: panic %q", msg)
		}
	}()
	r.Add(layerKind{k: "b"})
}
