package importer

import (
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// What a kind registered from outside this package (a test package's toy
// kind: internal/toykind) needs of the importer.

// RegisterBareNative registers the native line of a bare kind
// (store.RegisterBareKind): {"kind":k,"id":…,"labels":{annotator:{field:value}}},
// and the rows of its hf config (hfConfig: an "id" column, the annotator
// and the kind's fields). Other keys are counted as unknown and dropped (a
// bare item keeps nothing but its id).
func RegisterBareNative(k schema.Kind, hfConfig string) {
	hfKinds[hfConfig] = hfKind{kind: k}
	hfOtherConfigs = append(hfOtherConfigs, hfConfig) // read last: a bare item needs no other
	registerNative(k, func(f *fileData, r *rec) (*itemRec, error) {
		id, err := r.needID("id")
		if err != nil {
			return nil, err
		}
		if _, err := f.itemRest(r, id, k); err != nil {
			return nil, err
		}
		return &itemRec{idField: "id", kind: k, id: id, hash: contentHash(struct{ Kind, ID string }{string(k), id}),
			put: func(tx *store.Tx, hash, file string, update bool) (int64, store.PutResult, error) {
				return tx.PutItem(k, id, 0, 0, hash, file, update)
			}}, nil
	})
}
