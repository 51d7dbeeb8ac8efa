package server

import (
	"charm.land/ssh"

	"github.com/annotate-dev/annotate/internal/lang"
)

// language is what a session speaks to its annotator: their stored
// preference (annotate annotator set NAME --lang fr), else the locale the
// client sends (ssh passes LANG and LC_* when its SendEnv says so), else
// English. who "" : the annotator is not known yet (the client's locale
// alone).
func (s *Server) language(sess ssh.Session, who string) *lang.Printer {
	var stored string
	if who != "" {
		stored, _ = s.cfg.Store.AnnotatorLang(who) // unreadable: as if none
	}
	return lang.New(lang.Choose(lang.Choice{Stored: stored, Env: lang.EnvOf(sess.Environ())}))
}
