package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/annotate-dev/annotate/guidelines"
	"github.com/annotate-dev/annotate/internal/textsafe"
	"github.com/annotate-dev/annotate/store"
	"github.com/spf13/cobra"
)

// editHeader opens the file the editor gets; it comes before the section,
// where Parse leaves text out, so it is never stored.
const editHeader = "<!-- annotate: the %sguidelines of %s, version %d. Save and quit to record version %d; unchanged text or an empty file records nothing. -->\n\n"

func newGuidelinesEditCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "edit FIELD",
		Short: "Edit one field's guidelines in $VISUAL or $EDITOR; a change is a new version",
		Long: `edit opens the field's guidelines in force in $VISUAL, else $EDITOR
(else vi), and records what you save as the field's next version, with
you (--as or $ANNOTATE_USER, the lead) as its author and the time. Saving
the text unchanged records nothing; an empty file is refused. The file
must keep one section, headed "## FIELD — title"; if it cannot be read
back, nothing is recorded and the file is kept for you to fix and import.
With --lang fr it edits the French text: the new version keeps the English
one, and an English edit keeps the French (the screens then say that the
field's French is older than its English).`,
		Example:   "  annotate guidelines edit entailment --as lead\n  annotate guidelines edit entailment --lang fr --as lead\n  EDITOR=nano annotate guidelines edit persona --as lead",
		Args:      cobra.ExactArgs(1),
		ValidArgs: guidelines.Fields(),
		RunE: g.withDB(func(cmd *cobra.Command, args []string, s *store.Store) error {
			field, err := guidelines.Lookup(args[0])
			if err != nil {
				return err
			}
			author, err := g.needLead(s, "annotate guidelines edit")
			if err != nil {
				return err
			}
			cur, err := s.CurrentGuidelines()
			if err != nil {
				return err
			}
			v := cur[field]
			code, which := editLang(g)
			f, err := os.CreateTemp("", "annotate-guidelines-"+field+"-*.md")
			if err != nil {
				return err
			}
			path := f.Name()
			header := fmt.Sprintf(editHeader, which, field, v.Version, v.Version+1)
			_, err = f.WriteString(header + v.TextIn(code))
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				os.Remove(path)
				return err
			}
			if err := runEditor(cmd, path); err != nil {
				os.Remove(path)
				return err
			}
			data, err := guidelines.ReadFile(path)
			if err != nil {
				return err
			}
			body := strings.TrimPrefix(strings.ReplaceAll(string(data), "\r\n", "\n"), strings.TrimRight(header, "\n"))
			if strings.TrimSpace(body) == "" {
				os.Remove(path)
				return fmt.Errorf("guidelines edit %s: the file is empty: nothing recorded, %s stays at version %d", field, field, v.Version)
			}
			secs, err := guidelines.Parse(path, data)
			if err == nil && (len(secs) != 1 || secs[0].Field != field) {
				err = fmt.Errorf("%s: want one section, of %s (## %s — title), found %s", path, field, field, sectionNames(secs))
			}
			if err != nil {
				return fmt.Errorf("%w\nnothing recorded; your text is kept in %s (fix it, then: annotate guidelines import %s)", err, path, path)
			}
			os.Remove(path)
			added, err := s.AddGuidelines(author, "edit", []store.GuidelineText{{Field: field, Text: secs[0].Text, Lang: code}})
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if len(added) == 0 {
				fmt.Fprintf(out, "%s: unchanged, still version %d\n", field, v.Version)
				return nil
			}
			fmt.Fprintf(out, "%s: version %d by %s%s\n", field, added[0].Version, author, langNote(added[0]))
			return nil
		}),
	}
}

func sectionNames(secs []guidelines.Parsed) string {
	var names []string
	for _, p := range secs {
		names = append(names, p.Field)
	}
	return strings.Join(names, ", ")
}

// runEditor runs $VISUAL, else $EDITOR, else vi, on path, on the terminal
// annotate runs on. The variable may hold arguments ("code --wait"): the
// shell splits it, as git does. The editor draws its own screen: it writes
// past the sanitiser, which is for data strings.
func runEditor(cmd *cobra.Command, path string) error {
	ed := os.Getenv("VISUAL")
	if ed == "" {
		ed = os.Getenv("EDITOR")
	}
	if ed == "" {
		ed = "vi"
	}
	c := exec.Command("sh", "-c", ed+` "$1"`, "sh", path)
	c.Stdin, c.Stdout, c.Stderr = cmd.InOrStdin(), rawWriter(cmd.OutOrStdout()), rawWriter(cmd.ErrOrStderr())
	if err := c.Run(); err != nil {
		return fmt.Errorf("the editor %q failed: %w; nothing recorded", ed, err)
	}
	return nil
}

func newGuidelinesImportCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "import FILE.md",
		Short: "Import guidelines from Markdown: each changed section is a new version",
		Long: `import reads a Markdown file in the format annotate guidelines prints:
one section per field, headed "## FIELD — title", to the next such heading
(text before the first section, such as the introduction, is left out).
Each section whose text differs from its field's version in force becomes
the field's next version, with you (--as or $ANNOTATE_USER, the lead) as
author; the others are unchanged. A section naming no field, a field given
twice or an empty section is an error naming the file, the line and the
field, and nothing is recorded.`,
		Example: "  annotate guidelines > guidelines.md   # edit it, then\n  annotate guidelines import guidelines.md --as lead",
		Args:    cobra.ExactArgs(1),
		RunE: g.withDB(func(cmd *cobra.Command, args []string, s *store.Store) error {
			author, err := g.needLead(s, "annotate guidelines import")
			if err != nil {
				return err
			}
			data, err := guidelines.ReadFile(args[0])
			if err != nil {
				return err
			}
			code, _ := editLang(g)
			if err := checkFileLang(args[0], data, code); err != nil {
				return err
			}
			secs, err := guidelines.Parse(args[0], data)
			if err != nil {
				var pe *guidelines.ParseError
				if errors.As(err, &pe) {
					return fmt.Errorf("%w; nothing imported", err)
				}
				return err
			}
			texts := make([]store.GuidelineText, len(secs))
			for i, p := range secs {
				texts[i] = store.GuidelineText{Field: p.Field, Text: p.Text, Lang: code}
			}
			added, err := s.AddGuidelines(author, "import "+filepath.Base(args[0]), texts)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			for _, v := range added {
				fmt.Fprintf(out, "%s: version %d%s\n", v.Field, v.Version, langNote(v))
			}
			fmt.Fprintf(out, "%d sections read: %d new versions by %s, %d unchanged\n", len(secs), len(added), author, len(secs)-len(added))
			return nil
		}),
	}
}

func newGuidelinesHistoryCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "history [FIELD]",
		Short: "List the versions of the guidelines (of one field, or all) with author and time",
		Long: `history lists every version of each field's guidelines, oldest first:
the number labels record, who made it, when (UTC), and how (embedded: the
text annotate ships, version 1; edit; import FILE).`,
		Example:   "  annotate guidelines history\n  annotate guidelines history entailment --json",
		Args:      cobra.MaximumNArgs(1),
		ValidArgs: guidelines.Fields(),
		RunE: g.withDB(func(cmd *cobra.Command, args []string, s *store.Store) error {
			field := ""
			if len(args) == 1 {
				var err error
				if field, err = guidelines.Lookup(args[0]); err != nil {
					return err
				}
			}
			h, err := s.GuidelineHistory(field)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if g.json {
				if h == nil {
					h = []store.GuidelineVersion{}
				}
				return json.NewEncoder(out).Encode(map[string]any{"versions": h})
			}
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "field\tversion\tauthor\ttime (UTC)\tsource")
			for _, v := range h {
				fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s%s\n", v.Field, v.Version, v.Author, minute(v.CreatedAt), v.Source, langNote(v))
			}
			return tw.Flush()
		}),
	}
}

// minute shortens an RFC 3339 time to the minute: "2026-12-01 12:40".
func minute(ts string) string {
	if len(ts) >= 16 {
		return strings.Replace(ts[:16], "T", " ", 1)
	}
	return ts
}

// rawWriter is the writer under the sanitiser, flushed first.
func rawWriter(w io.Writer) io.Writer {
	if s, ok := w.(*textsafe.Writer); ok {
		s.Flush()
		return s.W
	}
	return w
}

// editLang is the language guidelines edit and import change, from --lang
// alone (never the locale: a lead's French terminal does not make an
// English file French), and how the editor's header names it.
func editLang(g *globals) (code, which string) {
	if g.langFlag == guidelines.French {
		return guidelines.French, "French "
	}
	return guidelines.English, ""
}

// langNote marks a version that changed the French text.
func langNote(v store.GuidelineVersion) string {
	if v.Lang == guidelines.French {
		return " (French text)"
	}
	return ""
}
