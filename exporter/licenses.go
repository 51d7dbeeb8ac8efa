package exporter

import (
	"fmt"
	"slices"
	"strings"

	"github.com/annotate-dev/annotate/internal/suggest"
)

// hubLicenses are the license identifiers the Hugging Face Hub accepts in a
// card's "license:" field, in the order of its documentation: the table of
// huggingface/hub-docs, docs/hub/repositories-licenses.md, as of commit
// fd6cf1f56e1514af08c5a7262d9f79b3becb810d (2026-06-06). A card with another
// value is not recognised by the Hub. "other" asks for license_name and
// license_link in the card, which the export does not write: add them by hand.
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

// squeeze drops the separators of a license id: "cc-by-4.0" → "ccby40".
func squeeze(id string) string {
	return strings.NewReplacer("-", "", ".", "", "_", "", " ", "").Replace(id)
}

// Licenses are the license identifiers --license accepts (the Hub's).
func Licenses() []string { return slices.Clone(hubLicenses) }
