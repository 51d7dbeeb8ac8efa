package server

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/annotate-dev/annotate/store"
	gossh "golang.org/x/crypto/ssh"
)

func authorizedLine(k gossh.Signer) string {
	return strings.TrimSpace(string(gossh.MarshalAuthorizedKey(k.PublicKey())))
}

func writeKeys(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "authorized_keys")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParseAuthorizedKeys(t *testing.T) {
	jo, sam := newKey(t), newKey(t)
	p := writeKeys(t, "# annotators of the pilot\n\n"+authorizedLine(jo)+" jo\r\nrestrict,no-port-forwarding "+authorizedLine(sam)+" Søren-李\n")
	got, err := ParseAuthorizedKeys(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{gossh.FingerprintSHA256(jo.PublicKey()): "jo", gossh.FingerprintSHA256(sam.PublicKey()): "Søren-李"}
	if len(got) != len(want) || got[gossh.FingerprintSHA256(jo.PublicKey())] != "jo" || got[gossh.FingerprintSHA256(sam.PublicKey())] != "Søren-李" {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestParseAuthorizedKeysErrorsNameTheLine(t *testing.T) {
	jo := authorizedLine(newKey(t))
	for _, c := range []struct{ name, text, want string }{
		{"no comment", "# keys\n" + jo + " jo\n" + authorizedLine(newKey(t)) + "\n", ":3: the key has no comment"},
		{"garbage", jo + " jo\nssh-ed25519 not-base64 sam\n", ":2: not an authorized_keys line"},
		{"two-word name", jo + " Jo Smith\n", `:1: the key's comment: "Jo Smith" is not a name: it holds a space`},
		{"restricting option", `from="10.0.0.0/8" ` + jo + " jo\n", `:1: option "from=\"10.0.0.0/8\""`},
		{"one key two names", jo + " jo\n\n" + jo + " sam\n", `:3: this key is already given to "jo" on line 1`},
		{"empty", "# nobody yet\n", "no keys"},
		{"a line of 10 MB", jo + " jo\n# pasted\n" + strings.Repeat("A", 10<<20) + "\n", ":3: the line is longer than 1 MiB"},
		// The rules of imported annotator names: a bidi override would show
		// "jo" as another name, a comma would split it in --assign lists.
		{"bidi override", "# keys\n" + jo + " jo\u202egnp\n", `:2: the key's comment: "jo\u202egnp" is not a name: it holds the bidirectional control U+202E, which reorders text on a terminal (character 3)`},
		{"bidi isolate", jo + " \u2066jo\n", `:1: the key's comment: "\u2066jo" is not a name: it holds the bidirectional control U+2066`},
		{"comma", jo + " jo,sam\n", `:1: the key's comment: "jo,sam" is not a name: it holds ',', which separates the names of a list (jo,sam) (character 3)`},
		{"C1 control", jo + " jo\u009b31m\n", `:1: the key's comment: "jo\u009b31m" is not a name: it holds the control character U+009B (character 3)`},
		{"line separator", jo + " jo\u2028sam\n", `:1: the key's comment: "jo\u2028sam" is not a name: it holds the line or paragraph separator U+2028`},
		{"escape", jo + " jo\x1b[2J\n", `:1: the key's comment: "jo\x1b[2J" is not a name: it holds the control character U+001B`},
		{"invalid UTF-8", jo + " jo\xff\n", `:1: the key's comment: "jo\xff" is not a name: it is not valid UTF-8 (character 3)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := writeKeys(t, c.text)
			_, err := ParseAuthorizedKeys(p, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), p) {
				t.Fatalf("error %v; want it to name %s and say %q", err, p, c.want)
			}
		})
	}
	// Against the database's annotators: a new name close to a known one,
	// or to a name on an earlier line, is a typo.
	for _, c := range []struct{ name, text, want string }{
		{"typo of a known annotator", jo + " Jo\n", `:1: the key's comment: no annotator "Jo" yet; did you mean "jo"? (to create "Jo" on purpose: annotate annotator add Jo)`},
		{"typo of an earlier line", authorizedLine(newKey(t)) + " kim\n" + jo + " kimm\n", `:2: the key's comment: no annotator "kimm" yet; did you mean "kim"?`},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := writeKeys(t, c.text)
			_, err := ParseAuthorizedKeys(p, []string{"jo", "sam"})
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), p) {
				t.Fatalf("error %v; want it to name %s and say %q", err, p, c.want)
			}
		})
	}
	if _, err := ParseAuthorizedKeys(writeKeys(t, jo+" jo\n"+authorizedLine(newKey(t))+" kim\n"), []string{"jo"}); err != nil {
		t.Errorf("a known name and a new one unlike any: %v", err)
	}
	if _, err := ParseAuthorizedKeys(filepath.Join(t.TempDir(), "missing"), nil); err == nil {
		t.Fatal("a missing file parsed")
	}
}

