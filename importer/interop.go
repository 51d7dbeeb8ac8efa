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
// (import the items first, e.g. annotate export --format jsonl's items.jsonl).

const (
	FormatLabelStudio = "label-studio"
	FormatProdigy     = "prodigy"
)

func init() {
	parsers[FormatLabelStudio] = parseLabelStudio
	parsers[FormatProdigy] = parseProdigy
	Formats = append(Formats, FormatLabelStudio, FormatProdigy)
	described[FormatLabelStudio] = `Label Studio tasks ([{"data":{"annotate_id",…}, "annotations", "predictions"}])`
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

// parseLabelStudio reads a Label Studio tasks file: a JSON array of tasks.
// The item is data.annotate_id (or data.id); each annotation's results whose
// from_name is a field of that item's kind become the labels of the
// annotator completed_by names (ground_truth: an adjudicated label), each
// prediction's results the predictions of the system model_version names.
// Cancelled annotations are skipped; results of other from_names are
// counted in a warning.
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
		item, err := d.id("annotate_id")
		if err != nil {
			return err
		}
		if item == "" {
			return r.errf("data.annotate_id", "missing: the task does not name an annotate item (export the tasks with annotate export --format label-studio, or add data.annotate_id)")
		}
		anns, err := r.array("annotations")
		if err != nil {
			return err
		}
		for i, raw := range anns {
			field := fmt.Sprintf("annotations[%d]", i)
			var a struct {
				CompletedBy  json.RawMessage `json:"completed_by"`
				GroundTruth  bool            `json:"ground_truth"`
				WasCancelled bool            `json:"was_cancelled"`
				Result       []lsResultIn    `json:"result"`
			}
			if err := json.Unmarshal(raw, &a); err != nil {
				return r.errf(field, "not a Label Studio annotation: %v", err)
			}
			if a.WasCancelled {
				continue
			}
			who := ""
			if len(a.CompletedBy) > 0 {
				if who, err = labelStudioName(a.CompletedBy); err != nil {
					return r.errf(field+".completed_by", "%v", err)
				}
			}
			if who == "" {
				who = f.opt.Annotator
			}
			if who == "" {
				return r.errf(field+".completed_by", "missing (required, or give --annotator)")
			}
			if err := lsResults(f, r, field, item, who, false, a.GroundTruth, a.Result); err != nil {
				return err
			}
		}
		preds, err := r.array("predictions")
		if err != nil {
			return err
		}
		for i, raw := range preds {
			field := fmt.Sprintf("predictions[%d]", i)
			var p struct {
				ModelVersion string       `json:"model_version"`
				Result       []lsResultIn `json:"result"`
			}
			if err := json.Unmarshal(raw, &p); err != nil {
				return r.errf(field, "not a Label Studio prediction: %v", err)
			}
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
		l := labelRec{at: r.at, field: rf + ".from_name", itemField: "data.annotate_id", annotator: who, item: item,
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
		return f.addLabel(labelRec{at: at, field: field, itemField: "meta.annotate_id", annotator: who, item: item,
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
