package store

import (
	"bytes"
	"cmp"
	"errors"
	"maps"
	"slices"
)

// The bulk reads by pages, each falling back to its SQL version.

// byPages returns the page reader and the record positions of a table's
// columns, or nil if the table is to be read by SQL.
func (r *ReportReader) byPages(table string, cols ...string) (*reportPages, *reportTable, []int, error) {
	p, err := r.pages()
	if p == nil || err != nil {
		return nil, nil, nil, err
	}
	t, err := p.table(table)
	var pos []int
	if err == nil {
		pos, err = t.positions(cols...)
	}
	if errors.Is(err, errNoPages) {
		return nil, nil, nil, nil
	}
	if err != nil {
		return nil, nil, nil, err
	}
	return p, t, pos, nil
}

// rowidTable is byPages for a rowid table read with its INTEGER PRIMARY KEY.
func (r *ReportReader) rowidTable(table, key string, cols ...string) (*reportPages, *reportTable, []int, error) {
	p, t, pos, err := r.byPages(table, cols...)
	if p != nil && (!t.rowid || t.alias != key) {
		return nil, nil, nil, nil
	}
	return p, t, pos, err
}

// addedClaims reads the claims table: every claim's item id, in order, and
// for those an annotator added, who (0 if unknown).
func (r *ReportReader) addedClaims(p *reportPages, t *reportTable, pos []int) (ids []int64, added map[int64]int64, err error) {
	added = map[int64]int64{}
	err = p.scan(t.root, slices.Max(pos)+1, func(e *reportEntry) error {
		ids = append(ids, e.rowid)
		if o, ok := e.rec.text(pos[0]); ok && string(o) == OriginAnnotator {
			by, err := e.rec.intOr0(pos[1])
			added[e.rowid] = by
			return err
		}
		return nil
	})
	if !slices.IsSorted(ids) { // claims read from overflow pages come last
		slices.Sort(ids)
	}
	return ids, added, err
}

// QAs lists every QA pair in import order, with their ext ids if extIDs.
func (r *ReportReader) QAs(extIDs bool) ([]ReportQA, error) {
	qas, _, err := r.items(extIDs, true, false)
	return qas, err
}

// Claims lists every claim (extracted and annotator-added) in import order,
// with their ext ids if extIDs: a million ext ids cost as much to read as
// the rest of the row, and most reports only print counts.
func (r *ReportReader) Claims(extIDs bool) ([]ReportClaim, error) {
	_, claims, err := r.items(extIDs, false, true)
	return claims, err
}

// QAsAndClaims is QAs and Claims in one read of the items.
func (r *ReportReader) QAsAndClaims(extIDs bool) ([]ReportQA, []ReportClaim, error) {
	return r.items(extIDs, true, true)
}

