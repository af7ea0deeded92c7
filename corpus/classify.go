package corpus

import "strings"

type fileKind int

const (
	kindOther   fileKind = iota
	kindMO               // .../<locale>/LC_MESSAGES/<domain>.mo, or .../languages/[<domain>-]<locale>.mo
	kindMallard          // usr/share/help/<locale>/<doc>/<page>.page (or DocBook .xml)
	kindLOHelp           // .../libreoffice/help/<locale>/text/....html
)

// classify says what a package file is, its language (English for the
// untranslated help) and the path that pairs it with its other languages.
func classify(name string, langs []string) (kind fileKind, lang, rest string) {
	parts := strings.Split(name, "/")
	n := len(parts)
	switch {
	case n >= 3 && parts[n-2] == "LC_MESSAGES" && strings.HasSuffix(name, ".mo"):
		lang = localeLang(parts[n-3], langs)
		if lang != "" && lang != English {
			return kindMO, lang, parts[n-1]
		}
	case n >= 2 && parts[n-2] == "languages" && strings.HasSuffix(name, ".mo"):
		// WordPress: languages/de_DE.mo, languages/admin-de_DE.mo
		base := strings.TrimSuffix(parts[n-1], ".mo")
		loc := base[strings.LastIndex(base, "-")+1:]
		if lang = localeLang(loc, langs); lang != "" && lang != English {
			return kindMO, lang, parts[n-1]
		}
	case n >= 6 && strings.HasPrefix(name, "usr/share/help/") &&
		(strings.HasSuffix(name, ".page") || strings.HasSuffix(name, ".xml")):
		if lang = localeLang(parts[3], langs); lang != "" {
			return kindMallard, lang, strings.Join(parts[4:], "/")
		}
	case strings.HasSuffix(name, ".html"):
		for i := 0; i+2 < n; i++ {
			if parts[i] == "libreoffice" && parts[i+1] == "help" && i+3 < n && parts[i+3] == "text" {
				if lang = localeLang(parts[i+2], langs); lang != "" {
					return kindLOHelp, lang, strings.Join(parts[i+3:], "/")
				}
			}
		}
	}
	return kindOther, "", ""
}
