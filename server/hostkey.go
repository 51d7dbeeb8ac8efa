package server

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/annotate-dev/annotate/internal/smallfile"
	gossh "golang.org/x/crypto/ssh"
)

// maxHostKeyFile bounds the host key file: an ed25519 private key takes
// 400 bytes, the longest RSA one a few KB.
const maxHostKeyFile = 64 << 10

// loadHostKey reads the server's private key, creating an ed25519 key with
// mode 0600 on first run. Annotators' known_hosts pin this key, so it must
// survive restarts.
//
// wish.WithHostKeyPath would create the key too, but its key generator also
// chmods the key's directory to 0700, which here is the lead's project folder
// next to the database; so the key is written here instead.
func loadHostKey(path string) (signer gossh.Signer, created bool, err error) {
	data, err := smallfile.Read(path, maxHostKeyFile)
	if errors.Is(err, fs.ErrNotExist) {
		data, err = createHostKey(path)
		created = true
	}
	var tooBig *smallfile.TooBig
	if errors.As(err, &tooBig) {
		return nil, false, fmt.Errorf("host key: %w: a private key takes a few KB (is this the key?)", err)
	}
	if err != nil {
		return nil, false, fmt.Errorf("host key: %w", err)
	}
	signer, err = gossh.ParsePrivateKey(data)
	if err != nil {
		return nil, false, fmt.Errorf("host key %s: %w", path, err)
	}
	return signer, created, nil
}

func createHostKey(path string) ([]byte, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	block, err := gossh.MarshalPrivateKey(priv, "annotate serve host key")
	if err != nil {
		return nil, err
	}
	data := pem.EncodeToMemory(block)
	// O_EXCL: never overwrite a key that appeared meanwhile (a second server).
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return nil, err
	}
	// The umask can only remove bits, but check: a private key readable by
	// others must not be left behind.
	if fi, err := os.Stat(path); err == nil && fi.Mode().Perm() != 0o600 {
		if err := os.Chmod(path, 0o600); err != nil {
			return nil, err
		}
	}
	return data, nil
}

// looseMode reports whether group or others can read the key file.
func looseMode(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().Perm()&0o077 != 0
}
