package store

import (
	"database/sql"
	"fmt"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/tally"
)

// What the store needs of a kind. Every kind implements Kind (its table
// and its payloads) and registers it from its own file (kind_<kind>.go)
// with Register; what only some kinds have is an optional interface below,
// which the generic code checks with a type assertion where it needs it.
// The generic code names no kind: it asks the registered ones.

// Querier is what a kind's SQL is read from: a read snapshot's connection
// or an import's transaction.
type Querier interface {
	Query(query string, args ...any) (*sql.Rows, error)
	QueryRow(query string, args ...any) *sql.Row
}

// querier is the name the store's own code uses for a Querier.
type querier = Querier

// Writer is what a kind writes its payload with during an import: the
// import's transaction (its statements prepared once each).
type Writer interface {
	Querier
	Exec(query string, args ...any) (sql.Result, error)
}

// Kind is what the store needs of every kind of the schema: the store
// refuses to open while a kind of the schema has none registered.
type Kind interface {
	Kind() schema.Kind
	// Table names the table of the kind's own rows, keyed by item_id:
	// created by a numbered migration (the kinds of the product) or by the
	// kind's TableSchema at Open. "" for a kind whose items are their
	// items row alone. The store refuses to open when it is not there.
	Table() string
	// Payloads reads the payloads (*QAPair, *Claim, …: what Item.Payload
	// holds) of the items ids of the kind, keyed by item id, in one query
	// or a few, from what q sees.
	Payloads(q Querier, ids []int64) (map[int64]any, error)
}

// TableSchema is a kind that creates its own table: the statements run at
// Open, in one transaction, when its Table is not in the file yet (a kind
// defined outside the store, which has no migration of its own). The table
// is then one of the file's like any other: backed up, restored and
// journalled by an import.
type TableSchema interface {
	TableSchema() string
}

// PayloadWriter is a kind that writes its payload through Tx.Put: the row
// (or rows) of item in its Table, the item's row just written (added or
// replaced). The kinds of the product write theirs in Put methods of their
// own (PutQA, PutClaim, …), which also resolve the ids they refer to.
type PayloadWriter interface {
	PutPayload(w Writer, item int64, payload any) error
}

// The SQL fragments below are expressions or conditions over an item of
// the kind at alias i (items i), unless said otherwise.

// QueueCond is a kind of which only some items have a queue of their own
// (of claims the extracted ones, of relevance pairs the pooled ones): the
// condition that an item does.
type QueueCond interface {
	QueueCond() string
}

// Hopped is a kind whose items belong to a pair of some hop (a QA pair's,
// a claim's pair's), which batches select by: the hop's expression.
type Hopped interface {
	HopSQL() string
}

// AnswerGated is a kind whose items are asked only once their answer is
// judged correct (a claim: its pair): the expression of the gating pair's
// item id.
type AnswerGated interface {
	AnswerSQL() string
}

// GivenParent is a kind that waits for its parent's labels
// (schema.WaitsForParent) unless the parent was imported as given (a QA
// pair whose answer is a system response): GivenParentSQL is the
// condition on the parent at {parent} that its items are asked at once,
// GivenParentsSQL a query of those parents' item ids.
type GivenParent interface {
	GivenParentSQL() string
	GivenParentsSQL() string
}

// Attributed is a kind whose items have attributes the counts read
// (tally.Member.Attrs): the names, and SQL selecting item_id then one
// column per name for the item ids in the JSON array ?1.
type Attributed interface {
	Attrs() (names []string, query string)
}

// QueryGrouped is a kind whose items each belong to a query of a
// retrieval benchmark without being its children (a relevance judgment's
// pair): QuerySQL is the query's item id, an expression over the item whose
// id is %[1]s. The cost report gives such a task's minutes per query.
type QueryGrouped interface {
	QuerySQL() string
}

// Searched is a kind whose items have text of their own the queue search
// matches, beside their id: an expression of it over the item whose id is
// %[1]s.
type Searched interface {
	SearchSQL() string
}

// Languaged is a kind whose items may declare their language (QA pairs,
// queries, documents), over the item whose id is %[1]s: LanguageSQL the
// language the item declares (NULL or ”: none, its source's is read),
// SampleSQL the text whose words the card reads when none is declared.
type Languaged interface {
	LanguageSQL() string
	SampleSQL() string
}

// Predicted is a kind whose systems predict one of its labelled fields (a
// claim's entailment), compared with an expert's in the system view.
// Enters returns the step at which the item leaves the comparison
// (tally.StepReady: it enters) and the expert's value, "" for an item not
// asked of the rater or not judged.
type Predicted interface {
	PredictedField() string
	Enters(f *tally.Family, m *tally.Member, rater int64) (step, expert string)
}

// AddedItems is a kind whose items an annotator may add to a family (a
// claim the extractor missed): AddedBy says who added the item of payload
// (added false: it was imported), AddedMarker the field that stands while
// the addition does. An added item is not a sibling: it is one of the
// annotator's own (Mine) while its marker is "yes", and nobody else's.
type AddedItems interface {
	AddedBy(payload any) (annotator string, added bool)
	AddedMarker() string
}

// Aside is a kind whose screens show more than the item's family (a
// generated claim's evidence): what is shown beside the item id, read in
// the snapshot of the item's load.
type Aside interface {
	Aside(q Querier, id int64) (any, error)
}

// UndoesBack is a kind whose undone decisions go back to another item
// than their own (the answer-level marker to the answer's last claim):
// that item's id, 0 for the event's own.
type UndoesBack interface {
	UndoBack(q Querier, ev Event) (int64, error)
}

// The registered kinds, in the order of registration, and by name.
var kinds schema.Registry[Kind]

// Register adds a kind to the store; each kind's file calls it from init.
// A kind registered twice is a mistake of the program.
func Register(k Kind) { kinds.Add(k) }

// Put adds (or, with update, replaces) an item of a kind that writes its
// own payload (PayloadWriter): its items row as PutItem writes it, then
// its payload, by the kind. An unchanged item is written no further.
func (t *Tx) Put(k schema.Kind, extID string, source, parent int64, hash, file string, update bool, payload any) (int64, PutResult, error) {
	w, ok := kinds.Get(k).(PayloadWriter)
	if !ok {
		return 0, 0, fmt.Errorf("kind %s writes no payload through Put (its store.Kind is not a PayloadWriter)", k)
	}
	id, res, err := t.PutItem(k, extID, source, parent, hash, file, update)
	if err != nil || res == Unchanged {
		return id, res, err
	}
	return id, res, w.PutPayload(t.tx, id, payload)
}
