package store

import (
	"cmp"
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Bulk reads for the reports (stats, metrics, agreement). Each returns every
// row of one kind as a plain slice (or, for labels, hands them over one by
// one): a report over a million claims must not pay a query or a map per
// item.
//
// With modernc.org/sqlite, handing rows to Go costs far more than the
// reports' own work: stepping 3,000,000 labels out took about 3 s, and even
// SQLite's bytecode engine alone (running as Go code) takes 0.15 to 0.4 µs a
// row, so no query over the rows stays under a second. Hence the bulk reads
// decode the tables' pages themselves (see "Reading b-tree pages" below),
// which costs tens of nanoseconds a row, and:
//   - repeated text (fields, values, categories) is interned, so a million
//     rows hold a handful of strings; labels are handed over as bytes;
//   - ext ids only on request (reports print counts);
//   - a reader may be used from several goroutines: one statement runs at a
//     time, the decoding in parallel (the reports read items, labels and
//     predictions at once).
//
// All reads of one ReportReader see one snapshot (a read transaction on one
// connection), so a report taken while annotators keep working is
// consistent.

// ReportSource is a source with its language.
type ReportSource struct {
	ID       int64
	Name     string
	Language string
}

// ReportQA is a QA pair as the reports need it.
type ReportQA struct {
	ItemID    int64
	ExtID     string // only when asked for (ReportReader.QAs(true))
	SourceID  int64  // 0: none
	Category  string // the generated category
	HasClaims bool   // at least one extracted claim
}

// ReportClaim is a claim as the reports need it.
type ReportClaim struct {
	ItemID   int64
	ExtID    string // only when asked for (ReportReader.Claims(true))
	QAItemID int64
	SourceID int64  // 0: none
	Origin   string // OriginExtracted or OriginAnnotator
	AddedBy  int64  // annotator who added it, 0 if none
}

// ReportPrediction is one system's prediction on a claim, as stored.
type ReportPrediction struct {
	ItemID int64
	Value  string
}

// ReportLabel is one current label. AnnotatorID is 0 for adjudicated labels.
type ReportLabel struct {
	AnnotatorID int64
	ItemID      int64
	Field       string
	Value       string
}

// LabelQuery selects current labels.
type LabelQuery struct {
	// Adjudicated selects the final labels of adjudication (role adjudicate,
	// kept under annotator 0); otherwise the annotators' own labels.
	Adjudicated bool
	// Annotators restricts annotators' labels to these ids; nil: everyone's.
	Annotators []int64
	// Fields restricts to these fields; nil: every field.
	Fields []string
}

// ReportReader reads everything a report needs from one snapshot.
type ReportReader struct {
	ctx  context.Context
	conn *sql.Conn

	// The methods may be called from several goroutines: a statement runs
	// at a time (mu), the decoding of pages in parallel.
	mu      sync.Mutex   // held while a statement runs
	pgMu    sync.Mutex   // guards the fields below
	pg      *reportPages // reads by pages, once known to work
	noPages bool         // reads by SQL only
	systems []string     // every system, when a scan of predictions saw them
}

// ReportReader opens a read-only snapshot; Close ends it.
func (s *Store) ReportReader() (*ReportReader, error) {
	ctx := context.Background()
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	// A plain BEGIN is deferred: it takes no write lock (the driver's BeginTx
	// would say BEGIN IMMEDIATE, see Open), and the snapshot starts at the
	// first read. The connection is ours until Close, so database/sql does
	// not need to know about the transaction.
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		conn.Close()
		return nil, err
	}
	return &ReportReader{ctx: ctx, conn: conn}, nil
}

// Close ends the snapshot and gives the connection back.
func (r *ReportReader) Close() error {
	if _, err := r.conn.ExecContext(r.ctx, "ROLLBACK"); err != nil {
		// The connection may still be in the transaction: have the pool
		// drop it rather than hand it to the next caller.
		r.conn.Raw(func(any) error { return driver.ErrBadConn })
		r.conn.Close()
		return err
	}
	return r.conn.Close()
}

