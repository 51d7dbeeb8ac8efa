package exporter

import (
	"context"
	"fmt"
	"testing"

	"github.com/annotate-dev/annotate/demo"
	"github.com/annotate-dev/annotate/importer"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

func openStore(t testing.TB) *store.Store { return storetest.Open(t) }

// labeler records labels as the TUI would, in sessions with active time.
type labeler struct {
	t       testing.TB
	s       *store.Store
	session map[string]int64
}

func (l *labeler) id(ext string) int64 {
	l.t.Helper()
	ref, err := storetest.Read(l.t, l.s).Resolve(ext)
	if err != nil {
		l.t.Fatal(err)
	}
	return ref.ItemID
}

func (l *labeler) sess(who string) int64 {
	if l.session[who] == 0 {
		s, err := l.s.StartSession(who, "local")
		if err != nil {
			l.t.Fatal(err)
		}
		l.session[who] = s.ID
	}
	return l.session[who]
}

func (l *labeler) set(who, ext string, fv ...string) {
	l.t.Helper()
	for i := 0; i < len(fv); i += 2 {
		_, err := l.s.RecordLabel(store.Label{Annotator: who, ItemID: l.id(ext), Field: fv[i], Value: fv[i+1],
			ActiveMs: 4000, SessionID: l.sess(who)})
		if err != nil {
			l.t.Fatal(err)
		}
	}
}

func (l *labeler) adjudicate(ext, field, value string) {
	l.t.Helper()
	if _, err := l.s.RecordLabel(store.Label{Annotator: "lead", ItemID: l.id(ext), Field: field, Value: value, Adjudicate: true}); err != nil {
		l.t.Fatal(err)
	}
}

// demoStore is the embedded demo with the labels of two annotators on a
// sample: jo on every GDPR pair and the first CIVIL ones, sam on fewer, with
// disagreements; an invalid question whose older persona must not count; an
// incorrect claim whose older entailment must not count; missed-claims
// checks, annotator-added claims, an undo, notes, and a lead's adjudications.
func demoStore(t testing.TB) *store.Store {
	t.Helper()
	s := openStore(t)
	if _, err := importer.ImportReader(s, demo.FileName, demo.JSONL(), importer.Options{}); err != nil {
		t.Fatal(err)
	}
	l := &labeler{t: t, s: s, session: map[string]int64{}}
	personas := schema.Fields(schema.KindQA)[3].Values
	answers := []string{"correct", "correct", "partially_correct", "correct", "incorrect"}
	nli := []string{"entailment", "entailment", "neutral", "entailment", "contradiction", "neutral"}
	qas := []string{}
	for i := 1; i <= 16; i++ {
		qas = append(qas, fmt.Sprintf("gdpr-%03d", i))
	}
	for i := 1; i <= 8; i++ {
		qas = append(qas, fmt.Sprintf("civ-%03d", i))
	}
	for i, qa := range qas {
		q, err := storetest.Read(t, s).QA(l.id(qa))
		if err != nil {
			t.Fatal(err)
		}
		cat := q.Category
		if qa == "gdpr-003" {
			cat = "false_premise" // corrected
		}
		l.set("jo", qa, schema.QuestionValidity, "valid", schema.Category, cat, schema.Persona, personas[i%3],
			schema.AnswerCorrectness, answers[i%5])
		if qa == "gdpr-004" { // judged invalid after all: the persona stays in the log but is not asked
			l.set("jo", qa, schema.QuestionValidity, "invalid", schema.InvalidReason, "domain")
			continue
		}
		if i < 12 {
			claims, err := storetest.Read(t, s).ClaimsOf(l.id(qa))
			if err != nil {
				t.Fatal(err)
			}
			for j, c := range claims {
				if (i+j)%5 == 4 {
					// An entailment first, then the claim judged incorrect: the
					// entailment is no longer asked.
					l.set("jo", c.ID, schema.ClaimValidity, "correct", schema.Entailment, "neutral", schema.ClaimValidity, "incorrect")
					continue
				}
				l.set("jo", c.ID, schema.ClaimValidity, "correct", schema.Entailment, nli[(i+j)%len(nli)])
			}
			l.set("jo", qa, schema.MissedClaimsChecked, "checked")
		}
	}
	// jo adds a missed claim to gdpr-005.
	if _, err := s.AddMissedClaim("jo", l.id("gdpr-005"), [3]string{"The controller", "must document", "every personal data breach"}, l.sess("jo")); err != nil {
		t.Fatal(err)
	}
	l.set("jo", "gdpr-005", schema.MissedClaimsChecked, "added")
	// An undo: jo's last decision is taken back and made again differently.
	l.set("jo", "civ-008", schema.AnswerCorrectness, "incorrect")
	if _, _, err := s.Undo("jo"); err != nil {
		t.Fatal(err)
	}
	l.set("jo", "civ-008", schema.AnswerCorrectness, "partially_correct")
	if err := s.SetNote("jo", l.id("gdpr-002"), schema.Persona, "ambiguous: \"citizen\" or officer?\nsecond line", l.sess("jo")); err != nil {
		t.Fatal(err)
	}
	if err := s.SetNote("sam", l.id("gdpr-002"), schema.Persona, "officer", 0); err != nil {
		t.Fatal(err)
	}

	// sam: the first ten GDPR pairs and the claims of the first five.
	for i, qa := range qas[:10] {
		switch qa {
		case "gdpr-006":
			l.set("sam", qa, schema.QuestionValidity, "invalid", schema.InvalidReason, "linguistic")
			continue
		case "gdpr-004":
			l.set("sam", qa, schema.QuestionValidity, "invalid", schema.InvalidReason, "both")
			continue
		}
		q, _ := storetest.Read(t, s).QA(l.id(qa))
		l.set("sam", qa, schema.QuestionValidity, "valid", schema.Category, q.Category, schema.Persona, personas[(i+1)%3],
			schema.AnswerCorrectness, answers[(i+1)%5])
		if i < 5 {
			claims, _ := storetest.Read(t, s).ClaimsOf(l.id(qa))
			for j, c := range claims {
				if (i+j)%4 == 3 {
					l.set("sam", c.ID, schema.ClaimValidity, "incorrect")
					continue
				}
				l.set("sam", c.ID, schema.ClaimValidity, "correct", schema.Entailment, nli[(i+2*j)%len(nli)])
			}
			l.set("sam", qa, schema.MissedClaimsChecked, "checked")
		}
	}
	if _, err := s.AddMissedClaim("sam", l.id("gdpr-002"), [3]string{"Consent", "must be given for", "one or more specific purposes"}, l.sess("sam")); err != nil {
		t.Fatal(err)
	}
	l.set("sam", "gdpr-002", schema.MissedClaimsChecked, "added")

	// The lead adjudicates two disagreements.
	l.adjudicate("gdpr-006", schema.QuestionValidity, "valid")
	l.adjudicate("gdpr-001-c1", schema.ClaimValidity, "correct")
	l.adjudicate("gdpr-001-c1", schema.Entailment, "entailment")
	return s
}

// export exports; an hf folder gets JSON Lines data files unless the test
// asks for Parquet (hfparquet_test.go checks the two hold the same rows).
func export(t testing.TB, s *store.Store, o Options) Result {
	t.Helper()
	if (o.Format == "" || o.Format == "hf") && o.DataFormat == "" {
		o.DataFormat = DataJSONL
	}
	res, err := Export(context.Background(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}
