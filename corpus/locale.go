package corpus

import "strings"

// English marks the English side of help files in the locale tables.
const English = "en"

// localeLang maps a locale directory name to one of langs, English for the
// untranslated help roots (GNOME's "C", LibreOffice's "en-US"), or "".
// Variants (sr@latin, ca@valencia) and regional forms other than the
// language's own country (pt_BR, de_CH, en_GB) are left out, so each
// language has one spelling convention; Chinese is Simplified (zh_CN).
func localeLang(loc string, langs []string) string {
	norm := strings.ToLower(strings.ReplaceAll(loc, "-", "_"))
	if norm == "c" || norm == "en_us" {
		return English
	}
	if strings.Contains(norm, "@") {
		return ""
	}
	for _, l := range langs {
		switch {
		case l == "zh":
			if norm == "zh_cn" || norm == "zh_hans" {
				return l
			}
		case norm == l, norm == l+"_"+l:
			return l
		}
	}
	return ""
}
