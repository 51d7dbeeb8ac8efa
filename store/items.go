package store

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
