package importer

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/annotate-dev/annotate/schema"
)

// Label Studio and Prodigy: labels made in those tools come back as labels
// of annotate's items, which must be in the database or in the same import
// (import the items first, e.g. annotate export --format jsonl's items.jsonl);
// a Label Studio task that names no item creates it from its data.

const (
	FormatLabelStudio = "label-studio"
	FormatProdigy     = "prodigy"
)

func init() {
	parsers[FormatLabelStudio] = parseLabelStudio
	parsers[FormatProdigy] = parseProdigy
	Formats = append(Formats, FormatLabelStudio, FormatProdigy)
	described[FormatLabelStudio] = `Label Studio tasks ([{"data":{…}, "annotations", "predictions"}])`
	described[FormatProdigy] = `Prodigy JSONL ("answer" accept/reject with "_input_hash" or "_annotator_id"; binary or choice tasks)`
}

// labelStudioName turns a Label Studio completed_by into an annotator name:
// an e-mail address (a string, or an object's "email") gives the part before
// the last @ ("jo@firm.ca" → "jo"); a number N, or an object with only an
// "id", gives "label-studio-N"; another string is the name itself.
func labelStudioName(raw json.RawMessage) (string, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", err
	}
	switch x := v.(type) {
	case string:
		if i := strings.LastIndexByte(x, '@'); i > 0 {
			return x[:i], nil
		}
		return x, nil
	case float64:
		return "label-studio-" + strconv.FormatFloat(x, 'f', -1, 64), nil
	case map[string]any:
		if e, ok := x["email"].(string); ok && e != "" {
			b, _ := json.Marshal(e)
			return labelStudioName(b)
		}
		if id, ok := x["id"].(float64); ok {
			return "label-studio-" + strconv.FormatFloat(id, 'f', -1, 64), nil
		}
		return "", fmt.Errorf("an object without \"email\" or \"id\"")
	case nil:
		return "", nil
	}
	return "", fmt.Errorf("want an e-mail address, a user id or {\"email\"}, got %s", raw)
}

type lsResultIn struct {
	FromName string `json:"from_name"`
	Type     string `json:"type"`
	Value    struct {
		Choices []string `json:"choices"`
		Text    []string `json:"text"`
	} `json:"value"`
}

type lsAnnotationIn struct {
	ID           json.RawMessage `json:"id"`
	ImportID     json.RawMessage `json:"import_id"`
	CompletedBy  json.RawMessage `json:"completed_by"`
	GroundTruth  bool            `json:"ground_truth"`
	WasCancelled bool            `json:"was_cancelled"`
	Result       []lsResultIn    `json:"result"`
}

type lsPredictionIn struct {
	ModelVersion string       `json:"model_version"`
	Result       []lsResultIn `json:"result"`
}

// parseLabelStudio reads a Label Studio tasks file: a JSON array of tasks.
// The item is data.annotate_id; a task without one (made in Label Studio)
// creates its item from its data (lsItem). Each annotation's results whose
// from_name is a field of that item's kind become the labels of its
// annotator (ground_truth: an adjudicated label), each prediction's results
// the predictions of the system model_version names. Cancelled annotations
// are skipped; results of other from_names are counted in a warning.
func parseLabelStudio(f *fileData, t *textReader) error {
	return f.eachArrayRecord(t, func(r *rec) error {
		data, err := r.object("data")
		if err != nil {
			return err
		}
		if data == nil {
			return r.errf("data", "missing (a Label Studio task has its item under \"data\")")
		}
		d := newRec(r.at, "data.", data)
		raws, err := r.array("annotations")
		if err != nil {
			return err
		}
		anns := make([]lsAnnotationIn, len(raws))
		for i, raw := range raws {
			if err := json.Unmarshal(raw, &anns[i]); err != nil {
				return r.errf(fmt.Sprintf("annotations[%d]", i), "not a Label Studio annotation: %v", err)
			}
		}
		raws, err = r.array("predictions")
		if err != nil {
			return err
		}
		preds := make([]lsPredictionIn, len(raws))
		for i, raw := range raws {
			if err := json.Unmarshal(raw, &preds[i]); err != nil {
				return r.errf(fmt.Sprintf("predictions[%d]", i), "not a Label Studio prediction: %v", err)
			}
		}
		item, err := d.id("annotate_id")
		if err != nil {
			return err
		}
		if item == "" {
			if item, err = f.lsItem(r, d, anns, preds); err != nil {
				return err
			}
		}
		names, err := lsAnnotators(r)
		if err != nil {
			return err
		}
		for i, a := range anns {
			field := fmt.Sprintf("annotations[%d]", i)
			if a.WasCancelled {
				continue
			}
			who, err := f.lsAnnotator(a, names)
			if err != nil {
				return r.errf(field+".completed_by", "%v", err)
			}
			if who == "" {
				return r.errf(field+".completed_by", "missing (required, or give --annotator)")
			}
			if err := lsResults(f, r, field, item, who, false, a.GroundTruth, a.Result); err != nil {
				return err
			}
		}
		for i, p := range preds {
			field := fmt.Sprintf("predictions[%d]", i)
			if p.ModelVersion == "" {
				return r.errf(field+".model_version", "missing: it names the system of the prediction")
			}
			if err := lsResults(f, r, field, item, p.ModelVersion, true, false, p.Result); err != nil {
				return err
			}
		}
		return nil
	})
}

