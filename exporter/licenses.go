package exporter

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/internal/suggest"
)

// hubLicenses are the license identifiers the Hugging Face Hub accepts in a
// card's "license:" field, in the order of its documentation: the table of
// huggingface/hub-docs, docs/hub/repositories-licenses.md, as of commit
// fd6cf1f56e1514af08c5a7262d9f79b3becb810d (2026-06-06). A card with another
// value is not recognised by the Hub. "other" asks for license_name and
// license_link beside it (huggingface/hub-docs, datasetcard.md), which
// --license-name and --license-link give.
var hubLicenses = []string{
	"apache-2.0", "mit", "openrail", "bigscience-openrail-m", "creativeml-openrail-m",
	"bigscience-bloom-rail-1.0", "bigcode-openrail-m", "afl-3.0", "artistic-2.0", "bsl-1.0", "bsd",
	"bsd-2-clause", "bsd-3-clause", "bsd-3-clause-clear", "c-uda", "cc", "cc0-1.0", "cc-by-2.0",
	"cc-by-2.5", "cc-by-3.0", "cc-by-4.0", "cc-by-sa-3.0", "cc-by-sa-4.0", "cc-by-nc-2.0",
	"cc-by-nc-3.0", "cc-by-nc-4.0", "cc-by-nd-4.0", "cc-by-nc-nd-3.0", "cc-by-nc-nd-4.0",
	"cc-by-nc-sa-2.0", "cc-by-nc-sa-3.0", "cc-by-nc-sa-4.0", "cdla-sharing-1.0",
	"cdla-permissive-1.0", "cdla-permissive-2.0", "wtfpl", "ecl-2.0", "epl-1.0", "epl-2.0",
	"etalab-2.0", "eupl-1.1", "eupl-1.2", "agpl-3.0", "gfdl", "gpl", "gpl-2.0", "gpl-3.0", "lgpl",
	"lgpl-2.1", "lgpl-3.0", "isc", "h-research", "intel-research", "lppl-1.3c", "ms-pl", "apple-ascl",
	"apple-amlr", "mpl-2.0", "odc-by", "odbl", "openmdw-1.0", "openmdw-1.1", "openrail++", "osl-3.0",
	"postgresql", "ofl-1.1", "ncsa", "unlicense", "zlib", "pddl", "lgpl-lr", "deepfloyd-if-license",
	"fair-noncommercial-research-license", "llama2", "llama3", "llama3.1", "llama3.2", "llama3.3",
	"llama4", "grok2-community", "gemma", "unknown", "other",
}

// checkLicense refuses a --license the Hub does not know, naming the closest
// identifiers.
func checkLicense(id string) error {
	if slices.Contains(hubLicenses, id) {
		return nil
	}
	// Compare as the user probably meant it: case and separators aside
	// ("CC BY-SA 4.0", "Apache_2.0").
	norm := strings.NewReplacer(" ", "-", "_", "-").Replace(strings.ToLower(strings.TrimSpace(id)))
	var near []string
	if slices.Contains(hubLicenses, norm) {
		near = []string{norm}
	} else {
		// Compare without separators, which is how ids are mistyped
		// ("apache2", "gpl3"); short names tolerate one edit only, or
		// "foo" would suggest "mit".
		bySqueezed := map[string]string{}
		var squeezed []string
		for _, l := range hubLicenses {
			bySqueezed[squeeze(l)] = l
			squeezed = append(squeezed, squeeze(l))
		}
		typed := squeeze(norm)
		edits := 1
		if len([]rune(typed)) >= 4 {
			edits = 2
		}
		for _, n := range suggest.Nearest(typed, squeezed, edits, 5) {
			near = append(near, bySqueezed[n])
		}
	}
	msg := fmt.Sprintf("--license %q is not a license identifier of the Hugging Face Hub", id)
	if len(near) > 0 {
		return fmt.Errorf("%s; did you mean %s? (the Hub's list: https://huggingface.co/docs/hub/repositories-licenses; \"other\" for any other)", msg, strings.Join(near, ", "))
	}
	return fmt.Errorf("%s (the Hub's list: https://huggingface.co/docs/hub/repositories-licenses; \"other\" for any other)", msg)
}

// licenseID is what the Hub asks of license_name: an id such as
// my-license-1.0.
var licenseID = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// checkLicenseOther checks --license, and with "other" the license's name
// and link the card then needs: the Hub shows a license "other" by its
// license_name and links to its license_link, a URL or a file of the
// dataset's repository ("LICENSE", "LICENSE.md").
func checkLicenseOther(o Options) error {
	if err := checkLicense(o.License); err != nil {
		return err
	}
	if o.License != "other" {
		if o.LicenseName != "" || o.LicenseLink != "" {
			return fmt.Errorf("--license-name and --license-link describe a license that is not on the Hub's list: give them with --license other (--license is %q)", o.License)
		}
		return nil
	}
	switch {
	case o.LicenseName == "" || o.LicenseLink == "":
		return errors.New("--license other needs --license-name ID (e.g. my-license-1.0) and --license-link (a URL, or LICENSE for a file you add to the folder): the Hub shows that license by them")
	case !licenseID.MatchString(o.LicenseName):
		return fmt.Errorf("--license-name %q: an id of letters, digits, dots, hyphens and underscores, e.g. my-license-1.0", o.LicenseName)
	}
	if err := checkCardText("--license-link", o.LicenseLink); err != nil {
		return err
	}
	link := o.LicenseLink
	if strings.HasPrefix(link, "http://") || strings.HasPrefix(link, "https://") {
		if u, err := url.Parse(link); err != nil || u.Host == "" || strings.ContainsAny(link, " \t") {
			return fmt.Errorf("--license-link %q: not a URL", link)
		}
		return nil
	}
	if strings.Contains(link, "://") || strings.HasPrefix(link, "/") || strings.ContainsAny(link, " \\") || slices.Contains(strings.Split(link, "/"), "..") {
		return fmt.Errorf("--license-link %q: a URL (https://…) or the path of a file inside the dataset's folder, such as LICENSE or LICENSE.md", link)
	}
	return nil
}

// squeeze drops the separators of a license id: "cc-by-4.0" → "ccby40".
func squeeze(id string) string {
	return strings.NewReplacer("-", "", ".", "", "_", "", " ", "").Replace(id)
}

// Licenses are the license identifiers --license accepts (the Hub's).
func Licenses() []string { return slices.Clone(hubLicenses) }
