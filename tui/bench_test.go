package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/annotate-dev/annotate/store/storetest"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// The benchmarks run against a real store file with 200,000 QA pairs and
// 1,000,000 claims, built once per run with bulk SQL.
const (
	benchPairs         = 200_000
	benchClaimsPerPair = 5
)

var (
	bigOnce sync.Once
	bigDir  string
	bigPath string
	bigErr  error
	bigTook time.Duration
)

func TestMain(m *testing.M) {
	code := m.Run()
	if bigDir != "" {
		os.RemoveAll(bigDir)
	}
	os.Exit(code)
}

func bigStore(b *testing.B) *store.Store {
	if testing.Short() {
		b.Skip("the 200,000-pair store is not built with -short")
	}
	bigOnce.Do(func() {
		t0 := time.Now()
		bigDir, bigErr = os.MkdirTemp("", "annotate-bench-")
		if bigErr != nil {
			return
		}
		bigPath = filepath.Join(bigDir, "big.db")
		bigErr = buildBig(bigPath)
		bigTook = time.Since(t0)
	})
	if bigErr != nil {
		b.Fatal(bigErr)
	}
	s, err := store.Open(bigPath)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

func buildBig(path string) error {
	s, err := store.Open(path)
	if err != nil {
		return err
	}
	defer s.Close()
	ctx := context.Background()
	db, err := storetest.OpenDB(path)
	if err != nil {
		return err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA synchronous=OFF"); err != nil {
		return err
	}
	ctxText := "This Regulation lays down rules relating to the protection of natural persons with regard to the processing of personal data and rules relating to the free movement of personal data. It protects fundamental rights and freedoms of natural persons and in particular their right to the protection of personal data."
	nClaims := benchPairs * benchClaimsPerPair
	stmts := []string{
		`INSERT INTO sources(id,name,language) VALUES (1,'GDPR','en')`,
		fmt.Sprintf(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i<%d)
			INSERT INTO items(id,ext_id,kind,source_id,hash,imported_at) SELECT i,'q'||i,'qa',1,'h','2026-01-01' FROM n`, benchPairs),
		fmt.Sprintf(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i<%d)
			INSERT INTO qa_pairs(item_id,language,hop,question,answer,rationale,category,as_given)
			SELECT i,'en','single','Question '||i||': what does Article '||(i%%99+1)||' of the GDPR protect?',
			  'Answer '||i||': it protects natural persons with regard to the processing of personal data and the free movement of such data.',
			  'Article 1(1).', 'factual_recall', 1 FROM n`, benchPairs), // as given: a new annotator's claim queue holds every claim at once
		fmt.Sprintf(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i<%d)
			INSERT INTO context_units(id,ext_id,source_id,text) SELECT i,'p'||i,1,'Paragraph '||i||'. '||'%s' FROM n`, benchPairs, ctxText),
		fmt.Sprintf(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i<%d)
			INSERT INTO qa_contexts(qa_item_id,position,context_id) SELECT i,0,i FROM n`, benchPairs),
		fmt.Sprintf(`WITH RECURSIVE n(j) AS (SELECT 0 UNION ALL SELECT j+1 FROM n WHERE j<%d)
			INSERT INTO items(id,ext_id,kind,source_id,parent_id,hash,imported_at)
			SELECT %d+j,'q'||(j/%d+1)||'-c'||(j%%%d+1),'claim',1,j/%d+1,'h','2026-01-01' FROM n`,
			nClaims-1, benchPairs+1, benchClaimsPerPair, benchClaimsPerPair, benchClaimsPerPair),
		fmt.Sprintf(`WITH RECURSIVE n(j) AS (SELECT 0 UNION ALL SELECT j+1 FROM n WHERE j<%d)
			INSERT INTO claims(item_id,position,subject,predicate,object,origin)
			SELECT %d+j,j%%%d+1,'The Regulation','protects','natural persons '||j,'extracted' FROM n`,
			nClaims-1, benchPairs+1, benchClaimsPerPair),
	}
	stmts = append(stmts, doneSQL()...)
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	for _, q := range stmts {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			tx.Rollback()
			return fmt.Errorf("%v\n%s", err, q)
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	// Rows written behind the store's back: count them as a write would
	// (kept counts and done items of the annotator with 800k claims done).
	conn.Close()
	if err := storetest.RecountFile(s.Path); err != nil {
		return err
	}
	// No ANALYZE: annotate never runs it, so its files have no statistics
	// and the planner plans without them (with them, ActiveSince scans every
	// event of a one-annotator file).
	_, err = db.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	return err
}

