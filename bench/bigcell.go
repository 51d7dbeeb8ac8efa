package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// bench bigcell: the peak memory of importing the largest text cell annotate
// accepts, in every import format that can carry one. A value may be 16 MiB
// and a record (a line of JSON lines) 16 MiB too, so a Parquet cell is
// exactly 16 MiB and a JSON lines one as large as its line leaves room for.
// Each file holds that one cell and the little its format requires; each is
// imported into a new database by every build given, under /usr/bin/time -v,
// and once more sampled, for the split of its peak between the memory it
// allocated and the pages of its executable (peakmem.go). The target is a
// peak RSS within 4× the cell.

// bigCellLimit is the importer's limit of one value and of one record
// (importer.maxCell, importer.maxRecord).
const bigCellLimit = 16 << 20

// bigCellParagraph is the text repeated: accents, quotes and line breaks,
// which JSON escapes, as in a real judgment.
const bigCellParagraph = "Le locataire doit donner au locateur un préavis de « trois mois » avant la fin du bail (art. 1942 C.c.Q.).\n" +
	"The tenant's \"notice\" must be in writing; a notice given late is valid only if the landlord agrees.\n"

type bigCellFile struct {
	format string // as the table names it
	path   string // what `annotate import` is given
	cell   int    // bytes of the big text
}

// releaseDocRow is a row of CanLegalRAGBench's documents.parquet, as the
// release's columns are (docs/canlegalragbench.md).
type releaseDocRow struct {
	Citation       string  `parquet:"citation,dict"`
	Name           string  `parquet:"name,optional"`
	OriginalSource string  `parquet:"original_source,optional,dict"`
	Year           float64 `parquet:"year,optional"`
	Text           string  `parquet:"text"`
}

func bigCellCmd(args []string) error {
	fs := flag.NewFlagSet("bigcell", flag.ExitOnError)
	var builds multiFlag
	fs.Var(&builds, "annotate", "NAME=BIN: a build to measure (repeat for several; the last one writes the hf folders)")
	work := fs.String("work", filepath.Join(os.TempDir(), "annotate-bench-bigcell"), "folder for the files and databases")
	fs.Parse(args)
	if len(builds) == 0 {
		return errors.New("bigcell: -annotate NAME=BIN is required")
	}
	if err := os.MkdirAll(*work, 0o755); err != nil {
		return err
	}
	r := &runner{work: *work, log: os.Stderr}
	_, maker, _ := strings.Cut(builds[len(builds)-1], "=")
	files, err := r.bigCellFiles(maker)
	if err != nil {
		return err
	}
	// The floor: the same import of a one-line file, what the process
	// holds whatever it reads (its code, the runtime, SQLite's caches).
	small := filepath.Join(*work, "small.jsonl")
	if err := os.WriteFile(small, []byte(`{"kind":"document","id":"small","text":"Un texte court."}`+"\n"), 0o644); err != nil {
		return err
	}
	floor := map[string]float64{}
	for _, b := range builds {
		name, bin, _ := strings.Cut(b, "=")
		m, err := r.importInto(bin, small)
		if err != nil {
			return err
		}
		p, err := r.sampledImport(bin, small)
		if err != nil {
			return err
		}
		floor[name] = m.RSS
		r.logf("%s: a one-line import, %.0f MiB (sampled: %.0f MiB allocated, %.0f MiB of its executable)", name, m.RSS, p.Anon, p.File())
	}
	fmt.Println("| format | file | cell | " + strings.Join(builds.names(), " peak RSS: total (× cell), above the floor (× cell); sampled: allocated (× cell), executable | ") + " peak RSS: total (× cell), above the floor (× cell); sampled: allocated (× cell), executable |")
	fmt.Println("|---|---|---|" + strings.Repeat("---|", len(builds)))
	for _, f := range files {
		st, err := os.Stat(f.path)
		if err != nil {
			return err
		}
		size := st.Size()
		if st.IsDir() {
			size = dirSize(f.path)
		}
		line := fmt.Sprintf("| %s | %.1f MiB | %.2f MiB |", f.format, float64(size)/(1<<20), float64(f.cell)/(1<<20))
		for _, b := range builds {
			name, bin, _ := strings.Cut(b, "=")
			m, err := r.importInto(bin, f.path)
			if err != nil { // a build that refuses the cell
				r.logf("%s %s: %v", name, f.format, err)
				line += " refused |"
				continue
			}
			p, err := r.sampledImport(bin, f.path)
			if err != nil {
				return err
			}
			r.logf("%s %s: %.0f MiB, %.1f s", name, f.format, m.RSS, m.Wall)
			cell := float64(f.cell) / (1 << 20)
			line += fmt.Sprintf(" %.0f MiB (%.1f×), %.0f MiB (%.1f×); %.0f MiB (%.1f×), %.0f MiB |", m.RSS, m.RSS/cell, m.RSS-floor[name], (m.RSS-floor[name])/cell,
				p.Anon, p.Anon/cell, p.File())
		}
		fmt.Println(line)
	}
	return nil
}

