package exporter

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/annotate-dev/annotate/schema"
)

// Flat tables (RFC 4180 via encoding/csv: CRLF line ends, quotes where
// needed; UTF-8 without a byte order mark). The rows are the hf rows with
// nested values spread over columns so a spreadsheet shows one value per
// cell:
//
//   - contexts -> context_ids (one id per line) and contexts (the texts,
//     separated by a blank line);
//   - claim_ids -> one id per line;
//   - triplet -> subject, predicate, object (empty for a text claim);
//   - predictions -> one column prediction_<system> per system.
//
// null is an empty cell.

func (e *exporter) csv(dir string) error {
	wrote := false
	written := map[schema.Kind]bool{}
	for _, x := range kinds {
		n, err := e.rowCount(x)
		if err != nil {
			return err
		}
		if n == 0 && !(isBesideParent(x) && written[schema.SpecOf(x.Kind()).Parent]) {
			continue
		}
		l, err := e.layoutOf(x)
		if err != nil {
			return err
		}
		var rows int
		if err := e.writeCSV(dir, x.Config()+".csv", l, n, &rows, func(fn func(row) error) error {
			return e.writeKindRows(x, l, fn)
		}); err != nil {
			return err
		}
		e.res.counted(x, rows)
		written[x.Kind()] = true
		wrote = true
	}
	if !wrote {
		return errNothing
	}
	return nil
}

func (e *exporter) writeCSV(dir, name string, l layout, total int, count *int, rows func(func(row) error) error) error {
	f, err := e.openFile(dir, name)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	w.UseCRLF = true
	e.prog.begin(strings.TrimSuffix(name, ".csv"), total)
	n := 0
	err = w.Write(csvHeader(l, e.systems))
	var rec []string
	var ctx csvContexts
	if err == nil {
		err = rows(func(r row) error {
			rec, err = csvRecord(rec[:0], l, r, &ctx)
			if err != nil {
				return err
			}
			n++
			return w.Write(rec)
		})
	}
	if err == nil {
		w.Flush()
		err = w.Error()
	}
	return e.finish(f, err, count, n)
}

func csvHeader(l layout, systems []string) []string {
	var h []string
	for _, c := range l.cols {
		switch {
		case c.Type == tContexts:
			h = append(h, "context_ids", "contexts")
		case c.Key == "triplet":
			h = append(h, "subject", "predicate", "object")
		case c.Type == tPreds:
			for _, s := range systems {
				h = append(h, "prediction_"+s)
			}
		default:
			h = append(h, c.Key)
		}
	}
	return h
}

// csvRecord spreads a row over its cells; ctx keeps the last contexts
// decoded (the claims of a pair carry the same ones, one after another).
func csvRecord(rec []string, l layout, r row, ctx *csvContexts) ([]string, error) {
	for i, c := range l.cols {
		switch v := r[i].(type) {
		case nil:
			switch {
			case c.Key == "triplet":
				rec = append(rec, "", "", "")
			case c.Type == tPreds:
				// no systems: no columns
			default:
				rec = append(rec, "")
			}
		case string:
			rec = append(rec, v)
		case int:
			rec = append(rec, strconv.Itoa(v))
		case bool:
			rec = append(rec, strconv.FormatBool(v))
		case float64:
			rec = append(rec, strconv.FormatFloat(v, 'g', -1, 64))
		case []string:
			if c.Key == "triplet" {
				rec = append(rec, v...)
			} else {
				rec = append(rec, strings.Join(v, "\n"))
			}
		case json.RawMessage:
			if c.Type == tContexts {
				ids, texts, err := ctx.cells(v)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", c.Key, err)
				}
				rec = append(rec, ids, texts)
				continue
			}
			var list []string // claim_ids
			if err := json.Unmarshal(v, &list); err != nil {
				return nil, fmt.Errorf("%s: %w", c.Key, err)
			}
			rec = append(rec, strings.Join(list, "\n"))
		case preds:
			for _, p := range v.values {
				if p == nil {
					rec = append(rec, "")
				} else {
					rec = append(rec, *p)
				}
			}
		default:
			return nil, fmt.Errorf("%s: no CSV form for %T", c.Key, v)
		}
	}
	return rec, nil
}
