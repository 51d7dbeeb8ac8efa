package exporter

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/annotate-dev/annotate/internal/emailmap"
	"github.com/annotate-dev/annotate/schema"
	"github.com/annotate-dev/annotate/store"
)

// labelStudioObvious is the Label Studio export as it was before it
// streamed: every label and prediction read first into maps by item id,
// then the items stream past them. TestLabelStudioStreamed holds the
// streamed export (labelStudio) to its bytes.
func (e *exporter) labelStudioObvious(dir string) error {
	var emails emailmap.Map
	if e.o.EmailMap != "" {
		var err error
		if emails, err = emailmap.Read(e.o.EmailMap); err != nil {
			return err
		}
	}
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
	if e.o.EmailMap != "" {
		var missing []string
		for n := range names {
			if emails.Email[n] == "" {
				missing = append(missing, n)
			}
		}
		if len(missing) > 0 {
			sort.Strings(missing)
			e.res.Notes = append(e.res.Notes, fmt.Sprintf("--email-map %s has no e-mail for %s: their annotations have no completed_by "+
				"(Label Studio gives them to whoever imports the tasks; each task's meta names them)", e.o.EmailMap, strings.Join(missing, ", ")))
		}
	}
	preds := map[string][]store.ExportPrediction{}
	for p, err := range e.snap.Predictions() {
		if err != nil {
			return err
		}
		preds[p.Item] = append(preds[p.Item], p)
	}
	left := map[string]int{} // "field value" -> labels and predictions left out
	nextID := 0
	task := func(k schema.Kind, to, id string, data map[string]any) lsTask {
		data["annotate_id"], data["kind"] = id, string(k)
		t := lsTask{Data: data, Annotations: []lsAnnotation{}, Predictions: []lsPrediction{}, Meta: lsMeta{Annotators: map[string]string{}}}
		byWho := map[[2]string]*lsAnnotation{}
		var order [][2]string
		for _, l := range labels[id] {
			f, ok := schema.Lookup(l.Field)
			if !ok || f.Kind != k {
				continue
			}
			r, ok := lsResultOf(f, to, l.Value)
			if !ok {
				left[f.Name+" "+l.Value]++
				continue
			}
			key := [2]string{l.Annotator, l.Role}
			a := byWho[key]
			if a == nil {
				a = &lsAnnotation{GroundTruth: l.Role == store.RoleAdjudicate, Result: []lsResult{}}
				if email := emails.Email[l.Annotator]; email != "" {
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
			nextID++
			a := *byWho[key]
			a.ID = nextID
			t.Meta.Annotators[strconv.Itoa(a.ID)] = key[0]
			t.Annotations = append(t.Annotations, a)
		}
		bySys := map[string]*lsPrediction{}
		for _, p := range preds[id] {
			f, ok := schema.Lookup(p.Field)
			if !ok || f.Kind != k {
				continue // a pair's response-level verdict has no field to label
			}
			r, ok := lsResultOf(f, to, p.Value)
			if !ok {
				left[f.Name+" "+p.Value]++
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

	e.prog.begin("tasks", 0)
	total := 0
	for _, x := range lsKinds() {
		ls := lsOf(x)
		to := ls.texts[0].key
		var f *sink
		n := 0
		put := func(_ int64, id string, data map[string]any) error {
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
			b, err := json.Marshal(task(x.Kind(), to, id, data))
			if err != nil {
				return err
			}
			if n > 0 {
				f.WriteString(",\n")
			}
			n++
			_, err = f.Write(b)
			return err
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
			if err != nil {
				return err
			}
			continue
		}
		if err == nil {
			_, err = f.WriteString("\n]\n")
		}
		var written int
		if err := e.finish(f, err, &written, n); err != nil {
			return err
		}
		e.res.counted(x, written)
		total += written
	}
	if total == 0 {
		return errNothing
	}
	if len(left) > 0 {
		var parts []string
		for _, k := range sortedKeysOf(left) {
			f, v, _ := strings.Cut(k, " ")
			parts = append(parts, fmt.Sprintf("%d of %s %q", left[k], f, v))
		}
		e.res.Notes = append(e.res.Notes, "labels and predictions that are none of their field's values were left out (a Label Studio result must be a choice of the config): "+strings.Join(parts, ", "))
	}
	return nil
}
