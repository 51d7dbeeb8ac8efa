package store

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// BatchSpec describes a batch to cut.
type BatchSpec struct {
	Name    string
	Kind    string // "qa" | "claim"
	Size    int    // 0: every remaining item
	Pilot   bool
	Source  string   // only items of this source
	Assign  []string // assignees; none: open to everyone
	Overlap int      // each item goes to Overlap assignees; 0 or len(Assign): to all
	Seed    *int64   // shuffle the chosen items reproducibly
	// OnlyCorrectAnswers keeps claims whose answer some annotator judged correct
	// (the paper's flow: claims are verified only for correct answers).
	OnlyCorrectAnswers bool
}

// Batch is a batch with its members' count and assignees.
type Batch struct {
	Name      string
	Kind      string
	Pilot     bool
	Size      int
	Overlap   int
	Source    string
	Assignees []string
	CreatedAt string
}

// CreateBatch takes the next items of a kind that are in no batch of that kind
// yet (import order, optionally one source), shuffles them with the seed if
// given, and assigns them. Each item goes to Overlap assignees, balanced
// round-robin, so every assignee gets the same number of items when they divide.
func (s *Store) CreateBatch(spec BatchSpec) (Batch, error) {
	if spec.Kind != "qa" && spec.Kind != "claim" {
		return Batch{}, fmt.Errorf("batch kind %q: must be qa or claim", spec.Kind)
	}
	if spec.Overlap < 0 || spec.Overlap > len(spec.Assign) {
		return Batch{}, fmt.Errorf("--overlap %d: must be between 1 and the number of assignees (%d)", spec.Overlap, len(spec.Assign))
	}
	if spec.Overlap == 0 {
		spec.Overlap = len(spec.Assign)
	}
	var b Batch
	err := s.write(func(tx *wtx) error {
		var exists bool
		tx.QueryRow("SELECT EXISTS(SELECT 1 FROM batches WHERE name=?)", spec.Name).Scan(&exists)
		if exists {
			return fmt.Errorf("batch %q exists already", spec.Name)
		}
		where := []string{"i.kind=?", "NOT EXISTS (SELECT 1 FROM batch_items bi JOIN batches b ON b.id=bi.batch_id WHERE bi.item_id=i.id AND b.kind=i.kind)"}
		args := []any{spec.Kind}
		if spec.Kind == "claim" {
			where = append(where, "EXISTS (SELECT 1 FROM claims c WHERE c.item_id=i.id AND c.origin='extracted')")
		}
		if spec.Source != "" {
			where = append(where, "i.source_id=(SELECT id FROM sources WHERE name=?)")
			args = append(args, spec.Source)
		}
		if spec.OnlyCorrectAnswers {
			where = append(where, "EXISTS (SELECT 1 FROM current_labels l WHERE l.item_id=i.parent_id AND l.role='annotate' AND l.field='answer_correctness' AND l.value='correct')")
		}
		q := "SELECT i.id FROM items i WHERE " + strings.Join(where, " AND ") + " ORDER BY i.id"
		if spec.Size > 0 {
			q += fmt.Sprintf(" LIMIT %d", spec.Size)
		}
		ids, err := int64s(tx, q, args...)
		if err != nil {
			return err
		}
		if len(ids) == 0 {
			return fmt.Errorf("no %s items left to put in batch %q", spec.Kind, spec.Name)
		}
		if spec.Seed != nil {
			r := rand.New(rand.NewPCG(uint64(*spec.Seed), 0x616e6e6f74617465))
			r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		}
		var seed any
		if spec.Seed != nil {
			seed = *spec.Seed
		}
		res, err := tx.Exec("INSERT INTO batches(name,kind,pilot,overlap,seed,source,created_at) VALUES (?,?,?,?,?,?,?)",
			spec.Name, spec.Kind, spec.Pilot, spec.Overlap, seed, spec.Source, now())
		if err != nil {
			return err
		}
		bid, _ := res.LastInsertId()
		aids := make([]int64, len(spec.Assign))
		for i, name := range spec.Assign {
			if aids[i], err = annotatorID(tx, name); err != nil {
				return err
			}
			if _, err := tx.Exec("INSERT INTO batch_assignees(batch_id,annotator_id) VALUES (?,?)", bid, aids[i]); err != nil {
				return fmt.Errorf("assignee %q: %w", name, err)
			}
		}
		if err := tx.touch(ids...); err != nil {
			return err
		}
		slot := 0
		for pos, id := range ids {
			if _, err := tx.Exec("INSERT INTO batch_items(batch_id,position,item_id) VALUES (?,?,?)", bid, pos+1, id); err != nil {
				return err
			}
			for j := 0; j < spec.Overlap; j++ {
				if _, err := tx.Exec("INSERT INTO assignments(batch_id,annotator_id,item_id) VALUES (?,?,?)", bid, aids[slot%len(aids)], id); err != nil {
					return err
				}
				slot++
			}
		}
		b = Batch{Name: spec.Name, Kind: spec.Kind, Pilot: spec.Pilot, Size: len(ids), Overlap: spec.Overlap, Source: spec.Source, Assignees: spec.Assign}
		return nil
	})
	return b, err
}

// Batches lists every batch in creation order.
func (s *Store) Batches() ([]Batch, error) {
	rows, err := s.db.Query(`SELECT b.id, b.name, b.kind, b.pilot, b.overlap, b.source, b.created_at,
		(SELECT COUNT(*) FROM batch_items WHERE batch_id=b.id),
		COALESCE((SELECT group_concat(a.name, ',') FROM batch_assignees x JOIN annotators a ON a.id=x.annotator_id WHERE x.batch_id=b.id),'')
		FROM batches b ORDER BY b.id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Batch
	for rows.Next() {
		var b Batch
		var id int64
		var names string
		if err := rows.Scan(&id, &b.Name, &b.Kind, &b.Pilot, &b.Overlap, &b.Source, &b.CreatedAt, &b.Size, &names); err != nil {
			return nil, err
		}
		if names != "" {
			b.Assignees = strings.Split(names, ",")
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

// BatchItems returns the ext ids of a batch's items assigned to annotator ("" : all), in order.
func (s *Store) BatchItems(batch, annotator string) ([]string, error) {
	q := `SELECT i.ext_id FROM batch_items b JOIN batches bt ON bt.id=b.batch_id JOIN items i ON i.id=b.item_id WHERE bt.name=?`
	args := []any{batch}
	if annotator != "" {
		q += ` AND EXISTS (SELECT 1 FROM assignments a JOIN annotators n ON n.id=a.annotator_id WHERE a.batch_id=b.batch_id AND a.item_id=b.item_id AND n.name=?)`
		args = append(args, annotator)
	}
	rows, err := s.db.Query(q+" ORDER BY b.position", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var e string
		if err := rows.Scan(&e); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		var ok bool
		s.db.QueryRow("SELECT EXISTS(SELECT 1 FROM batches WHERE name=?)", batch).Scan(&ok)
		if !ok {
			return nil, notFound("batch", batch)
		}
	}
	return out, rows.Err()
}

func int64s(q querier, query string, args ...any) ([]int64, error) {
	rows, err := q.Query(query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var v int64
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
