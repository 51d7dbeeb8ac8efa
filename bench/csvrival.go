package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The rival of annotate export --format csv --annotator WHO: the sqlite3
// shell writing qa.csv and claims.csv with .mode csv from the same tables,
// the asked-when rule written in SQL (docs/metrics.md: invalid_reason only
// for an invalid question; category, persona and answer_correctness only
// for a valid one; a claim of an invalid question, or of an answer judged
// partially correct or incorrect, asks nothing; entailment only for a
// correct claim), the same rows in the same order (store's export queries).
//
// The bytes cannot be identical, for one documented reason: the shell's
// .mode csv quotes every field holding a space or a byte ≥ 0x80 (its
// needCsvQuote table), encoding/csv only fields holding a comma, a quote, a
// line break or a leading space, so nearly every text cell is quoted by one
// and not the other. Line breaks inside a cell are written as CRLF by both
// (encoding/csv's UseCRLF; the rival replaces LF in SQL). The check is
// therefore on the parsed records: the same header, the same number of
// rows, every cell equal.

// csvRivalFiles are the files the rival writes; a csv export holding any
// other file (a kind added to the export) fails the check loudly.
var csvRivalFiles = []string{"claims.csv", "qa.csv"}

func csvRivalSQL(who string, systems []string, out string) string {
	crlf := func(x string) string {
		return fmt.Sprintf("replace(replace(%s, char(13), ''), char(10), char(13, 10))", x)
	}
	var preds strings.Builder
	for _, s := range systems {
		fmt.Fprintf(&preds, ", (SELECT value FROM predictions WHERE item_id = c.id AND system = '%s' AND field = 'entailment') AS \"prediction_%s\"", s, s)
	}
	lang := "COALESCE(NULLIF(q.language, ''), src.language, '')"
	labels := fmt.Sprintf(`lab AS (SELECT item_id,
    MAX(CASE field WHEN 'question_validity' THEN value END) AS qv, MAX(CASE field WHEN 'invalid_reason' THEN value END) AS ir,
    MAX(CASE field WHEN 'category' THEN value END) AS cat, MAX(CASE field WHEN 'persona' THEN value END) AS per,
    MAX(CASE field WHEN 'answer_correctness' THEN value END) AS ac, MAX(CASE field WHEN 'missed_claims_checked' THEN value END) AS mc,
    MAX(CASE field WHEN 'claim_validity' THEN value END) AS cv, MAX(CASE field WHEN 'entailment' THEN value END) AS ent
  FROM current_labels WHERE role = 'annotate' AND annotator_id = (SELECT id FROM annotators WHERE name = '%s') GROUP BY item_id)`, who)
	contexts := func(pair string) string {
		return fmt.Sprintf(`(SELECT %s FROM (SELECT group_concat(cu.ext_id, char(10)) AS ids FROM (SELECT cu.ext_id FROM qa_contexts x JOIN context_units cu ON cu.id = x.context_id WHERE x.qa_item_id = %s ORDER BY x.position) cu)) AS context_ids,
  (SELECT %s FROM (SELECT group_concat(cu.text, char(10, 10)) AS t FROM (SELECT cu.text FROM qa_contexts x JOIN context_units cu ON cu.id = x.context_id WHERE x.qa_item_id = %s ORDER BY x.position) cu)) AS contexts`,
			crlf("COALESCE(ids, '')"), pair, crlf("COALESCE(t, '')"), pair)
	}
	const standing = `(cl.origin <> 'annotator' OR EXISTS (SELECT 1 FROM current_labels ca
  WHERE ca.item_id = cl.item_id AND ca.field = 'claim_added' AND ca.role = 'annotate'))`
	return fmt.Sprintf(`.mode csv
.headers on
.output %s
WITH %s
SELECT p.ext_id AS id, COALESCE(src.name, '') AS source, %s AS language, COALESCE(src.jurisdiction, '') AS jurisdiction, q.hop,
  %s AS question, %s AS answer, %s AS rationale, q.category AS generated_category, %s,
  (SELECT %s FROM (SELECT group_concat(ext_id, char(10)) AS ids FROM (SELECT c.ext_id FROM items c JOIN claims cl ON cl.item_id = c.id
     WHERE c.parent_id = p.id AND %s ORDER BY cl.position, c.id))) AS claim_ids,
  CASE WHEN q.as_given THEN 'true' ELSE 'false' END AS as_given, CASE WHEN q.extra IN ('', '{}') THEN NULL ELSE q.extra END AS extra,
  (SELECT '{"system":' || json_quote(r.system) || ',"query_id":' || json_quote(r.query_id) ||
     COALESCE(',"answer_pair":' || json_quote(ai.ext_id), '') || COALESCE(',"answer2response":' || r.answer2response, '') ||
     COALESCE(',"response2answer":' || r.response2answer, '') || COALESCE(',"retrieved2response":' || r.retrieved2response, '') ||
     COALESCE(',"retrieved2answer":' || r.retrieved2answer, '') || '}'
   FROM rag_results r LEFT JOIN items ai ON ai.id = r.answer_item_id WHERE r.item_id = p.id) AS ragchecker,
  '%s' AS annotator, l.qv AS question_validity,
  CASE WHEN l.qv = 'invalid' THEN l.ir END AS invalid_reason,
  CASE WHEN l.qv = 'valid' THEN l.cat END AS category, CASE WHEN l.qv = 'valid' THEN l.per END AS persona,
  CASE WHEN l.qv = 'valid' THEN l.ac END AS answer_correctness, l.mc AS missed_claims_checked
FROM items p JOIN qa_pairs q ON q.item_id = p.id LEFT JOIN sources src ON src.id = p.source_id LEFT JOIN lab l ON l.item_id = p.id
WHERE p.kind = 'qa' ORDER BY p.id;
.output %s
WITH %s
SELECT c.ext_id AS id, p.ext_id AS qa_id, COALESCE(src.name, '') AS source, (SELECT %s FROM qa_pairs q LEFT JOIN sources src ON src.id = p.source_id WHERE q.item_id = p.id) AS language,
  cl.position, CASE WHEN cl.text = '' THEN %s ELSE '' END AS subject, CASE WHEN cl.text = '' THEN %s ELSE '' END AS predicate,
  CASE WHEN cl.text = '' THEN %s ELSE '' END AS object, %s AS text, cl.origin, COALESCE(a.name, '') AS added_by, cl.extractor AS extractor,
  %s AS question, %s AS answer, %s%s,
  '%s' AS annotator,
  CASE WHEN gated THEN NULL ELSE l.cv END AS claim_validity, CASE WHEN gated OR l.cv IS NOT 'correct' THEN NULL ELSE l.ent END AS entailment
FROM items p JOIN qa_pairs q ON q.item_id = p.id JOIN items c ON c.parent_id = p.id JOIN claims cl ON cl.item_id = c.id
LEFT JOIN sources src ON src.id = c.source_id LEFT JOIN annotators a ON a.id = cl.added_by
LEFT JOIN lab l ON l.item_id = c.id
LEFT JOIN (SELECT item_id, (qv = 'invalid' OR (qv = 'valid' AND ac IN ('partially_correct', 'incorrect'))) AS gated FROM lab) g ON g.item_id = p.id
WHERE p.kind = 'qa' AND %s ORDER BY p.id, cl.position, c.id;
`, filepath.Join(out, "qa.csv"), labels, lang, crlf("q.question"), crlf("q.answer"), crlf("q.rationale"), contexts("p.id"),
		crlf("COALESCE(ids, '')"), standing, who,
		filepath.Join(out, "claims.csv"), labels, lang, crlf("cl.subject"), crlf("cl.predicate"), crlf("cl.object"), crlf("cl.text"),
		crlf("q.question"), crlf("q.answer"), contexts("p.id"), preds.String(), who, standing)
}

