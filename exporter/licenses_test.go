package exporter

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckLicense(t *testing.T) {
	seen := map[string]string{}
	for _, l := range hubLicenses {
		if other, dup := seen[squeeze(l)]; dup {
			t.Fatalf("%s and %s look the same without separators: suggestions would lose one", l, other)
		}
		seen[squeeze(l)] = l
	}
	for _, ok := range []string{"cc-by-4.0", "cc-by-sa-4.0", "apache-2.0", "mit", "odc-by", "other", "llama3.1"} {
		if err := checkLicense(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for typed, want := range map[string]string{
		"CC BY-SA 4.0": "did you mean cc-by-sa-4.0? ",
		"CC-BY-4.0":    "did you mean cc-by-4.0? ",
		"apache2":      "did you mean apache-2.0? ",
		"cc-by-4":      "did you mean cc-by-4.0, cc-by-2.0, cc-by-2.5, cc-by-3.0? ", // without separators 1, 2, 2, 2 edits
		"gpl3":         "did you mean gpl, gpl-3.0, agpl-3.0, gpl-2.0, lgpl? ",      // 1, 1, then 2 edits (ties in the Hub's order)
		"foo":          `"foo" is not a license identifier of the Hugging Face Hub (the Hub's list`,
	} {
		err := checkLicense(typed)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", typed, err, want)
		}
	}
}

// A refused license stops the export before anything is written.
func TestExportRefusesUnknownLicense(t *testing.T) {
	s := demoStore(t)
	parent := t.TempDir()
	_, err := Export(context.Background(), s, Options{Out: filepath.Join(parent, "ds"), Annotator: "jo", License: "cc-by-4"})
	if err == nil || !strings.Contains(err.Error(), "cc-by-4.0") {
		t.Fatalf("want a refusal naming cc-by-4.0, got %v", err)
	}
	if es, _ := os.ReadDir(parent); len(es) != 0 {
		t.Errorf("left %v", es)
	}
	// The csv and jsonl formats have no card: no license to check.
	export(t, s, Options{Out: filepath.Join(parent, "csv"), Format: "csv", Annotator: "jo", License: "cc-by-4"})
}

// --license other needs the license's name and link, and the card's header
// carries them as the Hub's card spec names them (license_name,
// license_link); anything else is refused before a file is written.
func TestLicenseOther(t *testing.T) {
	s := demoStore(t)
	parent := t.TempDir()
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{License: "other"}, "--license other needs --license-name ID"},
		{Options{License: "other", LicenseName: "firm-1.0"}, "--license other needs"},
		{Options{License: "other", LicenseLink: "LICENSE"}, "--license other needs"},
		{Options{License: "other", LicenseName: "firm 1.0", LicenseLink: "LICENSE"}, `--license-name "firm 1.0": an id`},
		{Options{License: "other", LicenseName: "firm-1.0", LicenseLink: "../LICENSE"}, `--license-link "../LICENSE": a URL`},
		{Options{License: "other", LicenseName: "firm-1.0", LicenseLink: "/etc/LICENSE"}, `--license-link "/etc/LICENSE"`},
		{Options{License: "other", LicenseName: "firm-1.0", LicenseLink: "ftp://x.example/l"}, `--license-link "ftp://x.example/l"`},
		{Options{License: "other", LicenseName: "firm-1.0", LicenseLink: "LICENSE\nx: y"}, "control character"},
		{Options{License: "mit", LicenseName: "firm-1.0", LicenseLink: "LICENSE"}, "give them with --license other"},
		{Options{Format: "csv", LicenseName: "firm-1.0"}, "apply to --format hf"},
	} {
		o := c.o
		o.Out, o.Annotator = filepath.Join(parent, "ds"), "jo"
		_, err := Export(context.Background(), s, o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.o, err, c.want)
		}
	}
	if es, _ := os.ReadDir(parent); len(es) != 0 {
		t.Errorf("refusals left %v", es)
	}
	for _, link := range []string{"LICENSE.md", "https://firm.example/licenses/data-1.0"} {
		out := filepath.Join(parent, "ok"+filepath.Ext(link))
		export(t, s, Options{Out: out, Annotator: "jo", License: "other", LicenseName: "firm-data-1.0", LicenseLink: link})
		b, err := os.ReadFile(filepath.Join(out, "README.md"))
		if err != nil {
			t.Fatal(err)
		}
		header := strings.SplitN(string(b), "\n---\n", 2)[0]
		if want := "license: \"other\"\nlicense_name: \"firm-data-1.0\"\nlicense_link: \"" + link + "\"\n"; !strings.Contains(header, want) {
			t.Errorf("header:\n%s\nwant %q", header, want)
		}
		if !strings.Contains(string(b), "- **License:** firm-data-1.0 (not on the Hub's list): `"+link+"`") {
			t.Errorf("body: no license line naming firm-data-1.0 and %s", link)
		}
	}
}
