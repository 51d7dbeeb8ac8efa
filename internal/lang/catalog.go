package lang

import (
	"regexp"
	"strings"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message/catalog"
)

// Message is one entry of the catalog: the key the code writes (the
// English text with its placeholders) and what it says in each language.
type Message struct {
	Key string
	EN  Text // zero: the key as it is
	FR  Text
	// Wraps: the message is shown over as many lines as it needs (a
	// paragraph of a screen, a command's error on a terminal), not cut
	// to one line (a status line, a card, a header).
	Wraps bool
}

// Text is a message in one language: one form, or a form for each plural
// category of a number among the arguments.
type Text struct {
	// Arg is the argument (from 1) whose number selects the form; 0: the
	// message has one form, Other.
	Arg int
	// One is the form of CLDR's "one" category: 1 in English, 0 and 1 in
	// French ("0 élément").
	One   string
	Other string
}

// message is the text as the x/text catalog holds it. %w (an error an
// Errorf wraps) is said as %v: the printer formats the error's text.
func (t Text) message() catalog.Message {
	w := func(s string) string { return strings.ReplaceAll(s, "%w", "%v") }
	if t.Arg == 0 {
		return catalog.String(w(t.Other))
	}
	return plural.Selectf(t.Arg, "", plural.One, w(t.One), plural.Other, w(t.Other))
}

// msg is an entry with one form in each language, English the key.
func msg(en, fr string) Message { return Message{Key: en, FR: Text{Other: fr}} }

// inContext is an entry whose English is said in several places that
// French says differently: its key is the English, a bar and the place
// ("done|column": the home table's column, French "faits"; "done" alone
// is the help of enter, "fini").
func inContext(key, fr string) Message {
	en, _, _ := strings.Cut(key, "|")
	return Message{Key: key, EN: Text{Other: en}, FR: Text{Other: fr}}
}

// para is a message shown as a paragraph, over the lines it needs.
func para(en, fr string) Message { m := msg(en, fr); m.Wraps = true; return m }

// paraPlurals is a plurals entry shown as a paragraph.
func paraPlurals(arg int, enOne, enOther, frOne, frOther string) Message {
	m := plurals(arg, enOne, enOther, frOne, frOther)
	m.Wraps = true
	return m
}

// wrapped marks messages shown over as many lines as they need.
func wrapped(ms ...Message) []Message {
	for i := range ms {
		ms[i].Wraps = true
	}
	return ms
}

// plurals is an entry whose form follows the number of its arg-th
// argument, in both languages; the key is the English plural form.
func plurals(arg int, enOne, enOther, frOne, frOther string) Message {
	return Message{Key: enOther, EN: Text{Arg: arg, One: enOne, Other: enOther}, FR: Text{Arg: arg, One: frOne, Other: frOther}}
}

// messages is the catalog, gathered from the files that hold its parts
// (messages_*.go), each by area.
var messages []Message

// add appends part of the catalog (a messages_*.go file's); it returns
// nothing of use and is called to initialise a package variable, so that
// every part is in before the catalog is first built.
func add(ms ...Message) struct{} {
	messages = append(messages, ms...)
	return struct{}{}
}

// Messages lists the catalog's entries as the printers say them (the
// French typeset), for the tests and for the size the docs give.
func Messages() []Message {
	out := make([]Message, len(messages))
	for i, m := range messages {
		if m.EN == (Text{}) {
			m.EN = Text{Other: m.Key}
		}
		m.FR.One, m.FR.Other = typeset(m.FR.One), typeset(m.FR.Other)
		out[i] = m
	}
	return out
}

// build makes the x/text catalog of every message in both languages.
func build() catalog.Catalog {
	b := catalog.NewBuilder(catalog.Fallback(language.English))
	for _, m := range Messages() {
		if err := b.Set(language.English, m.Key, m.EN.message()); err != nil {
			panic("lang: " + m.Key + ": " + err.Error())
		}
		if err := b.Set(frenchTag, m.Key, m.FR.message()); err != nil {
			panic("lang: " + m.Key + ": " + err.Error())
		}
	}
	return b
}

// typeset gives French text its typography, so that the catalog can be
// written with plain spaces: a narrow no-break space (U+202F) where a space
// stands between a word and : ; ! ? or a percent sign, and a no-break space
// (U+00A0) inside « guillemets ». A line never breaks there, and no French
// screen shows "12,5 %" split over two lines. A mark after anything else
// is a key named in running text ("en bas, ? ouvre le guide") and keeps
// its space.
func typeset(s string) string {
	s = markAfterWord.ReplaceAllString(s, "$1\u202f$2")
	return strings.NewReplacer("« ", "«\u00a0", " »", "\u00a0»").Replace(s)
}

// markAfterWord is a space between the end of a word (a letter, a digit, a
// closing mark, a placeholder's verb) and a high punctuation mark, or
// before one that opens a message (" ; 3 touches…" follows a sentence).
var markAfterWord = regexp.MustCompile(`(^|[\p{L}\p{N}»)\]]) ([:;!?]|%%)`)
