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