// lsAnnotators reads the task's meta.annotate_annotators: annotate's
// export names each annotation's annotator there, by annotation id.
func lsAnnotators(r *rec) (map[string]string, error) {
	meta, err := r.object("meta")
	if err != nil || meta == nil {
		return nil, err
	}
	raw := meta["annotate_annotators"]
	if raw == nil {
		return nil, nil
	}
	var names map[string]string
	if err := json.Unmarshal(raw, &names); err != nil {
		return nil, r.errf("meta.annotate_annotators", "want {\"annotation id\": \"annotator\"}, got %s", kind(raw))
	}
	return names, nil
}

// lsAnnotator names an annotation's annotator: the task's meta by the
// annotation's import_id (a task exported again from Label Studio) or id;
// else --email-map by completed_by's e-mail; else completed_by itself
// (labelStudioName); else --annotator.
func (f *fileData) lsAnnotator(a lsAnnotationIn, names map[string]string) (string, error) {
	for _, id := range []json.RawMessage{a.ImportID, a.ID} {
		if n := names[strings.Trim(string(id), `" `)]; n != "" && len(id) > 0 {
			return n, nil
		}
	}
	if len(a.CompletedBy) > 0 && f.opt.emails != nil {
		var v any
		json.Unmarshal(a.CompletedBy, &v)
		email, _ := v.(string)
		if m, ok := v.(map[string]any); ok {
			email, _ = m["email"].(string)
		}
		if n := f.opt.emails.Name[strings.ToLower(email)]; n != "" {
			return n, nil
		}
	}
	who := ""
	if len(a.CompletedBy) > 0 {
		var err error
		if who, err = labelStudioName(a.CompletedBy); err != nil {
			return "", err
		}
	}
	if who == "" {
		who = f.opt.Annotator
	}
	return who, nil
}

