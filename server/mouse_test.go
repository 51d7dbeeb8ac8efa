package server

import (
	"fmt"
	"github.com/annotate-dev/annotate/store/storetest"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// sgrClick is a left click at (x, y), zero-based, as a terminal sends it
// in SGR mouse mode (press then release).
func sgrClick(x, y int) string {
	return fmt.Sprintf("\x1b[<0;%d;%dM\x1b[<0;%d;%dm", x+1, y+1, x+1, y+1)
}

// The mouse works under serve as it does locally: the screen asks the
// client's terminal for mouse reports (cell motion, SGR), and a click on an
// option of the card, read from the session's input, writes the label.
// The card's row is found from the bottom (below it: the status line and
// the help bar, which take no click); a click on a row without an option
// writes nothing.
func TestClickOverSSH(t *testing.T) {
	jo := newKey(t)
	f := start(t, 1, map[string]gossh.Signer{"jo": jo})
	term := f.openTerminal(t, jo)
	term.waitFor("QA pairs")
	term.press("\r")
	term.waitFor("Question number 1")
	if out := term.out.String(); !strings.Contains(out, "\x1b[?1002h") || !strings.Contains(out, "\x1b[?1006h") {
		t.Fatalf("the screen does not ask for mouse reports (cell motion, SGR): %q", tail(out))
	}
	// "▌ [y/1] valid": column 4 is on "y/1".
	found := -1
	for y := 39; y >= 30 && found < 0; y-- {
		term.press(sgrClick(4, y))
		deadline := time.Now().Add(300 * time.Millisecond)
		for time.Now().Before(deadline) {
			if labelCount(t, f.store, "jo", 1) > 0 {
				found = y
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if found < 0 {
		t.Fatalf("no click on the bottom rows wrote a label; the screen shows:\n%s", tail(term.screen()))
	}
	ref, _ := storetest.Read(t, f.store).Resolve("q1")
	got, err := storetest.Read(t, f.store).CurrentLabels("jo", ref.ItemID)
	if err != nil || len(got) != 1 || got["question_validity"] != "valid" {
		t.Fatalf("labels after the click on row %d: %v (%v), want question_validity=valid only", found, got, err)
	}
	term.press("q")
	term.press("q")
	if err := term.waitEnd(); err != nil {
		t.Errorf("session ended with %v", err)
	}
}
