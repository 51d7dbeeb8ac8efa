package store

import (
	"database/sql"
	"errors"
	"strings"
)

// ItemRef names an item.
type ItemRef struct {
	ItemID int64
	ExtID  string
	Kind   string
}

// Resolve finds an item by its ext id.
func (s *Store) Resolve(extID string) (ItemRef, error) {
	id, kind, err := itemID(s.db, extID)
	return ItemRef{ItemID: id, ExtID: extID, Kind: kind}, err
}

// FindItems finds the items a typed id names, best first: the item with
// exactly that id; else the items whose id equals it ignoring case; else
// those whose id starts with it ignoring case (ASCII letters, as SQL LIKE
// does), in id order. It returns at most limit+1 items, so that one item
// means a match and more than limit means "and more". An exact id is one
// index lookup; the others read the ids of every item (a go-to is rare).
func (s *Store) FindItems(typed string, limit int) ([]ItemRef, error) {
	if typed == "" {
		return nil, nil
	}
	// The items of an import in progress are not found (pendingItemSQL).
	shown := " AND NOT " + pendingItemSQL("id")
	var r ItemRef
	err := s.db.QueryRow("SELECT id, ext_id, kind FROM items WHERE ext_id=?"+shown, typed).Scan(&r.ItemID, &r.ExtID, &r.Kind)
	if err == nil {
		return []ItemRef{r}, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	refs, err := s.itemRefs("SELECT id, ext_id, kind FROM items WHERE ext_id=? COLLATE NOCASE"+shown+" ORDER BY ext_id LIMIT ?", typed, limit+1)
	if err != nil || len(refs) > 0 {
		return refs, err
	}
	pattern := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(typed) + "%"
	return s.itemRefs(`SELECT id, ext_id, kind FROM items WHERE ext_id LIKE ? ESCAPE '\'`+shown+` ORDER BY ext_id LIMIT ?`, pattern, limit+1)
}

func (s *Store) itemRefs(q string, args ...any) ([]ItemRef, error) {
	rows, err := s.db.Query(q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ItemRef
	for rows.Next() {
		var r ItemRef
		if err := rows.Scan(&r.ItemID, &r.ExtID, &r.Kind); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
