package store

import (
	"reflect"
	"slices"
	"testing"
)

// storeMethods is every exported method *Store may have, by what it is
// for. Reads are not among them: every read is a ReadTx method, so a
// report or a screen's load reads one snapshot (Read, Snapshot) and cannot
// read outside it. A new write joins the list; a new read goes on ReadTx.
var storeMethods = map[string][]string{
	"open and close": {"Close"},
	"snapshots":      {"Read", "Snapshot", "Snapshots"},
	// The busy file: waiting for another writer, and saying so
	// (WaitingMessage reads the writers table for the one waiting).
	"busy":          {"WaitForWriters", "Retry", "RetryLock", "WaitingMessage", "AcquireScreen"},
	"import":        {"Import", "Restore"},
	"annotators":    {"EnsureAnnotator", "SetAnnotator", "SetAnnotatorLang"},
	"batches":       {"CreateBatch", "CreatePool", "CreateAnswerBatch", "SampleGenClaims"},
	"guidelines":    {"AddGuidelines", "SetTaxonomy", "DeclareField"},
	"labels":        {"RecordLabel", "RecordLabels", "RecordGradedRelevance", "Undo", "SetNote", "SetFlag"},
	"kinds' writes": {"SaveDraft", "SubmitAnswer", "AddMissedClaim"},
	"adjudication":  {"AcceptReady", "UndoAdjudication", "ReviewAnswer"},
	"sessions":      {"StartSession", "EndSession"},
}

// testMethods are *Store's methods of export_test.go, for the tests of
// this folder only: reflection sees them, the product has none of them.
var testMethods = []string{"Recount"}

// maxStoreMethods bounds *Store: open and close, snapshots, import and the
// writes.
const maxStoreMethods = 40

func TestStoreHasNoReads(t *testing.T) {
	allowed := map[string]bool{}
	for _, names := range storeMethods {
		for _, n := range names {
			allowed[n] = true
		}
	}
	st, rx := reflect.TypeFor[*Store](), reflect.TypeFor[*ReadTx]()
	var have []string
	for m := range st.Methods() {
		if slices.Contains(testMethods, m.Name) {
			continue
		}
		have = append(have, m.Name)
		if !allowed[m.Name] {
			t.Errorf("*Store has %s, not in storeMethods: a read belongs on ReadTx; a write joins the list", m.Name)
		}
		if _, ok := rx.MethodByName(m.Name); ok && m.Name != "Close" {
			t.Errorf("%s is a method of both *Store and *ReadTx: one way in", m.Name)
		}
	}
	for n := range allowed {
		if !slices.Contains(have, n) {
			t.Errorf("storeMethods lists %s, which *Store no longer has", n)
		}
	}
	if len(have) > maxStoreMethods {
		t.Errorf("*Store has %d exported methods, want at most %d: %v", len(have), maxStoreMethods, have)
	}
}
