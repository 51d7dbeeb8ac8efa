package store_test

import (
	"errors"
	"testing"

	"github.com/annotate-dev/annotate/adjudication"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// A lead who labelled a unit: the review marks it theirs; their pick on it
// is refused with the reason and writes nothing; with AllowOwn it is
// written and recorded as own (OwnAdjudications counts it); another lead
// decides it freely; bulk accepts hold the lead's own units back.
func TestLeadNeverAdjudicatesTheirOwnUnit(t *testing.T) {
	s := storetest.Open(t)
	var ids map[string]int64
	storetest.Seed(t, s, func(b *storetest.Builder) {
		b.QA("q1", "GDPR", "en", "factual_recall")
		b.Labels("jo", "q1", "question_validity=valid", "persona=citizen", "answer_correctness=incorrect")
		b.Labels("ana", "q1", "question_validity=valid", "persona=legal_expert", "answer_correctness=incorrect")
		ids = b.IDs
	})
	q1 := ids["q1"]
	rev, err := storetest.Read(t, s).Adjudication(store.AdjudicationQuery{Lead: "ana"})
	if err != nil || len(rev.Units) != 1 || rev.Units[0].Field != schema.Persona || !rev.Units[0].Own {
		t.Fatalf("ana's review: %+v, %v; want persona, marked hers", rev.Units, err)
	}
	if rev, _ := storetest.Read(t, s).Adjudication(store.AdjudicationQuery{Lead: "lee"}); rev.Units[0].Own {
		t.Error("lee's review marks the unit as lee's")
	}

	_, err = s.RecordLabel(store.Label{Annotator: "ana", ItemID: q1, Field: schema.Persona, Value: "citizen", Adjudicate: true})
	var oe *adjudication.OwnError
	if !errors.As(err, &oe) || oe.Item != "q1" || oe.Field != schema.Persona {
		t.Fatalf("ana deciding her own unit: %v", err)
	}
	if rev, _ := storetest.Read(t, s).Adjudication(store.AdjudicationQuery{Lead: "ana"}); rev.Units[0].State != store.UnitPending {
		t.Error("the refused decision was written")
	}

	acc, err := s.AcceptReady("ana", store.AdjudicationQuery{}, store.AcceptOptions{})
	if err != nil || acc.N != 0 || acc.Held != 2 {
		t.Errorf("ana's bulk accept: %+v, %v; want 0 written, 2 held (question_validity, answer_correctness)", acc, err)
	}
	acc, err = s.AcceptReady("ana", store.AdjudicationQuery{}, store.AcceptOptions{AllowOwn: true})
	if err != nil || acc.N != 2 || acc.Held != 0 {
		t.Errorf("ana's bulk accept, --allow-own: %+v, %v", acc, err)
	}
	if _, err := s.RecordLabel(store.Label{Annotator: "lee", ItemID: q1, Field: schema.Persona, Value: "citizen", Adjudicate: true}); err != nil {
		t.Errorf("lee deciding: %v", err)
	}
	own, err := storetest.Read(t, s).OwnAdjudications()
	if err != nil || len(own) != 2 || own[schema.QuestionValidity] != 1 || own[schema.AnswerCorrectness] != 1 {
		t.Errorf("own adjudications %v, %v; want question_validity 1, answer_correctness 1 (lee's persona is not own)", own, err)
	}
	// ana revises persona with --allow-own: the current label is now own.
	if _, err := s.RecordLabel(store.Label{Annotator: "ana", ItemID: q1, Field: schema.Persona, Value: "legal_expert", Adjudicate: true, AllowOwn: true}); err != nil {
		t.Fatal(err)
	}
	if own, _ := storetest.Read(t, s).OwnAdjudications(); own[schema.Persona] != 1 {
		t.Errorf("own adjudications %v after ana's --allow-own revision", own)
	}
}
