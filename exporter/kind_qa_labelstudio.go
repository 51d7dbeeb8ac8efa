package exporter

import (
	"encoding/json"
	"fmt"
	"html"
	"sort"
	"strings"

	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// Label Studio (--format label-studio): per kind exported (QA pairs,
// claims), a tasks file Label Studio imports into a project and the labeling
// config of that project:
//
//   - label-studio/<config>.tasks.json: a JSON array of tasks, each
//     {"data":{…the item's text fields, "annotate_id", "kind"},
//     "annotations":[…one per annotator…], "predictions":[…one per system…]}.
//     An annotation's result holds one entry per labelled field:
//     {"id","from_name":FIELD,"to_name":TEXT,"type":"choices","value":{"choices":[VALUE]}};
//     its completed_by is {"id":N,"email":"NAME@annotate.local"}, N the
//     annotator's place in name order; an adjudicated label set is an
//     annotation of who adjudicated with "ground_truth":true. A prediction
//     carries the system as "model_version".
//   - label-studio/<config>.config.xml: <View> with the text of the item and
//     one <Choices> per field of the kind, named after the field.
//
// `annotate import --format label-studio` reads the tasks file back.

// LabelStudioEmailDomain is the domain of the e-mail addresses export gives
// annotators; import takes the part before the @ of any address as the name.
const LabelStudioEmailDomain = "annotate.local"

type lsResult struct {
	ID       string         `json:"id"`
	FromName string         `json:"from_name"`
	ToName   string         `json:"to_name"`
	Type     string         `json:"type"`
	Value    map[string]any `json:"value"`
}

type lsUser struct {
	ID    int    `json:"id"`
	Email string `json:"email"`
}

type lsAnnotation struct {
	CompletedBy lsUser     `json:"completed_by"`
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
	Data        map[string]string `json:"data"`
	Annotations []lsAnnotation    `json:"annotations"`
	Predictions []lsPrediction    `json:"predictions"`
}

// lsText names the Text tag the fields of a kind label.
func lsText(k schema.Kind) string {
	if k == schema.KindClaim {
		return "claim"
	}
	return "question"
}

func lsResultOf(f schema.Field, value string) lsResult {
	r := lsResult{ID: f.Name, FromName: f.Name, ToName: lsText(f.Kind), Type: "choices"}
	switch {
	case f.Multi:
		r.Value = map[string]any{"choices": schema.DecodeMulti(value)}
	case len(f.Values) == 0:
		r.Type = "textarea"
		r.Value = map[string]any{"text": []string{value}}
	default:
		r.Value = map[string]any{"choices": []string{value}}
	}
	return r
}

func (e *exporter) labelStudio(dir string) error {
	// The labels and predictions of every item, by item id: read first,
	// then the items stream past them.
	labels := map[string][]store.TimedLabel{}
	names := map[string]bool{}
	for l, err := range e.snap.TimedLabels("") {
		if err != nil {
			return err
		}
		labels[l.Item] = append(labels[l.Item], l)
		names[l.Annotator] = true
	}
	preds := map[string][]store.ExportPrediction{}
	for p, err := range e.snap.Predictions() {
		if err != nil {
			return err
		}
		preds[p.Item] = append(preds[p.Item], p)
	}
	sorted := sortedSet(names)
	userID := map[string]int{}
	for i, n := range sorted {
		userID[n] = i + 1
	}
	task := func(k schema.Kind, id string, data map[string]string) lsTask {
		data["annotate_id"], data["kind"] = id, string(k)
		t := lsTask{Data: data, Annotations: []lsAnnotation{}, Predictions: []lsPrediction{}}
		byWho := map[[2]string]*lsAnnotation{}
		var order [][2]string
		for _, l := range labels[id] {
			f, ok := schema.Lookup(l.Field)
			if !ok || f.Kind != k {
				continue
			}
			key := [2]string{l.Annotator, l.Role}
			a := byWho[key]
			if a == nil {
				a = &lsAnnotation{CompletedBy: lsUser{ID: userID[l.Annotator], Email: l.Annotator + "@" + LabelStudioEmailDomain},
					GroundTruth: l.Role == store.RoleAdjudicate, Result: []lsResult{}}
				byWho[key] = a
				order = append(order, key)
			}
			if a.CreatedAt == "" || l.At < a.CreatedAt {
				a.CreatedAt = l.At
			}
			if l.At > a.UpdatedAt {
				a.UpdatedAt = l.At
			}
			a.Result = append(a.Result, lsResultOf(f, l.Value))
		}
		sort.Slice(order, func(i, j int) bool {
			if ai, aj := order[i][1] == store.RoleAdjudicate, order[j][1] == store.RoleAdjudicate; ai != aj {
				return aj // the annotators', then the adjudicated labels
			}
			return order[i][0] < order[j][0]
		})
		for _, key := range order {
			t.Annotations = append(t.Annotations, *byWho[key])
		}
		bySys := map[string]*lsPrediction{}
		for _, p := range preds[id] {
			f, ok := schema.Lookup(p.Field)
			if !ok || f.Kind != k {
				continue // a pair's response-level verdict has no field to label
			}
			pr := bySys[p.System]
			if pr == nil {
				pr = &lsPrediction{ModelVersion: p.System, Result: []lsResult{}}
				bySys[p.System] = pr
			}
			pr.Result = append(pr.Result, lsResultOf(f, p.Value))
		}
		for _, s := range sortedKeysOf(bySys) {
			t.Predictions = append(t.Predictions, *bySys[s])
		}
		return t
	}

	nQA, nClaims := 0, 0
	var qaFile, claimFile *sink
	open := func(k schema.Kind) (*sink, error) {
		cfg := lsConfig(k)
		if err := e.writeLSConfig(dir, k); err != nil {
			return nil, err
		}
		f, err := e.openFile(dir, "label-studio/"+cfg+".tasks.json")
		if err != nil {
			return nil, err
		}
		_, err = f.WriteString("[\n")
		return f, err
	}
	put := func(f *sink, n int, t lsTask) error {
		b, err := json.Marshal(t)
		if err != nil {
			return err
		}
		if n > 0 {
			f.WriteString(",\n")
		}
		_, err = f.Write(b)
		return err
	}
	e.prog.begin("tasks", 0)
	err := each(e, e.snap.QAs(store.ExportOptions{}), func(q *store.ExportQA) error {
		if qaFile == nil {
			var err error
			if qaFile, err = open(schema.KindQA); err != nil {
				return err
			}
		}
		t := task(schema.KindQA, q.ID, map[string]string{"source": q.Source, "question": q.Question,
			"answer": q.Answer, "context": contextText(q.ContextsJSON), "category": q.Category})
		err := put(qaFile, nQA, t)
		nQA++
		return err
	})
	if err == nil {
		err = each(e, e.snap.Claims(store.ExportOptions{}), func(c *store.ExportClaim) error {
			if claimFile == nil {
				var err error
				if claimFile, err = open(schema.KindClaim); err != nil {
					return err
				}
			}
			text := c.Text
			if c.IsTriplet() {
				text = strings.Join(c.Triplet[:], " | ")
			}
			t := task(schema.KindClaim, c.ID, map[string]string{"qa_id": c.QAID, "claim": text,
				"question": c.Question, "answer": c.Answer, "context": contextText(c.ContextsJSON)})
			err := put(claimFile, nClaims, t)
			nClaims++
			return err
		})
	}
	for _, f := range []*sink{qaFile, claimFile} {
		if f == nil {
			continue
		}
		if err == nil {
			_, err = f.WriteString("\n]\n")
		}
		var n int
		if ferr := e.finish(f, err, &n, 0); err == nil {
			err = ferr
		}
	}
	if err != nil {
		return err
	}
	if nQA+nClaims == 0 {
		return errNothing
	}
	e.res.QA, e.res.Claims = nQA, nClaims
	return nil
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

// writeLSConfig writes the labeling config of a kind.
func (e *exporter) writeLSConfig(dir string, k schema.Kind) error {
	f, err := e.openFile(dir, "label-studio/"+lsConfig(k)+".config.xml")
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("<View>\n")
	texts := [][2]string{{"question", "Question"}, {"answer", "Answer"}, {"context", "Context"}}
	if k == schema.KindClaim {
		texts = append([][2]string{{"claim", "Claim"}}, texts...)
	}
	for _, t := range texts {
		fmt.Fprintf(&b, "  <Header value=%q/>\n  <Text name=%q value=\"$%s\"/>\n", t[1], t[0], t[0])
	}
	for _, fd := range schema.KindFields(k) { // markers too: every from_name of the tasks is in the config
		attr := ""
		if fd.Multi {
			attr = ` choice="multiple"`
		}
		if len(fd.Values) == 0 {
			fmt.Fprintf(&b, "  <TextArea name=%q toName=%q/>\n", fd.Name, lsText(k))
			continue
		}
		fmt.Fprintf(&b, "  <Header value=%q/>\n  <Choices name=%q toName=%q%s>\n", fd.Name, fd.Name, lsText(k), attr)
		for _, v := range fd.Values {
			fmt.Fprintf(&b, "    <Choice value=\"%s\"/>\n", html.EscapeString(v))
		}
		b.WriteString("  </Choices>\n")
	}
	b.WriteString("</View>\n")
	_, err = f.WriteString(b.String())
	var n int
	return e.finish(f, err, &n, 0)
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sortedKeysOf[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// lsConfig names the files of a kind: qa, claims.
func lsConfig(k schema.Kind) string {
	if k == schema.KindClaim {
		return "claims"
	}
	return "qa"
}