// lsItem creates the item of a task made in Label Studio, which names no
// annotate item, from its data: the kind is data.kind, else the kind of
// the fields its results label, else a QA pair; the id data.id, else
// "label-studio-task-N" for task N; the rest is the kind's native line
// (docs/formats.md), so its required fields are the native line's. A QA
// pair also takes its contexts from data.context, a text (one context
// unit), and its source from --source.
func (f *fileData) lsItem(r *rec, d *rec, anns []lsAnnotationIn, preds []lsPredictionIn) (string, error) {
	k, err := d.str("kind")
	if err != nil {
		return "", err
	}
	if k == "" {
		var results []lsResultIn
		for _, a := range anns {
			results = append(results, a.Result...)
		}
		for _, p := range preds {
			results = append(results, p.Result...)
		}
		for _, res := range results {
			if fd, ok := lookupField(res.FromName); ok {
				if k != "" && k != string(fd.Kind) {
					return "", r.errf("data.annotate_id", "missing, and the results label fields of two kinds (%s and %s): give data.kind or data.annotate_id", k, fd.Kind)
				}
				k = string(fd.Kind)
			}
		}
	}
	plain, _ := plainKind()
	if k == "" {
		k = string(plain)
	}
	m := map[string]json.RawMessage{}
	for key, v := range d.m {
		m[key] = v
	}
	id, err := d.id("id")
	if err != nil {
		return "", err
	}
	if id == "" {
		var n int64
		if raw := r.get("id"); raw != nil && json.Unmarshal(raw, &n) == nil {
			id = "label-studio-task-" + strconv.FormatInt(n, 10)
		}
	}
	if id == "" {
		return "", r.errf("data.annotate_id", "missing: the task names no annotate item; give data.annotate_id (an item annotate has) or data.id (a new one)")
	}
	m["id"], _ = json.Marshal(id)
	if k == string(plain) {
		delete(m, "kind")
		if _, ok := m["contexts"]; !ok {
			var text string
			if decodeString(m["context"], &text) == nil && strings.TrimSpace(text) != "" {
				m["contexts"], _ = json.Marshal([]map[string]string{{"id": id + "-context", "text": text}})
			}
		}
		delete(m, "context")
		if _, ok := m["source"]; !ok && f.opt.Source != "" {
			m["source"], _ = json.Marshal(f.opt.Source)
		}
		var missing []string
		for _, key := range []string{"source", "question", "answer", "contexts"} {
			if _, ok := m[key]; !ok {
				missing = append(missing, key)
			}
		}
		if len(missing) > 0 {
			return "", r.errf("data", "the task names no annotate item (no data.annotate_id), and the QA pair made from its data lacks %s "+
				"(a QA pair needs source, or --source, question, answer, and contexts [{\"id\",\"text\"}] or a context text)", strings.Join(missing, ", "))
		}
		return id, readPlain(f, newRec(r.at, "data.", m))
	}
	n, ok := kinds.Get(schema.Kind(k)).(NativeLine)
	if !ok {
		return "", r.errf("data.annotate_id", "missing: %s is made inside its parent, not from a task alone; give data.annotate_id of an item annotate has", kindName(schema.Kind(k)))
	}
	m["kind"], _ = json.Marshal(k)
	line, _ := json.Marshal(m)
	return id, f.nativeItem(n, newRec(r.at, "data.", m), line)
}

func lsResults(f *fileData, r *rec, field, item, who string, prediction, adjudicate bool, results []lsResultIn) error {
	for j, res := range results {
		rf := fmt.Sprintf("%s.result[%d]", field, j)
		fd, ok := lookupField(res.FromName)
		if !ok {
			f.sum.drop(fmt.Sprintf("Label Studio result with from_name %q (not a field)", res.FromName))
			continue
		}
		var value string
		switch {
		case fd.Multi && len(fd.Values) == 0: // citations: one per line of the text area
			value = schema.EncodeMulti(res.Value.Text)
		case fd.Multi:
			value = schema.EncodeMulti(res.Value.Choices)
		case len(res.Value.Choices) == 1:
			value = res.Value.Choices[0]
		case len(res.Value.Choices) > 1:
			return r.errf(rf+".value.choices", "%d choices for %s, which takes one", len(res.Value.Choices), fd.Name)
		case len(res.Value.Text) > 0 && len(fd.Values) == 0:
			value = strings.Join(res.Value.Text, "\n")
		default:
			return r.errf(rf+".value", "no choice for %s", fd.Name)
		}
		if err := printable(r.at, rf, "the name", who); err != nil {
			return err
		}
		l := labelRec{at: r.at, field: rf + ".from_name", itemField: "data.annotate_id", annotator: who, who: field + ".completed_by", item: item,
			name: fd.Name, value: value, adjudicate: adjudicate, prediction: prediction}
		if err := f.addLabel(l, ""); err != nil {
			return err
		}
	}
	return nil
}