// sampledImport is importInto sampled (sampledPeak).
func (r *runner) sampledImport(bin, path string) (peakMem, error) {
	db := filepath.Join(r.work, "import.db")
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(db + suffix)
	}
	return sampledPeak(bin, "--db", db, "import", path)
}

// importInto imports path into a new database with the build bin.
func (r *runner) importInto(bin, path string) (measure, error) {
	db := filepath.Join(r.work, "import.db")
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(db + suffix)
	}
	return r.timed("", "", "", bin, "--db", db, "import", path)
}

// bigCellFiles writes the files: native documents and QA pairs, the
// release's documents.parquet, and the hf folders annotate exports of them
// (written by the build maker).
func (r *runner) bigCellFiles(maker string) ([]bigCellFile, error) {
	dir := r.work
	var files []bigCellFile
	// A JSON line: the text as large as the line's 16 MiB leaves room for.
	jsonText := func(overhead int) string {
		esc, _ := json.Marshal(bigCellParagraph)
		reps := (bigCellLimit - overhead) / (len(esc) - 2)
		return strings.Repeat(bigCellParagraph, reps)
	}
	doc := jsonText(100)
	line, _ := json.Marshal(map[string]any{"kind": "document", "id": "big", "title": "Une décision", "text": doc})
	native := filepath.Join(dir, "document.jsonl")
	if err := os.WriteFile(native, append(line, '\n'), 0o644); err != nil {
		return nil, err
	}
	files = append(files, bigCellFile{"native: a document's text", native, len(doc)})

	unit := jsonText(300)
	line, _ = json.Marshal(map[string]any{"id": "q1", "source": "big", "question": "Quel préavis le locataire doit-il donner ?",
		"answer": "Trois mois.", "contexts": []map[string]any{{"id": "u1", "text": unit}},
		"claims": []map[string]any{{"text": "Le préavis est de trois mois."}}})
	qa := filepath.Join(dir, "qa.jsonl")
	if err := os.WriteFile(qa, append(line, '\n'), 0o644); err != nil {
		return nil, err
	}
	files = append(files, bigCellFile{"native: a QA pair's context unit", qa, len(unit)})

	// documents.parquet: the text exactly 16 MiB, Snappy as pyarrow
	// writes it, no min and max of the text (pyarrow leaves out those of
	// long values).
	text := strings.Repeat(bigCellParagraph, bigCellLimit/len(bigCellParagraph)+1)[:bigCellLimit]
	rows := []releaseDocRow{
		{Citation: "2024 QCCA 1", Name: "Une décision", OriginalSource: "QCCA", Year: 2024, Text: "Un texte court."},
		{Citation: "2024 QCCA 2", Name: "La grande décision", OriginalSource: "QCCA", Year: 2024, Text: text},
	}
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[releaseDocRow](&buf, parquet.Compression(&parquet.Snappy),
		parquet.SkipPageBounds("text"), parquet.SkipPageStatistics("text"))
	if _, err := w.Write(rows); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	release := filepath.Join(dir, "documents.parquet")
	if err := os.WriteFile(release, buf.Bytes(), 0o644); err != nil {
		return nil, err
	}
	files = append(files, bigCellFile{"CanLegalRAGBench documents.parquet", release, len(text)})

	// The hf folders: the document of the Parquet file (16 MiB) as
	// Parquet; that of the native line as JSON lines, whose line must
	// hold it.
	for _, hf := range []struct {
		from, data string
		cell       int
	}{{release, "parquet", len(text)}, {native, "jsonl", len(doc)}} {
		db := filepath.Join(dir, "export-"+hf.data+".db")
		out := filepath.Join(dir, "hf-"+hf.data)
		for _, p := range []string{db, db + "-wal", db + "-shm", out} {
			os.RemoveAll(p)
		}
		if _, err := r.timed("", "", "", maker, "--db", db, "import", hf.from); err != nil {
			return nil, err
		}
		if _, err := r.timed("", "", "", maker, "--db", db, "export", "--format", "hf", "--data-format", hf.data, "--out", out); err != nil {
			return nil, err
		}
		files = append(files, bigCellFile{"hf folder, " + hf.data, out, hf.cell})
	}
	return files, nil
}

// multiFlag is a flag given several times.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

func (m multiFlag) names() []string {
	var out []string
	for _, b := range m {
		name, _, _ := strings.Cut(b, "=")
		out = append(out, name)
	}
	return out
}
