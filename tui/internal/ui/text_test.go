package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestSanitize(t *testing.T) {
	for in, want := range map[string]string{
		"a\x1b[31mb":  "a␛[31mb",
		"bell\x07":    "bell␇",
		"cr\rx":       "cr␍x",
		"crlf\r\nx":   "crlf\nx",
		"tab\tx":      "tab x",
		"c1\u009bx":   "c1�x",
		"del\x7f":     "del␡",
		"bidi\u202ex": "bidi�x",
		"bad\xffutf8": "bad�utf8",
		"Données ok":  "Données ok",
		"line\nbreak": "line\nbreak",
	} {
		if got := Sanitize(in); got != want {
			t.Errorf("Sanitize(%q) = %q, want %q", in, got, want)
		}
	}
	if got := SanitizeLine("a\nb"); got != "a␤b" {
		t.Errorf("sanitizeLine = %q", got)
	}
}

func TestWrapUAX14(t *testing.T) {
	text := Sanitize("Toute personne a droit à la protection des données à caractère personnel la concernant, « conformément » à l’article 8 : voir.")
	for _, w := range []int{1, 5, 10, 17, 30, 80} {
		lines := Wrap(text, w)
		for _, l := range lines {
			if TextWidth(l) > w {
				t.Fatalf("width %d: line %q is %d wide", w, l, TextWidth(l))
			}
		}
		if w >= 12 {
			joined := strings.Join(lines, " ")
			if joined != text {
				t.Fatalf("width %d: wrapping lost text:\n%q\n%q", w, joined, text)
			}
			for _, l := range lines {
				if strings.HasPrefix(l, "»") || strings.HasSuffix(l, "«") {
					t.Fatalf("width %d: guillemet separated from its word: %q", w, l)
				}
			}
		}
	}
	if got := Wrap("l’article 8", 10); got[0] != "l’article" {
		t.Fatalf("broke inside l’article: %q", got)
	}
	if got := Wrap("a\n\nb", 10); len(got) != 3 {
		t.Fatalf("hard newlines: %q", got)
	}
	// Wide characters are measured in cells.
	for _, l := range Wrap("条約第一条の規定により個人データを保護する", 7) {
		if TextWidth(l) > 7 {
			t.Fatalf("CJK line too wide: %q", l)
		}
	}
}

func TestFoldAndHighlight(t *testing.T) {
	if fold("Données Œuvre") != "donnees oeuvre" {
		t.Fatalf("fold = %q", fold("Données Œuvre"))
	}
	set := map[string]bool{"donnees": true, "article": true, "6": true}
	text := "Les DONNÉES visées à l'article 6 et les données."
	var got []string
	for _, sp := range HighlightSpans(text, set, NewStyles(true, true).Highlight) {
		got = append(got, text[sp.Start:sp.End])
	}
	if strings.Join(got, ",") != "DONNÉES,article,6,données" {
		t.Fatalf("highlighted %q", got)
	}
}

func TestWrapStyledKeepsText(t *testing.T) {
	st := NewStyles(true, false)
	text := "The controller shall inform the data subject of the processing of personal data."
	spans := HighlightSpans(text, map[string]bool{"controller": true, "data": true}, st.Highlight)
	lines := WrapStyled(Data(text), spans, 20, nil)
	var plain []string
	for _, l := range lines {
		if ansi.StringWidth(l) > 20 {
			t.Fatalf("too wide: %q", l)
		}
		plain = append(plain, ansi.Strip(l))
	}
	if strings.Join(plain, " ") != text {
		t.Fatalf("lost text: %q", plain)
	}
	if !strings.Contains(strings.Join(lines, ""), st.Highlight.Render("controller")) {
		t.Fatalf("no highlight: %q", lines)
	}
}

// TestBarStaysInItsBox: a count out of range for a moment (the screen's
// own count, corrected by the store's a moment later) draws a full or an
// empty bar of its width, never a panic.
func TestBarStaysInItsBox(t *testing.T) {
	for _, c := range []struct {
		done, total, n int
		want           string
	}{
		{-1, 4, 4, "░░░░"},
		{5, 4, 4, "████"},
		{2, 4, 4, "██░░"},
		{1, 0, 3, "░░░"},
		{1, 2, -2, ""},
	} {
		if got := Bar(c.done, c.total, c.n); got != c.want {
			t.Errorf("Bar(%d, %d, %d) = %q, want %q", c.done, c.total, c.n, got, c.want)
		}
	}
}
