package lang

// Choice is what may name a language, most specific first; Choose takes
// the first that names one.
type Choice struct {
	Flag   string // --lang
	Stored string // the annotator's preference (annotator set NAME --lang)
	Config string // the config file's lang
	// Env looks up the environment's locale variables (os.Getenv; over
	// serve, the client's environment). nil: none.
	Env func(string) string
}

// Choose returns the language to speak: the flag, else the annotator's
// stored preference, else the config file's lang, else the environment's
// locale, else English. The values are taken as Parse reads them; one it
// cannot read is passed over (the flag and the config file are checked
// where they are read, with an error of their own).
func Choose(c Choice) string {
	for _, v := range []string{c.Flag, c.Stored, c.Config} {
		if l, err := Parse(v); err == nil {
			return l
		}
	}
	if c.Env != nil {
		if l := FromEnv(c.Env); l != "" {
			return l
		}
	}
	return English
}

// FromEnv is the language of the messages as POSIX sets it: the first of
// LC_ALL, LC_MESSAGES and LANG that is set decides (LC_ALL=C is English
// whatever LANG says); "" when none is set or it names a language annotate
// does not speak.
func FromEnv(getenv func(string) string) string {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(k); v != "" {
			return FromLocale(v)
		}
	}
	return ""
}

// EnvOf is a lookup in an environment given as KEY=VALUE lines (an SSH
// client's, Session.Environ).
func EnvOf(env []string) func(string) string {
	return func(k string) string {
		v := ""
		for _, kv := range env {
			if len(kv) > len(k) && kv[:len(k)] == k && kv[len(k)] == '=' {
				v = kv[len(k)+1:] // the last one sent wins, as in a shell
			}
		}
		return v
	}
}