func TestNewRefusesAKeyWithoutName(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "annotate.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p := writeKeys(t, authorizedLine(newKey(t))+"\n")
	_, err = New(Config{Listen: "127.0.0.1:0", HostKeyPath: filepath.Join(dir, "hk"), AuthorizedKeysPath: p, Store: st})
	if err == nil || !strings.Contains(err.Error(), p+":1: the key has no comment") {
		t.Fatalf("New: %v", err)
	}
}

// authorized_keys is read line by line to at most maxKeysFile: a file over
// it is refused naming the file (an over-long line before the limit is
// named by its line, above), and so is what is not a regular file; a file
// of exactly the limit is read.
func TestAuthorizedKeysFileLimit(t *testing.T) {
	jo := authorizedLine(newKey(t)) + " jo\n"
	comment := "# " + strings.Repeat("c", 1000) + "\n"
	fill := func(size int) string {
		text := jo + strings.Repeat(comment, (size-len(jo))/len(comment))
		return text + "#" + strings.Repeat(" ", size-len(text)-2) + "\n"
	}
	exact := fill(maxKeysFile)
	if len(exact) != maxKeysFile {
		t.Fatalf("the file is %d bytes, not %d", len(exact), maxKeysFile)
	}
	if got, err := ParseAuthorizedKeys(writeKeys(t, exact), nil); err != nil || len(got) != 1 {
		t.Fatalf("a file of exactly %d bytes: %v, %v", maxKeysFile, got, err)
	}
	p := writeKeys(t, exact+"\n")
	_, err := ParseAuthorizedKeys(p, nil)
	want := "authorized keys: " + p + ": 4.0 MiB, over the 4.0 MiB limit of this file: a line holds one key"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("a byte over the limit: %v\nwant %s…", err, want)
	}
	fifo := filepath.Join(t.TempDir(), "authorized_keys")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = ParseAuthorizedKeys(fifo, nil)
	if want := "authorized keys: " + fifo + ": not a regular file"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("a FIFO: %v\nwant %s…", err, want)
	}
}

// The host key file is read to at most maxHostKeyFile: over it, or not a
// regular file, it is refused naming the file; a key is read as before.
func TestHostKeyFileLimit(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "host_ed25519")
	made, created, err := loadHostKey(p)
	if err != nil || !created {
		t.Fatalf("creating the key: %v (created %v)", err, created)
	}
	again, created, err := loadHostKey(p)
	if err != nil || created || !bytes.Equal(again.PublicKey().Marshal(), made.PublicKey().Marshal()) {
		t.Fatalf("reading the key back: %v (created %v)", err, created)
	}
	key, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, append(key, bytes.Repeat([]byte("\n"), maxHostKeyFile)...), 0o600); err != nil {
		t.Fatal(err)
	}
	_, _, err = loadHostKey(big)
	if want := "host key: " + big + ": 65 KiB, over the 64 KiB limit of this file: a private key takes a few KB"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("a host key file over the limit: %v\nwant %s…", err, want)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err = loadHostKey(fifo); err == nil || !strings.HasPrefix(err.Error(), "host key: "+fifo+": not a regular file") {
		t.Errorf("a FIFO: %v", err)
	}
}