// shellCSV has the shell write the csv export of who's labels beside
// annotate's (in mine) and compares them: sameCSV's verdict.
func (r *runner) shellCSV(db, who, mine, out string) (measure, string, error) {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return measure{}, "", err
	}
	sys, err := r.run(nil, r.sqlite, db, "SELECT DISTINCT system FROM predictions ORDER BY system")
	if err != nil {
		return measure{}, "", err
	}
	script := filepath.Join(r.work, "shell-csv.sql")
	if err := os.WriteFile(script, []byte(csvRivalSQL(who, strings.Fields(string(sys)), out)), 0o644); err != nil {
		return measure{}, "", err
	}
	m, err := r.timed("", script, os.DevNull, r.sqlite, "-readonly", db)
	if err != nil {
		return m, "", err
	}
	return m, sameCSV(mine, out), nil
}

// sameCSV compares annotate's csv files with the shell's: the file names,
// then per file the bytes (said, expected to differ: see above) and the
// parsed records.
func sameCSV(mine, theirs string) string {
	entries, err := os.ReadDir(mine)
	if err != nil {
		return "NO: " + err.Error()
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	slices.Sort(names)
	for _, n := range names {
		if !slices.Contains(csvRivalFiles, n) {
			return "NO: the shell has no rival query for " + n
		}
	}
	rows, sameBytes := 0, 0
	for _, n := range names {
		a, err1 := os.ReadFile(filepath.Join(mine, n))
		b, err2 := os.ReadFile(filepath.Join(theirs, n))
		if err := cmpErr(err1, err2); err != nil {
			return "NO: " + err.Error()
		}
		if bytes.Equal(a, b) {
			sameBytes++
		}
		ra, err1 := csv.NewReader(bytes.NewReader(a)).ReadAll()
		rb, err2 := csv.NewReader(bytes.NewReader(b)).ReadAll()
		if err := cmpErr(err1, err2); err != nil {
			return fmt.Sprintf("NO: %s: %v", n, err)
		}
		if len(ra) != len(rb) {
			return fmt.Sprintf("NO: %s: annotate %d records, the shell %d", n, len(ra), len(rb))
		}
		for i := range ra {
			if !slices.Equal(ra[i], rb[i]) {
				return fmt.Sprintf("NO: %s record %d: annotate %q, the shell %q", n, i+1, tail(strings.Join(ra[i], "|"), 300), tail(strings.Join(rb[i], "|"), 300))
			}
		}
		rows += len(ra) - 1
	}
	return fmt.Sprintf("same header and records (%d files, %d rows); same bytes in %d of %d files (the shell quotes otherwise: see how the exports are measured)", len(names), rows, sameBytes, len(names))
}
