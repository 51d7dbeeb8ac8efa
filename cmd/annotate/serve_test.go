package main

import (
	"strings"
	"testing"
)

func TestServeRefusesBadLimits(t *testing.T) {
	for _, c := range []struct{ flag, value, want string }{
		{"--max-connections", "0", "--max-connections 0: must be at least 1"},
		{"--max-unauthenticated", "-2", "--max-unauthenticated -2: must be at least 1"},
		{"--keepalive", "100ms", "--keepalive 100ms: must be at least 1s"},
		{"--write-timeout", "0s", "--write-timeout 0s: must be at least 1s"},
	} {
		_, _, err := cli(t, "serve", "--authorized-keys", "keys", c.flag, c.value)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("serve %s %s: %v; want %q", c.flag, c.value, err, c.want)
		}
	}
}
