package store

// PutLabels records imported labels as PutLabel does, in order. It reports
// which labels appended an event; on error the slice holds the results of the
// labels before the failing one, so len(result) is the failing index.
func (t *Tx) PutLabels(ls []Label) ([]bool, error) {
	out := make([]bool, 0, len(ls))
	for _, l := range ls {
		added, err := t.PutLabel(l)
		if err != nil {
			return out, err
		}
		out = append(out, added)
	}
	return out, nil
}

// RefreshDone brings done_items up to date for every (annotator, item) whose
// labels this import changed. Import does it when fn returns; an importer
// that adds claims after labels calls it last, since a claim's done state
// depends on which claim of its answer is last.
func (t *Tx) RefreshDone() error {
	for k := range t.touched {
		if err := refreshDone(t.tx, k[0], k[1]); err != nil {
			return err
		}
		delete(t.touched, k)
	}
	return nil
}
