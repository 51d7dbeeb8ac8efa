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
	described[FormatProdigy] = `Prodigy JSONL ("answer" accept/reject with "_input_hash" or "_annotator_id")`
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
		l := labelRec{at: r.at, field: rf + ".from_name", itemField: "data.annotate_id", annotator: who, who: field + ".completed_by", item: item,
			name: fd.Name, value: value, adjudicate: adjudicate, prediction: prediction}
		if err := f.addLabel(l, ""); err != nil {
			return err
		}
	}
	return nil
}

// parseProdigy reads Prodigy's JSONL annotations of a two-way field: the
// field is --field, else the line's "label" when it names one; the item is
// meta.annotate_id (or a top-level "annotate_id"); "accept" is the field's
// first value, "reject" its second, "ignore" is skipped. The annotator is
// _annotator_id as it is (Prodigy's session id, e.g. "claims-jo", names the
// annotator "claims-jo"), else --annotator.
func parseProdigy(f *fileData, t *textReader) error {
	return t.eachLine(func(at loc, line []byte) error {
		m, err := object(at, line)
		if err != nil {
			return err
		}
		r := newRec(at, "", m)
		name := f.opt.Field
		if name == "" {
			if name, err = r.str("label"); err != nil {
				return err
			}
			if name == "" {
				return r.errf("label", "missing: give --field FIELD (the two-way field the answers are about)")
			}
		}
		fd, ok := lookupField(name)
		if !ok || !fd.TwoWay || len(fd.Values) != 2 {
			return r.errf("label", "%q is not a two-way field; give --field FIELD (one of %s)", name, strings.Join(twoWayFields(), ", "))
		}
		item := ""
		if meta, err := r.object("meta"); err != nil {
			return err
		} else if meta != nil {
			if item, err = newRec(at, "meta.", meta).id("annotate_id"); err != nil {
				return err
			}
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
		switch answer {
		case "accept":
			value = fd.Values[0]
		case "reject":
			value = fd.Values[1]
		case "ignore":
			f.sum.drop("Prodigy answer \"ignore\"")
			return nil
		default:
			return r.errf("answer", "want accept, reject or ignore, got %q", answer)
		}
		who, err := r.str("_annotator_id")
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
		return f.addLabel(labelRec{at: at, field: "answer", itemField: "meta.annotate_id", annotator: who, who: "_annotator_id", item: item,
			name: fd.Name, value: value, adjudicate: role == "adjudicate"}, "")
	})
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
