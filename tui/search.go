package tui

import (
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/internal/lang"
	"github.com/annotate-dev/annotate/internal/suggest"
	"github.com/annotate-dev/annotate/store"
	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// Search and filters in the annotation queues (docs/keys.md "Search and
// filters"). / (or ctrl+f) asks for a text and opens the next item of the
// queue, in queue order, whose own fields hold it, ignoring case and accents
// (store.SearchQueue: the search runs in SQL); ctrl+n and ctrl+p go to the
// next and previous match, wrapping round. In a relevance document / searches
// the document (kind_relevance.go), so ctrl+f is the queue's search there. F
// picks a filter (filter.go): the queue then holds only the matching items.

// errNoMatch says that no item of the queue holds the text searched for.
var errNoMatch = errors.New("no match")

// searchKey handles the search keys of an annotation screen; false: the key
// is not one of them.
func (s *itemScreen) searchKey(msg tea.KeyPressMsg) (ui.Child, tea.Cmd, bool) {
	e, k, w := s.e, s.e.keys, s.e.work
	if w == nil || !keyIs(msg, k.Search, k.SearchNext, k.SearchPrev, k.Filter) {
		return nil, nil, false
	}
	switch {
	case keyIs(msg, k.Search):
		return newSearchInput(e, s, s.d.ref.ItemID), nil, true
	case keyIs(msg, k.Filter):
		return newFilterPicker(e, s), sourcesCmd(e.store, w.kind), true
	}
	if w.term == "" {
		e.status = e.lang.Sprintf("Nothing searched yet: / searches the queue.")
		return s, nil, true
	}
	e.going = true
	return s, searchCmd(e.store, e.lang, e.annotator, e.suggest, w.query(e), w.term, s.d.ref.ItemID, keyIs(msg, k.SearchPrev)), true
}

// newSearchInput asks for the text to search the queue for: it opens empty,
// the last search one key away (↑), so that new typing is a new search;
// empty clears the search.
func newSearchInput(e *env, under ui.Child, cur int64) *inputScreen {
	w := e.work
	title := e.lang.Sprintf("Search the %s queue (the items' text and ids; empty clears)", kindName(e.lang, w.kind))
	in := newInput(e, under, title, []string{e.lang.Sprintf("search")}, false, "", func(v []string) tea.Cmd {
		if v[0] == "" {
			w.term = ""
			e.status = e.lang.Sprintf("Search cleared.")
			return nil
		}
		w.term = v[0]
		e.going = true
		return searchCmd(e.store, e.lang, e.annotator, e.suggest, w.query(e), v[0], cur, false)
	})
	in.recall = w.term
	return in
}

// searchCmd finds the next (previous) match of term in the queue after
// (before) the item cur, from the start when cur is not in the queue, and
// loads it. The answer is a go-to's: the screen opens the item found.
func searchCmd(s *store.Store, l *lang.Printer, annotator, suggest string, q store.QueueQuery, term string, cur int64, backward bool) tea.Cmd {
	return func() tea.Msg {
		m := gotoLoadedMsg{query: term, search: true}
		from, _, err := s.QueueKey(q, cur)
		if err != nil {
			m.err = err
			return m
		}
		hit, ok, err := s.SearchQueue(q, term, from, backward)
		switch {
		case err != nil:
			m.err = err
			return m
		case !ok:
			m.err = errNoMatch
			return m
		}
		m.data, m.err = loadItem(s, l, annotator, suggest, hit.ItemRef)
		m.found = l.Sprintf("Match %d of %d for “%s” · ctrl+n next · ctrl+p previous", hit.Match, hit.Matches, ui.SanitizeLine(term))
		if q.Filter.Active() {
			m.found += " " + l.Sprintf("(filter: %s)", ui.SanitizeLine(filterName(l, q.Filter)))
		}
		return m
	}
}

// failure is what the status line says when a go-to or a search fails.
func (m gotoLoadedMsg) failure(l *lang.Printer) string {
	switch {
	case m.search && errors.Is(m.err, errNoMatch):
		return l.Sprintf("No item of this queue matches “%s”: / searches for another text.", ui.SanitizeLine(m.query))
	case m.search:
		return l.Sprintf("Search “%s”: %s", ui.SanitizeLine(m.query), m.err.Error())
	}
	return l.Sprintf("Go to %s: %s", ui.SanitizeLine(m.query), m.err.Error())
}

// sourcesCmd lists the sources of a kind's items, the choices of the
// source filter.
func sourcesCmd(s *store.Store, kind string) tea.Cmd {
	return func() tea.Msg {
		names, err := s.Sources(kind)
		return sourcesMsg{kind: kind, names: names, err: err}
	}
}

type sourcesMsg struct {
	kind  string
	names []string
	err   error
}

// filterWork walks the queue again from its start under another filter; the
// counts in the header become those of the filtered queue.
func (e *env) filterWork(f store.QueueFilter) (ui.Child, tea.Cmd) {
	w := e.work
	nw := newWork(w.kind, w.batch, w.gen+1)
	nw.term, nw.filter, nw.skippedIn, nw.skipped = w.term, f, w.skippedIn, w.skipped
	e.work = nw
	nw.fetching = true
	if f.Active() {
		e.status = e.lang.Sprintf("Filter: %s. F changes it.", ui.SanitizeLine(filterName(e.lang, f)))
	} else {
		e.status = e.lang.Sprintf("Filter cleared: every item of the queue.")
	}
	l := newLoading(e, store.ItemRef{}, e.lang.Sprintf("Loading the %s queue…", kindName(e.lang, w.kind)))
	l.SetSize(e.w, e.h)
	return l, tea.Batch(fetchQueueCmd(e.store, nw.gen, nw.query(e)), countQueueCmd(e.store, nw.gen, nw.query(e), true))
}

// fuzzyGoto ranks the ids of every item by how closely they match a typed
// fragment (suggest.Fuzzy: its characters in
// order, then a typo). One best match is the item to open, with what the
// status line says of it; several equally close come back to be listed.
func fuzzyGoto(s *store.Store, l *lang.Printer, typed string, shown int) ([]store.ItemRef, string, error) {
	refs, err := s.ItemIDs("")
	if err != nil {
		return nil, "", err
	}
	ids := make([]string, len(refs))
	byID := make(map[string]store.ItemRef, len(refs))
	for i, r := range refs {
		ids[i] = r.ExtID
		byID[r.ExtID] = r
	}
	ms := suggest.Fuzzy(typed, ids, shown+1)
	switch {
	case len(ms) == 0:
		return nil, "", nil
	case len(ms) == 1 || ms[0].Cost < ms[1].Cost:
		return []store.ItemRef{byID[ms[0].Name]}, l.Sprintf("No id is “%s”: the closest is %s.", ui.SanitizeLine(typed), ui.SanitizeLine(ms[0].Name)), nil
	}
	var out []store.ItemRef
	for _, m := range ms {
		if m.Cost == ms[0].Cost {
			out = append(out, byID[m.Name])
		}
	}
	return out, "", nil
}

// say puts what a search or a fuzzy go-to found on the status line, before
// what the item's screen said of it ("Not asked: …").
func (m gotoLoadedMsg) say(e *env) {
	switch {
	case m.found == "":
	case m.data != nil && m.data.notAsked != "":
		e.status = m.found + " " + e.status
	default:
		e.status = m.found
	}
}
