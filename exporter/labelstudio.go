package exporter

import (
	"encoding/json"
	"fmt"
	"html"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/annotate-dev/annotate/internal/emailmap"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Label Studio (--format label-studio): for every annotated kind the
// database has items of, label-studio/<config>.tasks.json (a JSON array of
// tasks Label Studio imports into a project) and label-studio/<config>.config.xml
// (the labeling config of that project):
//
//   - a task is {"data":{…the item's texts and fields, "annotate_id",
//     "kind"}, "annotations":[…], "predictions":[…], "meta":{…}};
//   - the config has a <Text> per text the kind shows (lsKind.texts) and a
//     control per field of the kind, named after the field: <Choices> with
//     one <Choice> per value for a closed field (choice="multiple" for a
//     multi-valued one), <TextArea> for a free-text field; every control
//     labels the kind's first text.
//
// An annotation holds one annotator's current labels of the kind's fields,
// an adjudicated label set is the annotation of who adjudicated with
// "ground_truth":true; a prediction one system's predictions, named by
// "model_version". A result is {"id","from_name":FIELD,"to_name":TEXT,
// "type":"choices"|"textarea","value":{"choices":[…]}|{"text":[…]}}, and
// uses only the config's choices: a value outside the field's (kept
// verbatim on import, an abstention such as "Abstain") is left out and
// counted in the export's notes.
//
// Label Studio refuses an annotation whose completed_by names an e-mail
// that is not a member's (tasks/serializers.py, _insert_valid_completed_by):
// with --email-map FILE, completed_by is {"email": the annotator's
// address}; for an annotator the map lacks, or without a map, it is left
// out (Label Studio then gives the annotation to whoever imports the
// tasks), and the export's notes name those annotators. Either way the task's meta,
// which Label Studio keeps and exports, names the annotator of each
// annotation by the annotation's id ("annotate_annotators":{"7":"jo"}): an
// annotation keeps that id as its import_id in Label Studio's exports, so
// `annotate import` finds the names again.
//
// `annotate import --format label-studio` reads the tasks file back.

// lsKind is what a kind's Label Studio tasks show.
type lsKind struct {
	// texts are the <Text> tags, in order: the data key each shows and its
	// header. The first is what the kind's fields label (to_name).
	texts []lsText
	// data streams each item (its item id and id) and its task's data
	// (every key of texts among them), in the order of the tasks; nil: the
	// item's base columns, read through the item model.
	data func(e *exporter, fn func(item int64, id string, data map[string]any) error) error
}

type lsText struct{ key, header string }

type lsResult struct {
	ID       string         `json:"id"`
	FromName string         `json:"from_name"`
	ToName   string         `json:"to_name"`
	Type     string         `json:"type"`
	Value    map[string]any `json:"value"`
}

type lsUser struct {
	Email string `json:"email"`
}

type lsAnnotation struct {
	ID          int        `json:"id"`
	CompletedBy *lsUser    `json:"completed_by,omitempty"`
	GroundTruth bool       `json:"ground_truth"`
	CreatedAt   string     `json:"created_at,omitempty"`
	UpdatedAt   string     `json:"updated_at,omitempty"`
	Result      []lsResult `json:"result"`
}

type lsPrediction struct {
	ModelVersion string     `json:"model_version"`
	Result       []lsResult `json:"result"`
}

type lsTask struct {
	Data        map[string]any `json:"data"`
	Annotations []lsAnnotation `json:"annotations"`
	Predictions []lsPrediction `json:"predictions"`
	Meta        lsMeta         `json:"meta"`
}

// lsMeta is the task's meta: whose each annotation is, by annotation id.
type lsMeta struct {
	Annotators map[string]string `json:"annotate_annotators"`
}

// lsKinds lists the kinds that get tasks, with their export: every
// annotated kind with a field.
func lsKinds() []Kind {
	var out []Kind
	for _, k := range schema.Kinds() {
		if len(schema.KindFields(k)) == 0 {
			continue
		}
		for _, x := range kinds {
			if x.Kind() == k {
				out = append(out, x)
				break
			}
		}
	}
	return out
}

// lsOf is the kind's Label Studio tasks, or what every kind has: its
// "text" column if it has one, else its id.
func lsOf(x Kind) lsKind {
	var ls lsKind
	switch t, ok := x.(labelStudioTasks); {
	case ok:
		ls.texts = t.lsTexts()
	case slices.ContainsFunc(x.Columns(), func(c Column) bool { return c.Key == "text" }):
		ls.texts = []lsText{{"text", "Text"}}
	default:
		ls.texts = []lsText{{"id", "Item"}}
	}
	if d, ok := x.(labelStudioData); ok {
		ls.data = d.lsData
	}
	return ls
}

// lsBaseData is the data of an item from its base columns: strings as
// they are, numbers as decimals, lists as lists; nothing for a kind whose
// rows are not read through the item model (it has labelStudioData).
func lsBaseData(x Kind, it *store.Item) map[string]any {
	data := map[string]any{}
	iv, ok := x.(ItemValues)
	if !ok {
		return data
	}
	cols := x.Columns()
	for i, v := range iv.Values(it) {
		switch v := v.(type) {
		case string, []string:
			data[cols[i].Key] = v
		case int:
			data[cols[i].Key] = strconv.Itoa(v)
		case json.RawMessage:
			data[cols[i].Key] = v
		case nil:
			data[cols[i].Key] = ""
		}
	}
	return data
}

// lsResultOf is the result of a label, ok false when its value is not one
// of the config's choices.
func lsResultOf(f schema.Field, to, value string) (lsResult, bool) {
	r := lsResult{ID: f.Name, FromName: f.Name, ToName: to, Type: "choices"}
	vs := []string{value}
	if f.Multi {
		vs = schema.DecodeMulti(value)
	}
	if len(f.Values) == 0 {
		r.Type, r.Value = "textarea", map[string]any{"text": vs}
		return r, len(vs) > 0
	}
	for _, v := range vs {
		if !slices.Contains(f.Values, v) {
			return r, false
		}
	}
	r.Value = map[string]any{"choices": vs}
	return r, len(vs) > 0 // an empty set of categories is no choice
}

// lsBatch is how many tasks share one read of their labels and
// predictions: the items of a kind stream past, a batch at a time.
const lsBatch = 256

// lsWriter writes the tasks of every kind; annotation ids run on from one
// kind's tasks to the next.
type lsWriter struct {
	e      *exporter
	emails emailmap.Map
	nextID int
	left   map[string]int // "field value" -> labels and predictions left out
}

// lsItem is an item waiting in a batch for its labels.
type lsItem struct {
	item int64
	id   string
	data map[string]any
}

func (e *exporter) labelStudio(dir string) error {
	w := &lsWriter{e: e, left: map[string]int{}}
	if e.o.EmailMap != "" {
		var err error
		if w.emails, err = emailmap.Read(e.o.EmailMap); err != nil {
			return err
		}
		names, err := e.snap.LabelAnnotators()
		if err != nil {
			return err
		}
		var missing []string
		for _, n := range names {
			if w.emails.Email[n] == "" {
				missing = append(missing, n)
			}
		}
		if len(missing) > 0 {
			e.res.Notes = append(e.res.Notes, fmt.Sprintf("--email-map %s has no e-mail for %s: their annotations have no completed_by "+
				"(Label Studio gives them to whoever imports the tasks; each task's meta names them)", e.o.EmailMap, strings.Join(missing, ", ")))
		}
	}
	e.prog.begin("tasks", 0)
	total := 0
	for _, x := range lsKinds() {
		n, err := w.kind(dir, x)
		if err != nil {
			return err
		}
		total += n
	}
	if total == 0 {
		return errNothing
	}
	if len(w.left) > 0 {
		var parts []string
		for _, k := range sortedKeysOf(w.left) {
			f, v, _ := strings.Cut(k, " ")
			parts = append(parts, fmt.Sprintf("%d of %s %q", w.left[k], f, v))
		}
		e.res.Notes = append(e.res.Notes, "labels and predictions that are none of their field's values were left out (a Label Studio result must be a choice of the config): "+strings.Join(parts, ", "))
	}
	return nil
}

// kind writes the tasks of kind x, when it has items, and returns how many:
// its items stream past, and each batch of lsBatch reads the labels and
// predictions of its items by item id, so memory holds one batch.
func (w *lsWriter) kind(dir string, x Kind) (int, error) {
	e := w.e
	ls := lsOf(x)
	to := ls.texts[0].key
	var f *sink
	n := 0
	var batch []lsItem
	flush := func() error {
		ids := make([]int64, len(batch))
		for i, it := range batch {
			ids[i] = it.item
		}
		labels, err := e.snap.TimedLabelsOf(ids)
		if err != nil {
			return err
		}
		preds, err := e.snap.PredictionsOf(ids)
		if err != nil {
			return err
		}
		for _, it := range batch {
			b, err := json.Marshal(w.task(x.Kind(), to, it, labels[it.item], preds[it.item]))
			if err != nil {
				return err
			}
			if n > 0 {
				f.WriteString(",\n")
			}
			n++
			if _, err := f.Write(b); err != nil {
				return err
			}
		}
		batch = batch[:0]
		return nil
	}
	put := func(item int64, id string, data map[string]any) error {
		if f == nil {
			if err := e.writeLSConfig(dir, x, ls); err != nil {
				return err
			}
			var err error
			if f, err = e.openFile(dir, "label-studio/"+lsName(x)+".tasks.json"); err != nil {
				return err
			}
			if _, err := f.WriteString("[\n"); err != nil {
				return err
			}
		}
		if batch = append(batch, lsItem{item, id, data}); len(batch) < lsBatch {
			return nil
		}
		return flush()
	}
	var err error
	if ls.data != nil {
		err = ls.data(e, put)
	} else {
		err = each(e, e.itemsOf(x, store.ExportOptions{}), func(it *store.ExportItem) error {
			return put(it.Item.ItemID, it.Item.ExtID, lsBaseData(x, it.Item))
		})
	}
	if f == nil {
		return 0, err
	}
	if err == nil && len(batch) > 0 {
		err = flush()
	}
	if err == nil {
		_, err = f.WriteString("\n]\n")
	}
	var written int
	if err := e.finish(f, err, &written, n); err != nil {
		return 0, err
	}
	e.res.counted(x, written)
	return written, nil
}

// task is the task of an item of kind k with its labels and predictions
// (TimedLabelsOf's and PredictionsOf's order).
func (w *lsWriter) task(k schema.Kind, to string, it lsItem, labels []store.TimedLabel, preds []store.ExportPrediction) lsTask {
	data := it.data
	data["annotate_id"], data["kind"] = it.id, string(k)
	t := lsTask{Data: data, Annotations: []lsAnnotation{}, Predictions: []lsPrediction{}, Meta: lsMeta{Annotators: map[string]string{}}}
	byWho := map[[2]string]*lsAnnotation{}
	var order [][2]string
	for _, l := range labels {
		f, ok := schema.Lookup(l.Field)
		if !ok || f.Kind != k {
			continue
		}
		r, ok := lsResultOf(f, to, l.Value)
		if !ok {
			w.left[f.Name+" "+l.Value]++
			continue
		}
		key := [2]string{l.Annotator, l.Role}
		a := byWho[key]
		if a == nil {
			a = &lsAnnotation{GroundTruth: l.Role == store.RoleAdjudicate, Result: []lsResult{}}
			if email := w.emails.Email[l.Annotator]; email != "" {
				a.CompletedBy = &lsUser{Email: email}
			}
			byWho[key] = a
			order = append(order, key)
		}
		if a.CreatedAt == "" || l.At < a.CreatedAt {
			a.CreatedAt = l.At
		}
		if l.At > a.UpdatedAt {
			a.UpdatedAt = l.At
		}
		a.Result = append(a.Result, r)
	}
	sort.Slice(order, func(i, j int) bool {
		if ai, aj := order[i][1] == store.RoleAdjudicate, order[j][1] == store.RoleAdjudicate; ai != aj {
			return aj // the annotators', then the adjudicated labels
		}
		return order[i][0] < order[j][0]
	})
	for _, key := range order {
		w.nextID++
		a := *byWho[key]
		a.ID = w.nextID
		t.Meta.Annotators[strconv.Itoa(a.ID)] = key[0]
		t.Annotations = append(t.Annotations, a)
	}
	bySys := map[string]*lsPrediction{}
	for _, p := range preds {
		f, ok := schema.Lookup(p.Field)
		if !ok || f.Kind != k {
			continue // a pair's response-level verdict has no field to label
		}
		r, ok := lsResultOf(f, to, p.Value)
		if !ok {
			w.left[f.Name+" "+p.Value]++
			continue
		}
		pr := bySys[p.System]
		if pr == nil {
			pr = &lsPrediction{ModelVersion: p.System, Result: []lsResult{}}
			bySys[p.System] = pr
		}
		pr.Result = append(pr.Result, r)
	}
	for _, s := range sortedKeysOf(bySys) {
		t.Predictions = append(t.Predictions, *bySys[s])
	}
	return t
}

// lsName names a kind's files: its hf config ("qa", "claims", "queries").
func lsName(x Kind) string { return x.Config() }

// LabelStudioConfigOf names the Label Studio files of kind k (and its key
// in Result.Items), "" for a kind that has none.
func LabelStudioConfigOf(k schema.Kind) string {
	for _, x := range lsKinds() {
		if x.Kind() == k {
			return lsName(x)
		}
	}
	return ""
}

// writeLSConfig writes the labeling config of a kind.
func (e *exporter) writeLSConfig(dir string, x Kind, ls lsKind) error {
	f, err := e.openFile(dir, "label-studio/"+lsName(x)+".config.xml")
	if err != nil {
		return err
	}
	_, err = f.WriteString(lsConfigXML(x.Kind(), ls))
	var n int
	return e.finish(f, err, &n, 0)
}

// lsConfigXML is the labeling config of a kind: its texts, then a control
// per field (markers too: every from_name of the tasks is in the config).
func lsConfigXML(k schema.Kind, ls lsKind) string {
	attr := html.EscapeString
	var b strings.Builder
	b.WriteString("<View>\n")
	for _, t := range ls.texts {
		fmt.Fprintf(&b, "  <Header value=\"%s\"/>\n  <Text name=\"%s\" value=\"$%s\"/>\n", attr(t.header), attr(t.key), attr(t.key))
	}
	to := attr(ls.texts[0].key)
	for _, fd := range schema.KindFields(k) {
		fmt.Fprintf(&b, "  <Header value=\"%s\"/>\n", attr(fd.Name))
		if len(fd.Values) == 0 {
			fmt.Fprintf(&b, "  <TextArea name=\"%s\" toName=\"%s\"/>\n", attr(fd.Name), to)
			continue
		}
		choice := "single"
		if fd.Multi {
			choice = "multiple"
		}
		fmt.Fprintf(&b, "  <Choices name=\"%s\" toName=\"%s\" choice=\"%s\">\n", attr(fd.Name), to, choice)
		for _, v := range fd.Values {
			fmt.Fprintf(&b, "    <Choice value=\"%s\"/>\n", attr(v))
		}
		b.WriteString("  </Choices>\n")
	}
	b.WriteString("</View>\n")
	return b.String()
}

// contextText joins the texts of a contexts JSON array ([{"id","text"}]).
func contextText(raw json.RawMessage) string {
	var cs []struct{ ID, Text string }
	if json.Unmarshal(raw, &cs) != nil {
		return ""
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.Text
	}
	return strings.Join(parts, "\n\n")
}

func sortedKeysOf[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
