package server

import (
	"charm.land/ssh"
	"charm.land/wish/v2"

	"github.com/annotate-dev/annotate/report"
)

// DashboardCommand is the one command served: `ssh -t HOST dashboard`
// opens the lead's dashboard instead of the annotation screens.
const DashboardCommand = "dashboard"

// mayOpenDashboard lets only a lead open the dashboard over SSH: its panels
// show every annotator's work, so a key must belong to an annotator with
// the role lead (annotate annotator set NAME --role lead), whether or not
// other roles are set. Anyone else is refused and told why.
func (s *Server) mayOpenDashboard(sess ssh.Session, who string) bool {
	roles, err := s.cfg.Store.Roles()
	if err != nil {
		s.log.Error("could not read the roles", "annotator", who, "error", err.Error())
		wish.Errorln(sess, "annotate: the database is not available right now; try again later.")
		sess.Exit(1)
		return false
	}
	for _, a := range roles {
		if a.Name == who && a.Role == report.RoleLead {
			return true
		}
	}
	wish.Errorln(sess, "annotate: the dashboard is the lead's: "+who+" does not have the role lead (annotate annotator set "+who+" --role lead)")
	sess.Exit(1)
	return false
}
