// Package proc says who a process is (host, boot, pid and when it started)
// and whether a process so named still runs. A lease kept in the database
// (a screen's, an import's) names its holder this way, so that a holder
// killed without a word (SIGKILL, a crash, a power cut) is known to be gone
// at once on its own machine, and a pid the kernel gave to another process
// since is not mistaken for it.
package proc

import (
	"fmt"
	"os"
	"strings"
)

// ID names a process.
type ID struct {
	Host string // os.Hostname
	// Boot identifies the machine's boot (Linux: its boot_id), "" when
	// unknown: a pid of an earlier boot is dead whatever runs under it now.
	Boot string
	PID  int
	// Start is when the process started, in the kernel's clock ticks since
	// boot (Linux), 0 when unknown: a live pid that started at another time
	// is another process.
	Start int64
}

// Self is this process.
func Self() ID {
	host, _ := os.Hostname()
	pid := os.Getpid()
	return ID{Host: host, Boot: bootID(), PID: pid, Start: startTime(pid)}
}

// Here reports whether id is a process of this machine (and boot), whose
// liveness Alive can tell.
func (id ID) Here() bool {
	me := Self()
	return id.Host == me.Host && (id.Boot == "" || me.Boot == "" || id.Boot == me.Boot)
}

// Alive reports whether the process id names runs now. It can only tell for
// a process of this machine (Here); for another machine it reports true:
// the caller decides by the holder's heartbeat.
func Alive(id ID) bool {
	if id.PID <= 0 {
		return false
	}
	me := Self()
	if id.Host != me.Host {
		return true
	}
	if id.Boot != "" && me.Boot != "" && id.Boot != me.Boot {
		return false // it ran before this machine last started
	}
	if !exists(id.PID) {
		return false
	}
	if id.Start != 0 {
		if now := startTime(id.PID); now != 0 && now != id.Start {
			return false // the pid was given to another process since
		}
	}
	return true
}

func (id ID) String() string {
	return fmt.Sprintf("host %s, pid %d", id.Host, id.PID)
}

// bootID is Linux's id of the current boot, "" elsewhere.
func bootID() string {
	b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// startTime is when pid started (field 22 of /proc/PID/stat, clock ticks
// since boot), 0 when unknown.
func startTime(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name (field 2) is in parentheses and may hold spaces:
	// the fields are counted after its closing parenthesis.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	// f[0] is field 3 (state): field 22 is f[19].
	if len(f) < 20 {
		return 0
	}
	var t int64
	if _, err := fmt.Sscan(f[19], &t); err != nil {
		return 0
	}
	return t
}

// Terminal names the controlling terminal of this process, as "tty PATH",
// or "" when standard input is not one.
func Terminal() string {
	for _, fd := range []string{"/proc/self/fd/0", "/dev/fd/0"} {
		if t, err := os.Readlink(fd); err == nil && strings.HasPrefix(t, "/dev/") && !strings.HasPrefix(t, "/dev/null") {
			return "tty " + t
		}
	}
	if t := os.Getenv("SSH_TTY"); t != "" {
		return "tty " + t
	}
	return ""
}