// doneAnnotator has labelled the first 160,000 pairs (validity, category,
// persona, correctness, the missed-claims check) and their 800,000 claims
// (validity, entailment), over the weeks before the benchmark: the home
// screen of someone 80% through the dataset.
const doneAnnotator = "done800k"

const donePairs = 160_000

// todayAnnotator has made doneAnnotator's decisions today, on screen: the
// home screen of someone with millions of events since midnight.
const todayAnnotator = "today2400k"

// todayMidnight is the start of today, local time, as a stored stamp.
func todayMidnight() string {
	y, m, d := time.Now().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.Local).UTC().Format("2006-01-02T15:04:05Z")
}

// doneSQL writes doneAnnotator's 2,400,000 decisions (and todayAnnotator's), one every ten
// seconds from 2020-01-01 (all before today), with the current labels they
// make.
func doneSQL() []string {
	pairs := fmt.Sprintf(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i<%d) `, donePairs)
	claims := fmt.Sprintf(`WITH RECURSIVE n(j) AS (SELECT 0 UNION ALL SELECT j+1 FROM n WHERE j<%d) `, donePairs*benchClaimsPerPair-1)
	at := func(expr string) string {
		return `strftime('%Y-%m-%dT%H:%M:%fZ', '2020-01-01', '+' || ((` + expr + `) * 10) || ' seconds')`
	}
	return []string{
		`INSERT INTO annotators(id,name,human,created_at) VALUES (1,'` + doneAnnotator + `',1,'2026-01-01T00:00:00Z')`,
		pairs + `INSERT INTO label_events(annotator_id,item_id,field,value,created_at,active_ms)
			SELECT 1, i, f.field, f.value, ` + at("i*7+f.k") + `, 4000 FROM n, (SELECT 0 AS k, 'question_validity' AS field, 'valid' AS value
			UNION ALL SELECT 1, 'category', 'factual_recall' UNION ALL SELECT 2, 'persona', 'citizen'
			UNION ALL SELECT 3, 'answer_correctness', 'correct' UNION ALL SELECT 4, 'missed_claims_checked', 'checked') f`,
		claims + `INSERT INTO label_events(annotator_id,item_id,field,value,created_at,active_ms)
			SELECT 1, ` + fmt.Sprint(benchPairs+1) + `+j, f.field, f.value, ` + at("j*2+f.k+5") + `, 3000 FROM n, (SELECT 0 AS k, 'claim_validity' AS field, 'correct' AS value
			UNION ALL SELECT 1, 'entailment', 'neutral') f`,
		// todayAnnotator: the same decisions made on screen today (in one
		// session, one every 10 ms from local midnight).
		`INSERT INTO annotators(id,name,human,created_at) VALUES (2,'` + todayAnnotator + `',1,'2026-01-01T00:00:00Z')`,
		`INSERT INTO sessions(id,annotator_id,started_at,client) VALUES (1,2,'` + todayMidnight() + `','bench')`,
		`INSERT INTO label_events(annotator_id,item_id,field,value,created_at,active_ms,session_id)
			SELECT 2, item_id, field, value, strftime('%Y-%m-%dT%H:%M:%fZ', '` + todayMidnight() + `', '+' || ((id-1) * 0.01) || ' seconds'), active_ms, 1
			FROM label_events WHERE annotator_id=1 ORDER BY id`,
		`INSERT INTO current_labels(item_id,field,role,annotator_id,value,event_id)
			SELECT item_id, field, role, annotator_id, value, id FROM label_events ORDER BY item_id, field, role, annotator_id`,
	}
}

// benchModel opens the QA queue of a fresh annotator, runs Init and returns
// the model with its first item on screen.
func benchModel(b *testing.B, s *store.Store, who, kind string) (*Model, *harness) {
	h := &harness{t: b, s: s, clock: newClock()}
	h.m = New(Options{Store: s, Annotator: who, Kind: kind, Client: "bench"})
	h.m.e.noTicks = true
	h.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	h.run(h.m.Init())
	if h.item() == nil {
		b.Fatalf("no item on screen:\n%s", h.view())
	}
	return h.m, h
}

// decisionKey is a valid key for the field on screen.
func decisionKey(m *Model) tea.KeyPressMsg {
	s := m.cur.(*itemScreen)
	switch {
	case s.at.kind == askOwn, s.at.field == schema.Category:
		return keyMsg("enter")
	case s.at.field == schema.QuestionValidity, s.at.field == schema.ClaimValidity:
		return keyMsg("y")
	}
	return keyMsg("1")
}

// runUntilSaved runs the command of a key press (the save), feeds its
// answer back and keeps the commands that answer returns (preloads, queue
// fetches, counts: background work in the real program) to run after the
// frame is measured.
func runUntilSaved(m *Model, cmd tea.Cmd, later *[]tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			runUntilSaved(m, c, later)
		}
	case opDoneMsg:
		_, next := m.Update(msg)
		*later = append(*later, next)
	default:
		*later = append(*later, func() tea.Msg { return msg })
	}
}

var benchRound int

// BenchmarkKeypressToNextFrame: a decision key, its RecordLabel committed
// (synchronous=FULL), the saved message handled and the next frame
// rendered. Preloading and queue fetches run between key presses, as they
// do in the background of the real program.
func BenchmarkKeypressToNextFrame(b *testing.B) {
	for _, kind := range []string{"qa", "claim"} {
		b.Run(kind, func(b *testing.B) { benchKeypress(b, kind) })
	}
}

var logBuild sync.Once

func benchKeypress(b *testing.B, kind string) {
	s := bigStore(b)
	benchRound++
	m, h := benchModel(b, s, fmt.Sprintf("bench-%d-%d", time.Now().UnixNano(), benchRound), kind)
	lat := make([]time.Duration, 0, b.N)
	tui := make([]time.Duration, 0, b.N) // the TUI's own share: Update and View, without the store's commit
	var later []tea.Cmd
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := decisionKey(m)
		t0 := time.Now()
		_, cmd := m.Update(k)
		t1 := time.Now()
		msg := cmd() // the save: RecordLabel, committed
		t2 := time.Now()
		runUntilSaved(m, func() tea.Msg { return msg }, &later)
		_ = m.View()
		t3 := time.Now()
		lat = append(lat, t3.Sub(t0))
		tui = append(tui, t1.Sub(t0)+t3.Sub(t2))
		b.StopTimer()
		for _, c := range later {
			h.run(c)
		}
		later = later[:0]
		if m.cur.(*itemScreen).saving {
			b.Fatal("the save did not come back")
		}
		b.StartTimer()
	}
	b.StopTimer()
	pct := func(d []time.Duration, p float64) float64 {
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return float64(d[min(len(d)-1, int(p*float64(len(d))))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(lat, 0.50), "p50-ms")
	b.ReportMetric(pct(lat, 0.99), "p99-ms")
	b.ReportMetric(pct(lat, 1), "max-ms")
	b.ReportMetric(pct(tui, 0.99), "tui-p99-ms")
	logBuild.Do(func() {
		b.Logf("store of %d pairs and %d claims built in %s", benchPairs, benchPairs*benchClaimsPerPair, bigTook.Round(time.Millisecond))
	})
}

// BenchmarkFirstFrame: New, Init's commands (session, queue fetch, counts,
// first item) and the first View with the first item of the queue.
func BenchmarkFirstFrame(b *testing.B) {
	s := bigStore(b)
	b.ResetTimer()
	var total time.Duration
	for i := 0; i < b.N; i++ {
		benchRound++
		t0 := time.Now()
		m, _ := benchModel(b, s, fmt.Sprintf("first-%d-%d", time.Now().UnixNano(), benchRound), "qa")
		_ = m.View()
		total += time.Since(t0)
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms")
}

// BenchmarkHomeFirstFrame: the home screen with its progress rows, first
// for the annotator with 800,000 of the 1,000,000 claims done, then for the
// one who did the same today, then for a new one.
func BenchmarkHomeFirstFrame(b *testing.B) {
	s := bigStore(b)
	for _, who := range []string{doneAnnotator, todayAnnotator, "home-bench"} {
		b.Run(who, func(b *testing.B) {
			var total time.Duration
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				h := &harness{t: b, s: s, clock: newClock()}
				h.m = New(Options{Store: s, Annotator: who, Client: "bench"})
				h.m.e.noTicks = true
				h.send(tea.WindowSizeMsg{Width: 120, Height: 40})
				h.run(h.m.Init())
				_ = h.m.View()
				total += time.Since(t0)
				hs, ok := h.m.cur.(*homeScreen)
				if !ok || hs.rows == nil {
					b.Fatal("home has no rows")
				}
				if who != "home-bench" && !homeShows(hs, "claim", donePairs*benchClaimsPerPair) {
					b.Fatalf("the claim queue does not show %d done: %+v", donePairs*benchClaimsPerPair, hs.rows)
				}
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms")
		})
	}
}

// homeShows reports whether the home screen's queue of a kind shows done
// items done.
func homeShows(hs *homeScreen, kind string, done int) bool {
	for _, r := range hs.rows {
		if !r.header && r.kind == kind && r.batch == "" {
			return r.done == done
		}
	}
	return false
}
