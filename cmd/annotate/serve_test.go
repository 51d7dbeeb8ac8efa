package main

import (
	"strings"
	"testing"
)

func TestServeRefusesBadLimits(t *testing.T) {
	for _, c := range []struct{ flag, value, want string }{
		{"--max-connections", "0", "--max-connections: want at least 1, got 0"},
		{"--max-unauthenticated", "-2", "--max-unauthenticated: want at least 1, got -2"},
		{"--keepalive", "100ms", "--keepalive: want at least 1s, got 100ms"},
		{"--write-timeout", "0s", "--write-timeout: want at least 1s, got 0s"},
	} {
		_, _, err := cli(t, "serve", "--authorized-keys", "keys", c.flag, c.value)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("serve %s %s: %v; want %q", c.flag, c.value, err, c.want)
		}
	}
}
