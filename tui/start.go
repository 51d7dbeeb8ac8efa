package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/annotate-dev/annotate/tui/adjudicate"

	"github.com/annotate-dev/annotate/tui/internal/ui"
)

// Screen is a screen the one program can start on (Options.Start) other
// than the annotator's home or queue: the lead's review, the review of gold
// answers. A new screen plugs in by implementing open (and, when it owns a
// session, endSession on the child it returns) in a file of its own here.
type Screen interface {
	// open makes the screen's child under the root's shared state and the
	// command that loads it (and starts its session, if it has one).
	open(e *env) (ui.Child, tea.Cmd)
}

// notice tells the screen something the root said on its status line
// (ui.NoticeMsg): the screens of other packages show it on theirs.
func notice(text string) tea.Cmd { return func() tea.Msg { return ui.NoticeMsg(text) } }

// titled is a child that names the terminal's window itself.
type titled interface{ Title() string }

// sessionEnder is a child that owns a session, ended when the program ends.
type sessionEnder interface{ EndSession() error }

// Review starts on the lead's review (`annotate review`): adjudication, or
// the system view with o.StartSystem.
func Review(o adjudicate.Options) Screen { return reviewScreen(o) }

type reviewScreen adjudicate.Options

func (s reviewScreen) open(e *env) (ui.Child, tea.Cmd) {
	m := adjudicate.New(adjudicate.Options(s), e)
	return m, m.Init()
}

// AnswerReview starts on the review of gold answers (`annotate review
// --kind answer_task`).
func AnswerReview(o adjudicate.AnswerOptions) Screen { return answersScreen(o) }

type answersScreen adjudicate.AnswerOptions

func (s answersScreen) open(e *env) (ui.Child, tea.Cmd) {
	m := adjudicate.NewAnswers(adjudicate.AnswerOptions(s), e)
	return m, m.Init()
}

// Styles and Keys make env the ui.Host of the screens of other packages:
// the styles the root made from the background and NO_COLOR, the one key
// map.
func (e *env) Styles() ui.Styles { return e.styles }
func (e *env) Keys() ui.KeyMap   { return e.keys }
