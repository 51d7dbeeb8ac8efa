package store

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestMigrateRunResultsToRunLists writes a database as the build before
// run_lists left it (every migration before it, a run in run_results and
// run_chunks, its rows out of rank order), opens it, and reads the run back
// from run_lists: the same ranking and scores, no chunk-level list (not
// known), the old chunks still found for the relevance screen.
func TestMigrateRunResultsToRunLists(t *testing.T) {
	p := filepath.Join(t.TempDir(), "old.db")
	raw, err := sql.Open("sqlite", p)
	if err != nil {
		t.Fatal(err)
	}
	version := 0
	for _, m := range migrations() {
		if strings.HasSuffix(m.name, "_run_lists.sql") {
			break
		}
		body, err := migrationFS.ReadFile(m.name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := raw.Exec(string(body)); err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		version = m.version
	}
	for _, q := range []string{
		`INSERT INTO items(id, ext_id, kind, hash, imported_at) VALUES (1,'q1','query','h','t'), (2,'d1','document','h','t'), (3,'d2','document','h','t'), (4,'d3','document','h','t'), (5,'q1/d1','relevance','h','t')`,
		`INSERT INTO document_chunks(chunk_id, doc_item_id, start, end) VALUES ('d1#a', 2, 0, 5)`,
		`INSERT INTO relevance_pairs(item_id, query_item_id, doc_item_id) VALUES (5, 1, 2)`,
		`INSERT INTO runs(id, name, hash, origin_file, imported_at) VALUES (1, 'bm25', 'h', 'f', 't')`,
		`INSERT INTO run_results(run_id, rank, query_item_id, doc_item_id, score) VALUES (1, 3, 1, 4, 1e-06), (1, 1, 1, 3, 2.5), (1, 2, 1, 2, 1e-05)`,
		`INSERT INTO run_chunks(query_item_id, doc_item_id, chunk_id, run_id) VALUES (1, 2, 'd1#a', 1)`,
		`PRAGMA user_version = ` + strconv.Itoa(version),
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	raw.Close()
	s, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var docs, scores string
	var chunkDocs, chunkIDs sql.NullString
	if err := s.db.QueryRow(`SELECT docs, scores, chunk_docs, chunk_ids FROM run_lists`).Scan(&docs, &scores, &chunkDocs, &chunkIDs); err != nil {
		t.Fatal(err)
	}
	if docs != "[3,2,4]" || scores != "[2.5,1.0e-05,1.0e-06]" || chunkDocs.Valid || chunkIDs.Valid {
		t.Errorf("migrated list: %s %s %v %v", docs, scores, chunkDocs, chunkIDs)
	}
	err = s.Read(func(rx *ReadTx) error {
		runs, err := rx.Runs()
		if err != nil || len(runs) != 1 || runs[0].Queries != 1 {
			t.Errorf("runs: %+v %v", runs, err)
		}
		return rx.RunLists([]string{"bm25"}, func(l RunList) {
			if l.ChunkLevel || len(l.Chunks) != 3 || l.Chunks[0] != 3 {
				t.Errorf("list: %+v", l)
			}
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	// The same run imported again is unchanged: a run of documents hashes
	// as before run_lists (the hash the old build stored, computed here
	// with its formula: query, rank, document, score per ranked document).
	old := sha256.Sum256([]byte("q1\x001\x00d2\x002.5\nq1\x002\x00d1\x001e-05\nq1\x003\x00d3\x001e-06\n"))
	if _, err := s.db.Exec(`UPDATE runs SET hash = ?`, hex.EncodeToString(old[:16])); err != nil {
		t.Fatal(err)
	}
	err = s.Import(func(tx *Tx) error {
		if err := tx.BeginRuns(); err != nil {
			return err
		}
		for i, r := range []RunRow{{Doc: "d2", Rank: 1, Score: 2.5}, {Doc: "d1", Rank: 2, Score: 1e-05}, {Doc: "d3", Rank: 3, Score: 1e-06}} {
			r.Run, r.Query, r.Line = "bm25", "q1", i+1
			if err := tx.StageRunRow(r); err != nil {
				return err
			}
		}
		w, err := tx.WriteRuns(false, func(int) string { return "bm25.run" })
		if err == nil && (len(w) != 1 || w[0].Res != Unchanged) {
			t.Errorf("re-import after the migration: %+v", w)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	items, err := loadRelevance(s.db, []int64{5})
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := items[5].(*Relevance); !ok || len(r.Retrieved) != 1 || r.Retrieved[0].ID != "d1#a" {
		t.Errorf("retrieved chunks: %+v", items[5])
	}
}
