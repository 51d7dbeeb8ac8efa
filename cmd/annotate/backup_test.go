package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/store/storetest"
)

// seedRichDB is the demo (with the CanLegalRAGBench demo set) plus what a
// team adds by hand, all through the store or the commands: labels by jo and
// sam in sessions, one of jo's undone, the lead's adjudication of their
// agreements, a batch, a note and a flag, rates, a taxonomy of the team's
// own (docs/example/taxonomy.yaml) and RAGChecker results with their
// matrices (importer/testdata/ragchecker_checking_outputs.json).
func seedRichDB(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rich.db")
	s, err := seedDemo(path)
	if err != nil {
		t.Fatal(err)
	}
	ids := func(q string) []string {
		t.Helper()
		rows, err := storetest.DB(t, s).Query(q)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			out = append(out, id)
		}
		return out
	}
	qas := ids("SELECT ext_id FROM items WHERE kind='qa' ORDER BY id LIMIT 4")
	claims := ids("SELECT ext_id FROM items WHERE kind='claim' ORDER BY id LIMIT 4")
	gens := ids("SELECT ext_id FROM items WHERE kind='gen_claim' ORDER BY id LIMIT 3")
	rels := ids("SELECT ext_id FROM items WHERE kind='relevance' ORDER BY id LIMIT 3")
	if len(qas) < 4 || len(claims) < 4 || len(gens) < 3 || len(rels) < 3 {
		t.Fatalf("the demo has %d QA pairs and %d claims", len(qas), len(claims))
	}
	for _, who := range []string{"jo", "sam"} {
		sess, err := s.StartSession(who, "local")
		if err != nil {
			t.Fatal(err)
		}
		rec := func(ext, field, value string, ms int64) {
			t.Helper()
			ref, err := storetest.Read(t, s).Resolve(ext)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.RecordLabel(store.Label{Annotator: who, ItemID: ref.ItemID, Field: field, Value: value,
				ActiveMs: ms, SessionID: sess.ID}); err != nil {
				t.Fatal(err)
			}
		}
		for i, q := range qas {
			v := "valid"
			if who == "sam" && i == 3 {
				v = "invalid"
			}
			rec(q, "question_validity", v, int64(1000*(i+1)))
		}
		for i, c := range claims {
			v := "entailment"
			if who == "sam" && i%2 == 1 {
				v = "neutral"
			}
			rec(c, "claim_validity", "correct", 700)
			rec(c, "entailment", v, 1200)
		}
		for i, g := range gens {
			v := "supported"
			if i == 2 {
				v = "not_supported"
			}
			rec(g, "accuracy_support", v, 2000)
			rec(g, "grounded", "grounded", 1500)
		}
		for i, r := range rels {
			rec(r, "relevance", []string{"relevant", "not_relevant", "relevant"}[i], 800)
		}
		if who == "jo" {
			rec(claims[0], "entailment", "contradiction", 900)
			if _, _, err := s.Undo("jo"); err != nil {
				t.Fatal(err)
			}
			ref, _ := storetest.Read(t, s).Resolve(qas[1])
			if err := s.SetNote("jo", ref.ItemID, "question_validity", "ambiguous wording", sess.ID); err != nil {
				t.Fatal(err)
			}
			if err := s.SetFlag("jo", ref.ItemID, "", true, sess.ID); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.EndSession(sess.ID); err != nil {
			t.Fatal(err)
		}
	}
	if a, err := s.AcceptReady("lead", store.AdjudicationQuery{Annotators: []string{"jo", "sam"}}, store.AcceptOptions{}); err != nil || a.N == 0 {
		t.Fatalf("adjudication: %d, %v", a.N, err)
	}
	s.Close()
	for _, args := range [][]string{
		{"annotator", "add", "lead", "--lead"},
		{"batch", "create", "b1", "--as", "lead", "--kind", "qa", "--size", "3", "--assign", "jo,sam", "--seed", "7"},
		{"annotator", "set", "jo", "--rate", "20.5", "--currency", "CAD", "--role", "student"},
		{"annotator", "set", "sam", "--rate", "40", "--currency", "CAD", "--as", "lead", "--taxonomy", filepath.Join("..", "..", "docs", "example", "taxonomy.yaml")},
		{"import", "--source", "NILE", "--system", "bm25", filepath.Join("..", "..", "importer", "testdata", "ragchecker_checking_outputs.json")},
	} {
		if out, err := execute(t, append([]string{"--db", path}, args...)...); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	return path
}

// backupReports are the reports a backup must give back byte for byte.
var backupReports = [][]string{
	{"progress"}, {"progress", "--sessions"}, {"cost"}, {"stats", "--annotator", "sam"}, {"stats", "--adjudicated"},
	{"metrics", "--annotator", "jo"}, {"metrics", "--adjudicated"}, {"agreement"},
	{"ir", "--annotator", "jo"}, {"gen", "--annotator", "jo"}, {"gen", "--adjudicated"}, {"rag"}, {"batch", "list"}, {"notes"},
}

func reportsOf(t *testing.T, db string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, r := range backupReports {
		for _, json := range []bool{false, true} {
			args := append([]string{"--db", db}, r...)
			if json {
				args = append(args, "--json")
			}
			text, err := execute(t, args...)
			if err != nil {
				t.Errorf("%v: %v", args[2:], err)
			} else if strings.TrimSpace(text) == "" {
				t.Errorf("%v printed nothing", args[2:])
			}
			out[strings.Join(args[2:], " ")] = strings.ReplaceAll(text, db, "DB")
		}
	}
	return out
}

func TestBackupRestoresEveryReport(t *testing.T) {
	db := seedRichDB(t)
	before := reportsOf(t, db)
	if t.Failed() {
		t.FailNow()
	}
	dir := filepath.Join(t.TempDir(), "backup")
	if out, err := execute(t, "--db", db, "export", "--format", "jsonl", "--out", dir); err != nil || !strings.HasPrefix(out, "backed up ") {
		t.Fatalf("export: %v\n%s", err, out)
	}
	// Every table the reports read has rows in the backup.
	m := readManifest(t, dir)
	rows := map[string]int{}
	for _, tb := range m.Tables {
		rows[tb.Name] = tb.Rows
		if _, err := os.Stat(filepath.Join(dir, tb.File)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tb := range []string{"items", "qa_pairs", "claims", "predictions", "label_events", "current_labels", "sessions", "notes", "flags",
		"batches", "batch_items", "batch_assignees", "annotators", "runs", "run_lists", "relevance_pools", "queries", "documents",
		"gen_answers", "gen_claims", "rag_results", "error_taxonomy"} {
		if rows[tb] == 0 {
			t.Errorf("the backup has no %s row", tb)
		}
	}
	fresh := filepath.Join(t.TempDir(), "fresh.db")
	out, err := execute(t, "--db", fresh, "import", dir)
	if err != nil || !strings.Contains(out, "(backup): restored ") {
		t.Fatalf("import: %v\n%s", err, out)
	}
	after := reportsOf(t, fresh)
	for k, want := range before {
		if after[k] != want {
			t.Errorf("%s differs after the restore:\n--- before\n%s\n--- after\n%s", k, want, after[k])
		}
	}
	// Once more, into the restored database: nothing changed.
	out, err = execute(t, "--db", fresh, "import", dir)
	if err != nil || !strings.HasPrefix(out, "nothing changed: all ") {
		t.Fatalf("second import: %v\n%s", err, out)
	}
	// The original holds the same content too.
	if out, err = execute(t, "--db", db, "import", dir); err != nil || !strings.HasPrefix(out, "nothing changed: all ") {
		t.Fatalf("import into the original: %v\n%s", err, out)
	}
}

// tableDump is every table of a database (the derived ones too), each
// table's rows with their SQLite types (quote) in the order of all their
// columns, and the schema: what a restore must give back as it was.
func tableDump(t *testing.T, db string) map[string]string {
	t.Helper()
	s, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	strs := func(q string) []string {
		t.Helper()
		rows, err := storetest.DB(t, s).Query(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var v string
			if err := rows.Scan(&v); err != nil {
				t.Fatal(err)
			}
			out = append(out, v)
		}
		return out
	}
	out := map[string]string{"schema": strings.Join(strs(
		"SELECT type || ' ' || name || ' ' || tbl_name || ' ' || coalesce(sql, '') FROM sqlite_schema ORDER BY type, name"), "\n")}
	for _, tb := range strs("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite%'") {
		var cols []string
		for _, c := range strs("SELECT name FROM pragma_table_info('" + tb + "') ORDER BY cid") {
			cols = append(cols, `quote("`+c+`")`)
		}
		row := strings.Join(cols, " || ',' || ")
		out[tb] = strings.Join(strs("SELECT "+row+" FROM \""+tb+"\" ORDER BY "+strings.Join(cols, ", ")), "\n")
	}
	return out
}

// A restore gives back every table as it was, the derived ones (kept
// counts, done items, the dashboard's days, work totals) rebuilt to what
// the write path kept, and the schema, triggers and indexes included.
func TestRestoredDatabaseIsTheOriginal(t *testing.T) {
	db := seedRichDB(t)
	// A declared field and labels on it: the restore counts them by the
	// declaration it restores.
	if out, err := execute(t, "--db", db, "fields", "add", filepath.Join("..", "..", "docs", "example", "citation_accuracy.yaml"), "--as", "lead"); err != nil {
		t.Fatalf("fields add: %v\n%s", err, out)
	}
	s, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	var first, second string
	if err := storetest.DB(t, s).QueryRow("SELECT min(ext_id), max(ext_id) FROM (SELECT ext_id FROM items WHERE kind='qa' ORDER BY id LIMIT 2)").Scan(&first, &second); err != nil {
		t.Fatal(err)
	}
	// jo has answered all but citation_accuracy of both: the first is
	// done, the second waits for it.
	var labels [][3]string
	for _, ext := range []string{first, second} {
		labels = append(labels, [3]string{ext, "category", "factual_recall"}, [3]string{ext, "persona", "citizen"}, [3]string{ext, "answer_correctness", "correct"})
	}
	for _, l := range append(labels, [3]string{first, "citation_accuracy", "partial"}) {
		ref, err := storetest.Read(t, s).Resolve(l[0])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.RecordLabel(store.Label{Annotator: "jo", ItemID: ref.ItemID, Field: l[1], Value: l[2]}); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	dir := filepath.Join(t.TempDir(), "backup")
	if out, err := execute(t, "--db", db, "export", "--format", "jsonl", "--out", dir); err != nil {
		t.Fatalf("export: %v\n%s", err, out)
	}
	fresh := filepath.Join(t.TempDir(), "fresh.db")
	if out, err := execute(t, "--db", fresh, "import", dir); err != nil {
		t.Fatalf("import: %v\n%s", err, out)
	}
	want, got := tableDump(t, db), tableDump(t, fresh)
	for tb, w := range want {
		if got[tb] != w {
			t.Errorf("%s differs after the restore:\n--- original\n%s\n--- restored\n%s", tb, w, got[tb])
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d tables restored, the original has %d", len(got), len(want))
	}
	// The declared field counts: jo is done with the first pair, not the
	// second, in both.
	for _, path := range []string{db, fresh} {
		s, err := store.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		var done []string
		rows, err := storetest.DB(t, s).Query(`SELECT i.ext_id FROM done_items d JOIN items i ON i.id = d.item_id JOIN annotators a ON a.id = d.annotator_id
			WHERE a.name = 'jo' AND i.ext_id IN (?, ?) ORDER BY i.ext_id`, first, second)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var e string
			rows.Scan(&e)
			done = append(done, e)
		}
		rows.Close()
		s.Close()
		if strings.Join(done, " ") != first {
			t.Errorf("%s: jo is done with %v, want %s alone (%s waits for citation_accuracy)", filepath.Base(path), done, first, second)
		}
	}
	if want["label_days"] == "" || want["work_items"] == "" || want["kept_counts"] == "" {
		t.Fatal("the rich database has no label days, work items or kept counts")
	}
}
