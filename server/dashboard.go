package server

import (
	"charm.land/ssh"
	"charm.land/wish/v2"

	"github.com/annotate-dev/annotate/roles"
)

// DashboardCommand is the one command served: `ssh -t HOST dashboard`
// opens the lead's dashboard instead of the annotation screens.
const DashboardCommand = "dashboard"

// mayOpenDashboard lets only a lead open the dashboard over SSH, by the
// rule the dashboard command checks (roles.Need): its panels show every
// annotator's work. Anyone else is refused and told why.
func (s *Server) mayOpenDashboard(sess ssh.Session, who string) bool {
	rs, err := s.cfg.Store.Roles()
	if err != nil {
		s.log.Error("could not read the roles", "annotator", who, "error", err.Error())
		wish.Errorln(sess, "annotate: the database is not available right now; try again later.")
		sess.Exit(1)
		return false
	}
	people := make([]roles.Person, len(rs))
	for i, a := range rs {
		people[i] = roles.Person{Name: a.Name, Role: a.Role}
	}
	if err := roles.Need(people, who, "the dashboard"); err != nil {
		wish.Errorln(sess, "annotate: "+err.Error())
		sess.Exit(1)
		return false
	}
	return true
}