func (r *ReportReader) items(extIDs, wantQAs, wantClaims bool) (qas []ReportQA, claims []ReportClaim, err error) {
	pc, tc, posC, err := r.rowidTable("claims", "item_id", "origin", "added_by")
	if err != nil {
		return nil, nil, err
	}
	pi, ti, posI, err := r.rowidTable("items", "id", "ext_id", "kind", "source_id", "parent_id")
	if err != nil {
		return nil, nil, err
	}
	pq, tq, posQ, err := r.rowidTable("qa_pairs", "item_id", "category")
	if err != nil {
		return nil, nil, err
	}
	if pc == nil || pi == nil || pq == nil {
		if wantQAs {
			if qas, err = r.qasSQL(extIDs); err != nil {
				return nil, nil, err
			}
		}
		if wantClaims {
			claims, err = r.claimsSQL(extIDs)
		}
		return qas, claims, err
	}
	ids, added, err := r.addedClaims(pc, tc, posC)
	if err != nil {
		return nil, nil, err
	}
	if wantClaims {
		claims = make([]ReportClaim, 0, len(ids))
	}
	// Items with a parent, except claims an annotator added, make their
	// parent an answer with claims (only claims have a parent).
	parents := map[int64]bool{}
	lastParent := int64(-1)
	k := 0
	err = pi.scan(ti.root, slices.Max(posI)+1, func(e *reportEntry) error {
		rec := &e.rec
		_, isAdded := added[e.rowid]
		var parent int64
		if !rec.null(posI[3]) {
			var err error
			if parent, err = rec.mustInt(posI[3]); err != nil {
				return err
			}
			if wantQAs && !isAdded && parent != lastParent {
				parents[parent], lastParent = true, parent
			}
		}
		var ext string
		if extIDs {
			b, err := rec.mustText(posI[0])
			if err != nil {
				return err
			}
			ext = string(b)
		}
		if kind, ok := rec.text(posI[1]); wantQAs && ok && string(kind) == "qa" {
			q := ReportQA{ItemID: e.rowid, ExtID: ext}
			var err error
			if q.SourceID, err = rec.intOr0(posI[2]); err != nil {
				return err
			}
			qas = append(qas, q)
		}
		if !wantClaims {
			return nil
		}
		// Claims and items both come in id order (but for rows read from
		// overflow pages): a merge join.
		for k < len(ids) && ids[k] < e.rowid {
			k++
		}
		if k == len(ids) || ids[k] != e.rowid {
			if _, ok := slices.BinarySearch(ids, e.rowid); !ok {
				return nil
			}
		}
		c := ReportClaim{ItemID: e.rowid, ExtID: ext, QAItemID: parent, Origin: OriginExtracted}
		if isAdded {
			c.Origin, c.AddedBy = OriginAnnotator, added[e.rowid]
		}
		var err error
		c.SourceID, err = rec.intOr0(posI[2])
		claims = append(claims, c)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	if byID := func(a, b ReportClaim) int { return cmp.Compare(a.ItemID, b.ItemID) }; !slices.IsSortedFunc(claims, byID) {
		slices.SortFunc(claims, byID)
	}
	if !wantQAs {
		return nil, claims, nil
	}
	byID := func(a ReportQA, id int64) int { return cmp.Compare(a.ItemID, id) }
	if !slices.IsSortedFunc(qas, func(a, b ReportQA) int { return byID(a, b.ItemID) }) {
		slices.SortFunc(qas, func(a, b ReportQA) int { return byID(a, b.ItemID) })
	}
	for i := range qas {
		qas[i].HasClaims = parents[qas[i].ItemID]
	}
	in := reportInterner{}
	k = 0
	err = pq.scan(tq.root, slices.Max(posQ)+1, func(e *reportEntry) error {
		// qa_pairs in id order too (but for overflow): another merge.
		for k < len(qas) && qas[k].ItemID < e.rowid {
			k++
		}
		i := k
		if i == len(qas) || qas[i].ItemID != e.rowid {
			var ok bool
			if i, ok = slices.BinarySearchFunc(qas, e.rowid, byID); !ok {
				return nil
			}
		}
		cat, err := e.rec.textOrEmpty(posQ[0])
		qas[i].Category = in.bytes(cat)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return qas, claims, nil
}

// Predictions lists one system's predictions by claim.
func (r *ReportReader) Predictions(system string) ([]ReportPrediction, error) {
	p, t, pos, err := r.byPages("predictions", "item_id", "system", "value")
	if err != nil {
		return nil, err
	}
	if p == nil || t.rowid {
		return r.predictionsSQL(system)
	}
	var out reportChunks[ReportPrediction]
	in := reportInterner{}
	systems := map[string]bool{}
	last := []byte(nil)
	err = p.scan(t.root, slices.Max(pos)+1, func(e *reportEntry) error {
		sys, ok := e.rec.text(pos[1])
		if !ok {
			return nil
		}
		if !bytes.Equal(sys, last) {
			systems[in.bytes(sys)] = true
			last = append(last[:0], sys...)
		}
		if string(sys) != system {
			return nil
		}
		pr := ReportPrediction{}
		var err error
		if pr.ItemID, err = e.rec.mustInt(pos[0]); err != nil {
			return err
		}
		v, err := e.rec.mustText(pos[2])
		pr.Value = in.bytes(v)
		out.add(pr)
		return err
	})
	if err != nil {
		return nil, err
	}
	preds := out.slice()
	byItem := func(a, b ReportPrediction) int { return cmp.Compare(a.ItemID, b.ItemID) }
	if !slices.IsSortedFunc(preds, byItem) { // predictions read from overflow pages come last
		slices.SortFunc(preds, byItem)
	}
	r.pgMu.Lock()
	r.systems = slices.Sorted(maps.Keys(systems))
	r.pgMu.Unlock()
	return preds, nil
}

// Systems lists the systems that have predictions, by name.
func (r *ReportReader) Systems() ([]string, error) {
	r.pgMu.Lock()
	systems := slices.Clone(r.systems)
	r.pgMu.Unlock()
	if systems != nil {
		return systems, nil
	}
	return r.systemsSQL()
}