// each runs a query and calls fn with each row's values, which are only valid
// during the call (int64, string, nil, ... as the driver returns them).
func (r *ReportReader) each(query string, args []any, fn func(row []driver.Value) error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	named := make([]driver.NamedValue, len(args))
	for i, a := range args {
		named[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
	}
	return r.conn.Raw(func(dc any) error {
		q, ok := dc.(driver.QueryerContext)
		if !ok {
			return errors.New("the SQLite driver cannot run queries directly")
		}
		rows, err := q.QueryContext(r.ctx, query, named)
		if err != nil {
			return err
		}
		defer rows.Close()
		row := make([]driver.Value, len(rows.Columns()))
		for {
			switch err := rows.Next(row); {
			case errors.Is(err, io.EOF):
				return nil
			case err != nil:
				return err
			}
			if err := fn(row); err != nil {
				return err
			}
		}
	})
}

// count runs a COUNT query, to size a result slice once: growing a slice of
// millions of rows by appending costs more (copies, and a garbage collector
// rescanning each larger copy) than SQLite counting them.
func (r *ReportReader) count(query string, args ...any) (int, error) {
	var n int64
	err := r.each(query, args, func(row []driver.Value) error { return reportInts(row, &n) })
	return int(n), err
}

// Column conversions. The queries COALESCE every column they read with these,
// so a NULL or a value of another type is a bug in this file: say so.
func reportInt(v driver.Value) (int64, error) {
	if n, ok := v.(int64); ok {
		return n, nil
	}
	return 0, fmt.Errorf("store: report column: want an integer, got %T", v)
}

func reportText(v driver.Value) (string, error) {
	switch s := v.(type) {
	case string:
		return s, nil
	case []byte:
		return string(s), nil
	}
	return "", fmt.Errorf("store: report column: want text, got %T", v)
}

// reportInterner returns one shared copy of each distinct string it is given.
type reportInterner map[string]string

func (in reportInterner) get(v driver.Value) (string, error) {
	s, err := reportText(v)
	if err != nil {
		return "", err
	}
	if c, ok := in[s]; ok {
		return c, nil
	}
	in[s] = s
	return s, nil
}

// reportChunks collects rows in fixed-size chunks, then copies them once
// into a slice of the exact size: growing a slice of millions of rows by
// appending copies it again and again.
type reportChunks[T any] struct {
	full [][]T
	cur  []T
	n    int
	last T // the last row added
}

func (c *reportChunks[T]) add(v T) {
	if len(c.cur) == cap(c.cur) {
		if c.cur != nil {
			c.full = append(c.full, c.cur)
		}
		c.cur = make([]T, 0, min(max(1024, 2*c.n), 1<<16))
	}
	c.cur = append(c.cur, v)
	c.n++
	c.last = v
}

func (c *reportChunks[T]) slice() []T {
	out := make([]T, 0, c.n)
	for _, f := range c.full {
		out = append(out, f...)
	}
	return append(out, c.cur...)
}

// bytes is get for bytes read from a page: no allocation once seen.
func (in reportInterner) bytes(b []byte) string {
	if c, ok := in[string(b)]; ok {
		return c
	}
	c := string(b)
	in[c] = c
	return c
}

// ints scans a row of integers.
func reportInts(row []driver.Value, dst ...*int64) error {
	for i, d := range dst {
		n, err := reportInt(row[i])
		if err != nil {
			return err
		}
		*d = n
	}
	return nil
}

// Sources lists the sources by id.
func (r *ReportReader) Sources() ([]ReportSource, error) {
	var out []ReportSource
	err := r.each("SELECT id, name, language FROM sources ORDER BY id", nil, func(row []driver.Value) error {
		var s ReportSource
		var err1, err2, err3 error
		s.ID, err1 = reportInt(row[0])
		s.Name, err2 = reportText(row[1])
		s.Language, err3 = reportText(row[2])
		out = append(out, s)
		return errors.Join(err1, err2, err3)
	})
	return out, err
}

// Annotators lists the annotators in creation order. Every annotator counts
// as a human for the reports: systems' outputs are predictions, not labels.
func (r *ReportReader) Annotators() ([]Annotator, error) {
	var out []Annotator
	err := r.each("SELECT id, name FROM annotators ORDER BY id", nil, func(row []driver.Value) error {
		var a Annotator
		var err1, err2 error
		a.ID, err1 = reportInt(row[0])
		a.Name, err2 = reportText(row[1])
		a.Human = true
		out = append(out, a)
		return errors.Join(err1, err2)
	})
	return out, err
}

// QAs lists every QA pair in import order, with their ext ids if extIDs.
func (r *ReportReader) qasSQL(extIDs bool) ([]ReportQA, error) {
	// The answers with extracted claims, in id order. An EXISTS per pair
	// costs more than this one walk of items' parent index (0.5 s against
	// 0.1 s for 200,000 pairs); only claims have a parent.
	var withClaims []int64
	err := r.each(`SELECT DISTINCT parent_id FROM items WHERE parent_id IS NOT NULL
		AND id NOT IN (SELECT item_id FROM claims WHERE origin='annotator') ORDER BY parent_id`, nil,
		func(row []driver.Value) error {
			var id int64
			err := reportInts(row, &id)
			withClaims = append(withClaims, id)
			return err
		})
	if err != nil {
		return nil, err
	}
	ext := "''"
	if extIDs {
		ext = "i.ext_id"
	}
	n, err := r.count("SELECT COUNT(*) FROM items WHERE kind='qa'")
	if err != nil {
		return nil, err
	}
	out := make([]ReportQA, 0, n)
	in := reportInterner{}
	err = r.each(`SELECT i.id, COALESCE(i.source_id,0), COALESCE(p.category,''), `+ext+`
		FROM items i LEFT JOIN qa_pairs p ON p.item_id=i.id WHERE i.kind='qa' ORDER BY i.id`, nil,
		func(row []driver.Value) error {
			var q ReportQA
			if err := reportInts(row, &q.ItemID, &q.SourceID); err != nil {
				return err
			}
			for len(withClaims) > 0 && withClaims[0] < q.ItemID {
				withClaims = withClaims[1:]
			}
			q.HasClaims = len(withClaims) > 0 && withClaims[0] == q.ItemID
			var err1, err2 error
			q.Category, err1 = in.get(row[2])
			if extIDs {
				q.ExtID, err2 = reportText(row[3])
			}
			out = append(out, q)
			return errors.Join(err1, err2)
		})
	return out, err
}

// Claims lists every claim (extracted and annotator-added) in import order,
// with their ext ids if extIDs: a million ext ids cost as much to read as
// the rest of the row, and most reports only print counts.
func (r *ReportReader) claimsSQL(extIDs bool) ([]ReportClaim, error) {
	ext := "''"
	if extIDs {
		ext = "i.ext_id"
	}
	n, err := r.count("SELECT COUNT(*) FROM claims")
	if err != nil {
		return nil, err
	}
	out := make([]ReportClaim, 0, n)
	// One integer says both the origin and who added the claim: -1 for an
	// extracted claim, else the annotator's id. Each column stepped out of
	// modernc's SQLite costs about as much as SQLite's whole work on the row.
	err = r.each(`SELECT c.item_id, COALESCE(i.parent_id,0), COALESCE(i.source_id,0),
		CASE WHEN c.origin='annotator' THEN COALESCE(c.added_by,0) ELSE -1 END, `+ext+`
		FROM claims c JOIN items i ON i.id=c.item_id ORDER BY c.item_id`, nil,
		func(row []driver.Value) error {
			var c ReportClaim
			var added int64
			if err := reportInts(row, &c.ItemID, &c.QAItemID, &c.SourceID, &added); err != nil {
				return err
			}
			c.Origin = OriginExtracted
			if added >= 0 {
				c.Origin, c.AddedBy = OriginAnnotator, added
			}
			if extIDs {
				var err error
				if c.ExtID, err = reportText(row[4]); err != nil {
					return err
				}
			}
			out = append(out, c)
			return nil
		})
	return out, err
}

// Predictions lists one system's predictions by claim.
func (r *ReportReader) predictionsSQL(system string) ([]ReportPrediction, error) {
	n, err := r.count("SELECT COUNT(*) FROM predictions WHERE system=?", system)
	if err != nil {
		return nil, err
	}
	out := make([]ReportPrediction, 0, n)
	in := reportInterner{}
	err = r.each("SELECT item_id, value FROM predictions WHERE system=?", []any{system}, func(row []driver.Value) error {
		var p ReportPrediction
		if err := reportInts(row, &p.ItemID); err != nil {
			return err
		}
		var err error
		p.Value, err = in.get(row[1])
		out = append(out, p)
		return err
	})
	return out, err
}

// Systems lists the systems that have predictions, by name.
func (r *ReportReader) systemsSQL() ([]string, error) {
	var out []string
	err := r.each("SELECT DISTINCT system FROM predictions ORDER BY system", nil, func(row []driver.Value) error {
		s, err := reportText(row[0])
		out = append(out, s)
		return err
	})
	return out, err
}

// labelScope is one contiguous range of current_labels: role and
// annotator_id lead its primary key.
type labelScope struct {
	role string
	aid  int64
}

func (r *ReportReader) labelScopes(q LabelQuery) ([]labelScope, error) {
	if q.Adjudicated {
		return []labelScope{{RoleAdjudicate, 0}}, nil
	}
	ids := q.Annotators
	if ids == nil {
		as, err := r.Annotators()
		if err != nil {
			return nil, err
		}
		for _, a := range as {
			ids = append(ids, a.ID)
		}
	}
	scopes := make([]labelScope, len(ids))
	for i, id := range ids {
		scopes[i] = labelScope{RoleAnnotate, id}
	}
	return scopes, nil
}

// Labels returns the current labels the query selects, one annotator after
// the other (adjudicated labels under annotator 0), each in item order.
func (r *ReportReader) Labels(q LabelQuery) ([]ReportLabel, error) {
	scopes, err := r.labelScopes(q)
	if err != nil {
		return nil, err
	}
	chunks := map[int64]*reportChunks[ReportLabel]{}
	in := reportInterner{}
	var last *reportChunks[ReportLabel]
	err = r.EachLabel(q, func(aid, item int64, field, value []byte) error {
		if last == nil || last.last.AnnotatorID != aid {
			if last = chunks[aid]; last == nil {
				last = &reportChunks[ReportLabel]{}
				chunks[aid] = last
			}
		}
		last.add(ReportLabel{AnnotatorID: aid, ItemID: item, Field: in.bytes(field), Value: in.bytes(value)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	byAID := map[int64][]ReportLabel{}
	total := 0
	for aid, c := range chunks {
		byAID[aid] = c.slice()
	}
	for _, sc := range scopes {
		total += len(byAID[sc.aid])
	}
	out := make([]ReportLabel, 0, total)
	for _, sc := range scopes {
		ls := byAID[sc.aid]
		byKey := func(a, b ReportLabel) int {
			return cmp.Or(cmp.Compare(a.ItemID, b.ItemID), strings.Compare(a.Field, b.Field))
		}
		if !slices.IsSortedFunc(ls, byKey) { // labels read from overflow pages come last
			slices.SortFunc(ls, byKey)
		}
		out = append(out, ls...)
	}
	return out, nil
}

// EachLabel calls fn with each current label the query selects
// (adjudicated labels under annotator 0), in no particular order; field and
// value are only valid during the call. The reports turn labels into codes
// as they go, without a string or a struct per label.
func (r *ReportReader) EachLabel(q LabelQuery, fn func(annotatorID, itemID int64, field, value []byte) error) error {
	scopes, err := r.labelScopes(q)
	if err != nil || len(scopes) == 0 {
		return err
	}
	var fields map[string]bool
	if q.Fields != nil {
		fields = make(map[string]bool, len(q.Fields))
		for _, f := range q.Fields {
			fields[f] = true
		}
	}
	p, err := r.pages()
	if err != nil {
		return err
	}
	var pos []int
	var t *reportTable
	if p != nil {
		if t, err = p.table("current_labels"); err == nil {
			pos, err = t.positions("role", "annotator_id", "item_id", "field", "value")
		}
		if err != nil && !errors.Is(err, errNoPages) {
			return err
		}
	}
	if pos == nil || t.rowid {
		return r.eachLabelSQL(scopes, q.Fields, fn)
	}
	role := scopes[0].role // one role per query
	aids := map[int64]bool{}
	for _, sc := range scopes {
		aids[sc.aid] = true
	}
	// Only the subtrees that may hold the scopes' labels, when role and
	// annotator_id lead the key (they do: the primary key).
	var keep func(lo, hi []byte) bool
	if pos[0] == 0 && pos[1] == 1 {
		keep = func(lo, hi []byte) bool {
			for aid := range aids {
				if labelKeyCmp(lo, role, aid) <= 0 && labelKeyCmp(hi, role, aid) >= 0 {
					return true
				}
			}
			return false
		}
	}
	lastAID, lastOK := int64(-1), false
	return p.scanRange(t.root, slices.Max(pos)+1, keep, func(e *reportEntry) error {
		rec := &e.rec
		if rl, ok := rec.text(pos[0]); !ok || string(rl) != role {
			return nil
		}
		aid, ok := rec.int(pos[1])
		if !ok {
			return nil
		}
		if aid != lastAID {
			lastAID, lastOK = aid, aids[aid]
		}
		if !lastOK {
			return nil
		}
		field, ok := rec.text(pos[3])
		if !ok {
			return nil // the SQL's field IN (...) matches text only
		}
		if fields != nil && !fields[string(field)] {
			return nil
		}
		item, err := rec.mustInt(pos[2])
		if err != nil {
			return err
		}
		value, err := rec.mustText(pos[4])
		if err != nil {
			return err
		}
		return fn(aid, item, field, value)
	})
}

// labelKeyCmp compares the (role, annotator_id) that lead a current_labels
// key with (role, aid), as SQLite orders them. Where that cannot be told (no
// key, i.e. no bound; a key cut short; unexpected types) it returns 0, which
// keeps the subtree whichever bound the key is.
func labelKeyCmp(key []byte, role string, aid int64) int {
	if key == nil {
		return 0
	}
	var rec reportRecord
	if rec.parse(key, 2) != nil || rec.n < 2 {
		return 0
	}
	r, ok := rec.text(0)
	if !ok || rec.types[0]%2 == 0 { // a blob sorts after every text
		return 0
	}
	if c := strings.Compare(string(r), role); c != 0 {
		return c
	}
	a, ok := rec.int(1)
	if !ok {
		return 0
	}
	return cmp.Compare(a, aid)
}

// eachLabelSQL is EachLabel by SQL, one query per scope.
func (r *ReportReader) eachLabelSQL(scopes []labelScope, fields []string, fn func(aid, item int64, field, value []byte) error) error {
	where := "role=? AND annotator_id=?"
	args := func(sc labelScope) []any { return []any{sc.role, sc.aid} }
	if fields != nil {
		where += " AND field IN (SELECT value FROM json_each(?))"
		fs := jsonStrings(fields)
		args = func(sc labelScope) []any { return []any{sc.role, sc.aid, fs} }
	}
	for _, sc := range scopes {
		err := r.each("SELECT item_id, field, value FROM current_labels WHERE "+where, args(sc), func(row []driver.Value) error {
			item, err := reportInt(row[0])
			if err != nil {
				return err
			}
			field, err1 := reportText(row[1])
			value, err2 := reportText(row[2])
			if err := errors.Join(err1, err2); err != nil {
				return err
			}
			return fn(sc.aid, item, []byte(field), []byte(value))
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// HasAdjudicated reports whether any adjudicated label exists.
func (r *ReportReader) HasAdjudicated() (bool, error) {
	var n int64
	err := r.each("SELECT EXISTS (SELECT 1 FROM current_labels WHERE role=?)", []any{RoleAdjudicate}, func(row []driver.Value) error {
		return reportInts(row, &n)
	})
	return n != 0, err
}

// ExtIDs returns the ext ids of the given items, in the order given; an
// unknown id gives "". For the few items a report lists by name.
func (r *ReportReader) ExtIDs(ids []int64) ([]string, error) {
	byID := make(map[int64]string, len(ids))
	err := r.each("SELECT id, ext_id FROM items WHERE id IN (SELECT value FROM json_each(?))", []any{jsonInts(ids)},
		func(row []driver.Value) error {
			var id int64
			if err := reportInts(row, &id); err != nil {
				return err
			}
			ext, err := reportText(row[1])
			byID[id] = ext
			return err
		})
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = byID[id]
	}
	return out, err
}

// jsonInts and jsonStrings pass a list as one JSON parameter (json_each),
// which has no limit on its length, unlike bound parameters.
func jsonInts(v []int64) string {
	b := []byte{'['}
	for i, n := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, n, 10)
	}
	return string(append(b, ']'))
}

func jsonStrings(v []string) string {
	b, _ := json.Marshal(v) // a []string always encodes
	return string(b)
}
