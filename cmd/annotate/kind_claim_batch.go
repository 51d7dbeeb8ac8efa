package main

import (
	"fmt"
	"strings"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// The flags of batches of the claims of QA pairs' answers (cut by the
// generic batch: store.CreateBatch): --only-correct-answers gives each
// assignee the claims of the answers they judged correct (--adjudicated: that
// the lead adjudicated correct), --without-qa asks the claims at once.

// checkClaimBatchFlags refuses these flags where they do not apply.
func checkClaimBatchFlags(spec store.BatchSpec) error {
	if spec.OnlyCorrectAnswers && schema.SpecOf(schema.Kind(spec.Kind)).Parent != schema.KindQA {
		return fmt.Errorf("--only-correct-answers applies to batches of items of an answer (--kind %s)", kindsOfAnswers())
	}
	if spec.Adjudicated && !spec.OnlyCorrectAnswers {
		return fmt.Errorf("--adjudicated goes with --only-correct-answers: the lead's answer labels choose the claims")
	}
	if spec.WithoutQA && !schema.WaitsForParent(schema.Kind(spec.Kind)) {
		return fmt.Errorf("--without-qa applies to claim batches (--kind %s): their claims are asked at once, without the QA step", schema.KindClaim)
	}
	if spec.WithoutQA && spec.OnlyCorrectAnswers {
		return fmt.Errorf("--without-qa takes the claims of every answer, judged or not: it does not go with --only-correct-answers")
	}
	return nil
}

// kindsOfAnswers names the kinds whose items belong to an answer.
func kindsOfAnswers() string {
	var out []string
	for _, k := range schema.Children(schema.KindQA) {
		out = append(out, string(k))
	}
	return strings.Join(out, ", ")
}
