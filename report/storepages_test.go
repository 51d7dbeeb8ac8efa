package report

import (
	"database/sql"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
)

// The bulk reads decode the tables' pages themselves (store/reportdata.go):
// they must give exactly what plain SQL gives, on a store whose b-trees have
// several levels and whose long values spill onto overflow pages (labels,
// categories, ext ids, claim texts and predictions of up to 9,000 bytes).
func TestReportReaderPagesMatchSQL(t *testing.T) {
	s := openStore(t)
	db := s.DB()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := tx.Exec(q, args...); err != nil {
			t.Fatal(err)
		}
	}
	exec(`INSERT INTO sources(id,name,language) VALUES (1,'GDPR','en')`)
	exec(`INSERT INTO annotators(id,name,human,created_at) VALUES (1,'a1',1,'t'),(2,'a2',1,'t'),(3,'a3',1,'t')`)
	label := func(role string, aid, item int, field, value string) {
		exec(`INSERT INTO current_labels(role,annotator_id,item_id,field,value,event_id) VALUES (?,?,?,?,?,0)`, role, aid, item, field, value)
	}
	id := 0
	for q := range 3000 {
		id++
		qa := id
		long := strings.Repeat("x", (q*977)%9000)
		exec(`INSERT INTO items(id,ext_id,kind,source_id,hash,imported_at,origin_file) VALUES (?,?,'qa',?,'','t',?)`,
			qa, fmt.Sprint("q", q, long[:len(long)/5]), []any{1, nil}[q%2], long[:len(long)/3])
		exec(`INSERT INTO qa_pairs(item_id,question,answer,category) VALUES (?,'Q',?,?)`,
			qa, long, []string{"factual_recall", "false_premise", "odd " + long[:min(len(long), 50)]}[q%3])
		for j := range 3 {
			id++
			origin, by := "extracted", any(nil)
			if j == 2 && q%4 == 0 {
				origin, by = "annotator", []any{1, nil}[q%8/4]
			}
			exec(`INSERT INTO items(id,ext_id,kind,source_id,parent_id,hash,imported_at) VALUES (?,?,'claim',1,?,'','t')`,
				id, fmt.Sprint("c", id, long[:min(len(long), q%300)]), qa)
			exec(`INSERT INTO claims(item_id,position,text,origin,added_by) VALUES (?,?,?,?,?)`, id, j, long[:len(long)*j/3], origin, by)
			exec(`INSERT INTO predictions(item_id,system,field,value) VALUES (?,'refchecker','entailment',?)`, id, []string{"entailment", "neutral", "weird " + long}[id%3])
			if id%5 == 0 {
				exec(`INSERT INTO predictions(item_id,system,field,value) VALUES (?,'other','entailment','x')`, id)
			}
			for a := 1; a <= 3; a++ {
				if (id+a)%4 != 0 {
					label("annotate", a, id, "entailment", []string{"neutral", "entailment", "odd " + long}[(id*a)%3])
					label("annotate", a, id, "claim_validity", "correct")
				}
			}
			if id%7 == 0 {
				label("adjudicate", 0, id, "entailment", "neutral "+long[:len(long)/2])
			}
		}
		label("annotate", 1, qa, "persona", "citizen")
		label("annotate", 1, qa, "question_validity"+long[:min(len(long), q%40)], "valid")
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}

	r, err := s.ReportReader()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rows := func(q string, args []any, scan func(rs *sql.Rows) error) {
		t.Helper()
		rs, err := db.Query(q, args...)
		if err != nil {
			t.Fatal(err)
		}
		defer rs.Close()
		for rs.Next() {
			if err := scan(rs); err != nil {
				t.Fatal(err)
			}
		}
		if err := rs.Err(); err != nil {
			t.Fatal(err)
		}
	}

	var wantQAs []store.ReportQA
	rows(`SELECT i.id, i.ext_id, COALESCE(i.source_id,0), COALESCE(p.category,''), EXISTS (SELECT 1 FROM items c
		WHERE c.parent_id=i.id AND c.id NOT IN (SELECT item_id FROM claims WHERE origin='annotator'))
		FROM items i LEFT JOIN qa_pairs p ON p.item_id=i.id WHERE i.kind='qa' ORDER BY i.id`, nil, func(rs *sql.Rows) error {
		var q store.ReportQA
		wantQAs = append(wantQAs, q)
		p := &wantQAs[len(wantQAs)-1]
		return rs.Scan(&p.ItemID, &p.ExtID, &p.SourceID, &p.Category, &p.HasClaims)
	})
	var wantClaims []store.ReportClaim
	rows(`SELECT c.item_id, i.ext_id, COALESCE(i.parent_id,0), COALESCE(i.source_id,0), c.origin, COALESCE(c.added_by,0)
		FROM claims c JOIN items i ON i.id=c.item_id ORDER BY c.item_id`, nil, func(rs *sql.Rows) error {
		var c store.ReportClaim
		err := rs.Scan(&c.ItemID, &c.ExtID, &c.QAItemID, &c.SourceID, &c.Origin, &c.AddedBy)
		if c.Origin != store.OriginAnnotator {
			c.Origin, c.AddedBy = store.OriginExtracted, 0
		}
		wantClaims = append(wantClaims, c)
		return err
	})
	for _, ext := range []bool{true, false} {
		qas, claims, err := r.QAsAndClaims(ext)
		if err != nil {
			t.Fatal(err)
		}
		want, wantC := append([]store.ReportQA(nil), wantQAs...), append([]store.ReportClaim(nil), wantClaims...)
		if !ext {
			for i := range want {
				want[i].ExtID = ""
			}
			for i := range wantC {
				wantC[i].ExtID = ""
			}
		}
		if !reflect.DeepEqual(qas, want) {
			t.Errorf("QA pairs (ext ids %v) differ from SQL's: %d against %d", ext, len(qas), len(want))
		}
		if !reflect.DeepEqual(claims, wantC) {
			t.Errorf("claims (ext ids %v) differ from SQL's: %d against %d", ext, len(claims), len(wantC))
		}
		if qas2, _ := r.QAs(ext); !reflect.DeepEqual(qas2, want) {
			t.Errorf("QAs(%v) differs from QAsAndClaims", ext)
		}
		if claims2, _ := r.Claims(ext); !reflect.DeepEqual(claims2, wantC) {
			t.Errorf("Claims(%v) differs from QAsAndClaims", ext)
		}
	}

	for _, sys := range []string{"refchecker", "other", "none"} {
		var want []store.ReportPrediction
		rows(`SELECT item_id, value FROM predictions WHERE system=? ORDER BY item_id`, []any{sys}, func(rs *sql.Rows) error {
			var p store.ReportPrediction
			err := rs.Scan(&p.ItemID, &p.Value)
			want = append(want, p)
			return err
		})
		got, err := r.Predictions(sys)
		if err != nil || len(got)+len(want) > 0 && !reflect.DeepEqual(got, want) {
			t.Errorf("predictions of %s differ from SQL's: %d against %d, %v", sys, len(got), len(want), err)
		}
	}
	if sys, err := r.Systems(); err != nil || !reflect.DeepEqual(sys, []string{"other", "refchecker"}) {
		t.Errorf("systems %v %v", sys, err)
	}

	for _, q := range []store.LabelQuery{{}, {Adjudicated: true}, {Annotators: []int64{2, 1}}, {Annotators: []int64{3}},
		{Annotators: []int64{1}, Fields: []string{"entailment", "persona"}}, {Annotators: []int64{}}, {Annotators: []int64{9}}} {
		scopes := []any{"annotate", 1, "annotate", 2, "annotate", 3}
		switch {
		case q.Adjudicated:
			scopes = []any{"adjudicate", 0}
		case q.Annotators != nil:
			scopes = nil
			for _, a := range q.Annotators {
				scopes = append(scopes, "annotate", a)
			}
		}
		var want []store.ReportLabel
		for i := 0; i < len(scopes); i += 2 {
			rows(`SELECT annotator_id, item_id, field, value FROM current_labels WHERE role=? AND annotator_id=?
				AND (?=0 OR field IN ('entailment','persona')) ORDER BY item_id, field`, []any{scopes[i], scopes[i+1], len(q.Fields)},
				func(rs *sql.Rows) error {
					var l store.ReportLabel
					err := rs.Scan(&l.AnnotatorID, &l.ItemID, &l.Field, &l.Value)
					want = append(want, l)
					return err
				})
		}
		got, err := r.Labels(q)
		if err != nil || len(got)+len(want) > 0 && !reflect.DeepEqual(got, want) {
			t.Errorf("labels %+v differ from SQL's: %d against %d, %v", q, len(got), len(want), err)
		}
		n := 0
		err = r.EachLabel(q, func(aid, item int64, field, value []byte) error { n++; return nil })
		if err != nil || n != len(want) {
			t.Errorf("EachLabel %+v: %d labels, want %d, %v", q, n, len(want), err)
		}
	}
}
