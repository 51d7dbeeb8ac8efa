package textsafe

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	for in, want := range map[string]string{
		"a\x1b[31mb":              "a␛[31mb",
		"\x1b]0;pwned\x07evil":    "␛]0;pwned␇evil",
		"cr\rx":                   "cr␍x",
		"crlf\r\nx":               "crlf\nx",
		"tab\tx":                  "tab\tx",
		"c1\u009b31m":             "c1�31m",
		"del\x7f":                 "del␡",
		"bidi\u202ex":             "bidi�x",
		"bad\xffutf8":             "bad�utf8",
		"Données « ok »":          "Données « ok »",
		"line\nbreak\u2028there":  "line\nbreak␤there",
		"para\u2029graph":         "para␤graph",
		"isolate\u2067x\u2069":    "isolate�x�",
		"marks\u200e\u200f\u061c": "marks���",
		"embed\u202ax\u202c":      "embed�x�",
		"nul\x00":                 "nul␀",
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestWriterHoldsCutRunes writes "é␛" one byte at a time, as a buffered
// writer flushing mid-rune would: the multi-byte characters come out whole.
func TestWriterHoldsCutRunes(t *testing.T) {
	var out bytes.Buffer
	w := &Writer{W: &out}
	for _, c := range []byte("é\x1bé\n") {
		if n, err := w.Write([]byte{c}); n != 1 || err != nil {
			t.Fatalf("Write = %d, %v", n, err)
		}
	}
	w.Flush()
	if got := out.String(); got != "é␛é\n" {
		t.Fatalf("got %q", got)
	}
	// An output that ends inside a rune shows the cut as "�".
	out.Reset()
	w.Write([]byte("ab\xc3"))
	if out.String() != "ab" {
		t.Fatalf("before Flush: %q", out.String())
	}
	w.Flush()
	if got := out.String(); got != "ab\uFFFD" {
		t.Fatalf("after Flush: %q", got)
	}
}

// TestWriterJSON checks that JSON mode keeps the document's values and
// leaves no raw control character: decoding the output gives back the
// original string, and the bytes hold no ESC, BEL, C1 or bidi control.
func TestWriterJSON(t *testing.T) {
	name := "\x1b]0;pwned\x07evil \u009b31m \u202eabc \u2028 ok"
	doc, err := json.Marshal(map[string]string{"annotator": name})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "\u009b") {
		t.Fatal("encoding/json now escapes C1 itself: this writer's JSON mode may be simplified")
	}
	var out bytes.Buffer
	w := &Writer{W: &out, JSON: func() bool { return true }}
	w.Write(doc)
	w.Flush()
	for _, r := range out.String() {
		if r < 0x20 || IsC1(r) || IsBidiControl(r) || r == 0x7f {
			t.Fatalf("raw control %U in %q", r, out.String())
		}
	}
	var back map[string]string
	if err := json.Unmarshal(out.Bytes(), &back); err != nil {
		t.Fatalf("not JSON any more: %v\n%s", err, out.String())
	}
	if back["annotator"] != name {
		t.Fatalf("value changed: %q", back["annotator"])
	}
	if want := `{"annotator":"\u001b]0;pwned\u0007evil \u009b31m \u202eabc \u2028 ok"}`; out.String() != want {
		t.Fatalf("got  %s\nwant %s", out.String(), want)
	}
}