// parseProdigy reads Prodigy's JSONL annotations of a closed field: the
// field is --field, else meta.field, else the line's "label" when it names
// one; the item is meta.annotate_id (or a top-level "annotate_id"). A
// binary task (a two-way field: no "options") gives "accept" the field's
// first value, "reject" its second; a choice task ("options"/"accept")
// gives the ids in "accept" on "answer":"accept", one for a one-value
// field, any number for a multi-valued one; "reject" there (no option
// chosen) is skipped and counted, and "ignore" is skipped everywhere. The
// annotator is meta.annotator (annotate's export writes it), else
// _annotator_id as it is (Prodigy's session id, e.g. "claims-jo", names
// the annotator "claims-jo"), else _session_id, else --annotator.
func parseProdigy(f *fileData, t *textReader) error {
	return t.eachLine(func(at loc, line []byte) error {
		m, err := object(at, line)
		if err != nil {
			return err
		}
		r := newRec(at, "", m)
		meta := newRec(at, "meta.", nil)
		if mm, err := r.object("meta"); err != nil {
			return err
		} else if mm != nil {
			meta = newRec(at, "meta.", mm)
		}
		choice := r.has("options") || r.has("accept")
		name, from := f.opt.Field, "label"
		if name == "" {
			if name, err = meta.str("field"); err != nil {
				return err
			}
			from = "meta.field"
		}
		if name == "" {
			if name, err = r.str("label"); err != nil {
				return err
			}
			from = "label"
		}
		if name == "" {
			return r.errf("label", "missing: give --field FIELD (the field the answers are about)")
		}
		fd, ok := lookupField(name)
		switch {
		case !ok || len(fd.Values) == 0:
			return r.errf(from, "%q is not a field with a closed list of values; give --field FIELD (one of %s)", name, strings.Join(closedFields(), ", "))
		case !choice && (!fd.TwoWay || len(fd.Values) != 2):
			return r.errf(from, "%q is not a two-way field, and the line has no \"options\" (a choice task); give --field FIELD (two-way: %s)", name, strings.Join(twoWayFields(), ", "))
		}
		item, err := meta.id("annotate_id")
		if err != nil {
			return err
		}
		if item == "" {
			if item, err = r.id("annotate_id"); err != nil {
				return err
			}
		}
		if item == "" {
			return r.errf("meta.annotate_id", "missing: the line does not name an annotate item")
		}
		answer, err := r.need("answer")
		if err != nil {
			return err
		}
		var value string
		switch {
		case answer == "ignore":
			f.sum.drop(`Prodigy answer "ignore"`)
			return nil
		case answer != "accept" && answer != "reject":
			return r.errf("answer", "want accept, reject or ignore, got %q", answer)
		case choice && answer == "reject":
			f.sum.drop(`Prodigy choice answered "reject" (no option chosen)`)
			return nil
		case choice:
			if value, err = prodigyChoice(r, fd); err != nil {
				return err
			}
		case answer == "accept":
			value = fd.Values[0]
		default:
			value = fd.Values[1]
		}
		who, err := meta.str("annotator")
		for _, key := range []string{"_annotator_id", "_session_id"} {
			if err == nil && who == "" {
				who, err = r.str(key)
			}
		}
		if err != nil {
			return err
		}
		if who == "" {
			who = f.opt.Annotator
		}
		if who == "" {
			return r.errf("_annotator_id", "missing (required, or give --annotator)")
		}
		role, err := r.str("annotate_role")
		if err != nil {
			return err
		}
		field := "answer"
		if choice {
			field = "accept"
		}
		return f.addLabel(labelRec{at: at, field: field, itemField: "meta.annotate_id", annotator: who, who: "_annotator_id", item: item,
			name: fd.Name, value: value, adjudicate: role == "adjudicate"}, "")
	})
}

// prodigyChoice reads the options a choice task accepted: one for a field
// that takes one value, any number for a multi-valued field.
func prodigyChoice(r *rec, fd schema.Field) (string, error) {
	raw := r.get("accept")
	var ids []string
	if raw == nil || json.Unmarshal(raw, &ids) != nil {
		return "", r.errf("accept", "want the list of the option ids chosen, got %s", kind(raw))
	}
	if fd.Multi {
		return schema.EncodeMulti(ids), nil
	}
	if len(ids) != 1 {
		return "", r.errf("accept", "%d options chosen for %s, which takes one", len(ids), fd.Name)
	}
	return ids[0], nil
}

func closedFields() []string {
	var out []string
	for _, f := range schema.AllFields() {
		if len(f.Values) > 0 {
			out = append(out, f.Name)
		}
	}
	return out
}

func twoWayFields() []string {
	var out []string
	for _, f := range schema.AllFields() {
		if f.TwoWay && len(f.Values) == 2 {
			out = append(out, f.Name)
		}
	}
	return out
}
