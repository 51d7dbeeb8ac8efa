package store

// One item as the adjudication screens show it: its payload, every
// annotator's labels and notes, the adjudicated labels and the systems'
// predictions.

// AdjudicationDetail is everything the review screens show of one item.
type AdjudicationDetail struct {
	ItemRef
	Payload     any                          // the item as its kind loads it (*Query, *Relevance, …)
	Root        any                          // its family's root as its kind loads it (a child's parent; a root: Payload)
	Aside       any                          // what the kind shows beside the item (a generated claim's evidence)
	Labels      map[string]map[string]string // annotator -> current labels
	Notes       map[string]string            // annotator -> note ("" none)
	Flagged     map[string]bool              // annotator -> flag
	Final       map[string]string            // adjudicated labels
	Predictions map[string]string            // system -> value of PredictedField; only when asked for
	// PredictedField is the field the systems predict on the item's kind
	// (Predicted), read only with the predictions.
	PredictedField string
	LeadNote       string            // the lead's notes, one a line (ItemNote)
	LeadNotes      map[string]string // … per field (FieldNotes)
	LeadFlagged    bool
}

// AdjudicationItem loads one item, in one snapshot, with the labels, notes and
// flags of the annotators, the adjudicated labels and the lead's note and
// flag. Review reads predictions only for the system view: adjudicating with
// the system's answer on screen would bias the labels it is measured against.
func (rx *ReadTx) AdjudicationItem(ref ItemRef, annotators []string, lead string, predictions bool) (AdjudicationDetail, error) {
	d := AdjudicationDetail{ItemRef: ref, Labels: map[string]map[string]string{}, Notes: map[string]string{},
		Flagged: map[string]bool{}, Final: map[string]string{}}
	err := func() error {
		ids, err := familyOf(rx.q, ref.ItemID)
		if err != nil {
			return err
		}
		items, err := loadItems(rx.q, []int64{ids[0], ref.ItemID})
		if err != nil {
			return err
		}
		if root := items[ids[0]]; root != nil {
			d.Root = root.Payload
		}
		if it := items[ref.ItemID]; it != nil {
			d.Payload = it.Payload
			if d.Aside, err = aside(rx.q, it); err != nil {
				return err
			}
		}
		for _, a := range annotators {
			if d.Labels[a], err = labelsByName(rx.q, a, ref.ItemID); err != nil {
				return err
			}
			if d.Notes[a], d.Flagged[a], err = itemNote(rx.q, a, ref.ItemID); err != nil {
				return err
			}
		}
		if d.LeadNote, d.LeadFlagged, err = itemNote(rx.q, lead, ref.ItemID); err != nil {
			return err
		}
		if d.LeadNotes, err = fieldNotes(rx.q, lead, ref.ItemID); err != nil {
			return err
		}
		if err := scanPairs(rx.q, d.Final, "SELECT field, value FROM current_labels WHERE item_id=? AND role='adjudicate' AND annotator_id=0", ref.ItemID); err != nil {
			return err
		}
		if field := predictedField(ref.Kind); predictions && field != "" {
			d.Predictions, d.PredictedField = map[string]string{}, field
			return scanPairs(rx.q, d.Predictions, "SELECT system, value FROM predictions WHERE item_id=? AND field=?", ref.ItemID, field)
		}
		return nil
	}()
	return d, err
}

// labelsByName returns an annotator's current labels on an item (none when
// the name is unknown).
func labelsByName(q querier, annotator string, item int64) (map[string]string, error) {
	aid, ok, err := lookupAnnotator(q, annotator)
	if err != nil {
		return nil, err
	}
	if !ok {
		return map[string]string{}, nil
	}
	return labelsOf(q, aid, item)
}

// scanPairs reads two text columns into a map.
func scanPairs(q querier, dst map[string]string, query string, args ...any) error {
	return eachRow(q, query, args, func(sc func(...any) error) error {
		var k, v string
		if err := sc(&k, &v); err != nil {
			return err
		}
		dst[k] = v
		return nil
	})
}
