package analysis

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/strata-nmt/strata/internal/textio"
)

// FloresCodes maps the FLORES-200 file codes of the languages the study
// uses to the toolkit's language codes (ISO 639-1, as the tags). It is the
// one place this mapping lives; a FLORES file whose code is missing here is
// an error rather than a guess.
var FloresCodes = map[string]string{
	"eng_Latn": "en",
	"deu_Latn": "de",
	"fra_Latn": "fr",
	"ita_Latn": "it",
	"nld_Latn": "nl",
	"ron_Latn": "ro",
	"rus_Cyrl": "ru",
	"zho_Hans": "zh",
	"arb_Arab": "ar", // Modern Standard Arabic
	"spa_Latn": "es",
}

// ISO3Codes maps the ISO 639-3 codes that pairwise test sets name their
// files with (Tatoeba's test.ita, test.nld) to the toolkit's codes. As with
// FloresCodes the mapping is explicit: a three-letter extension found here
// is mapped, any other is kept as it is (it then matches no model language
// and is ignored unless requested, when the error lists what was found).
var ISO3Codes = map[string]string{
	"eng": "en", "deu": "de", "fra": "fr", "ita": "it", "nld": "nl",
	"ron": "ro", "rus": "ru", "zho": "zh", "ara": "ar", "spa": "es",
}

// LidLabels maps a language code to the label fastText's lid.176 gives it
// (without "__label__"). lid.176 uses ISO 639-1 where one exists, so for the
// study's languages the label is the code itself; the table is explicit so
// that a reader can check it, and so that a language whose lid.176 label
// differs can be added in one place. Codes missing here are looked up as
// themselves.
var LidLabels = map[string]string{
	"en": "en", "de": "de", "fr": "fr", "it": "it", "nl": "nl",
	"ro": "ro", "ru": "ru", "zh": "zh", "ar": "ar", "es": "es",
}

// lidLabel returns the lid.176 label of a language code.
func lidLabel(code string) string {
	if l, ok := LidLabels[code]; ok {
		return l
	}
	return code
}

// TestSet is an n-way parallel test set: Lines[lang][i] are translations
// of each other for every language.
type TestSet struct {
	Dir string
	// Name is the set's subdirectory within a TestSuite ("" when the set
	// is the whole suite).
	Name  string
	Files map[string]string   // language → file
	Lines map[string][]string // language → lines
}

// Languages returns the set's languages, sorted.
func (t *TestSet) Languages() []string {
	var out []string
	for l := range t.Lines {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// Len is the number of lines per language.
func (t *TestSet) Len() int {
	for _, ls := range t.Lines {
		return len(ls)
	}
	return 0
}

var (
	floresName = regexp.MustCompile(`^([a-z]{3}_[A-Z][a-z]{3})\.(devtest|dev)$`)
	plainName  = regexp.MustCompile(`^[^.]+\.([a-z]{2,3})$`)
)

// fileLanguage says which language a file of an n-way directory holds:
// FLORES files (eng_Latn.devtest) through FloresCodes, others by their
// extension (test.de, or test.ita through ISO3Codes). ok is false for files
// that are neither.
func fileLanguage(name string) (lang string, ok bool, err error) {
	if m := floresName.FindStringSubmatch(name); m != nil {
		code, known := FloresCodes[m[1]]
		if !known {
			return "", false, fmt.Errorf("%s: FLORES code %s has no entry in analysis.FloresCodes", name, m[1])
		}
		return code, true, nil
	}
	if m := plainName.FindStringSubmatch(name); m != nil {
		if code, known := ISO3Codes[m[1]]; known {
			return code, true, nil
		}
		return m[1], true, nil
	}
	return "", false, nil
}

// ScanTestSet lists the n-way files of dir by language.
func ScanTestSet(dir string) (map[string]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	found := map[string]string{}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		lang, ok, err := fileLanguage(e.Name())
		if err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
		if !ok {
			continue
		}
		if prev, dup := found[lang]; dup {
			return nil, fmt.Errorf("%s: two files for language %s (%s and %s)", dir, lang, filepath.Base(prev), e.Name())
		}
		found[lang] = filepath.Join(dir, e.Name())
	}
	return found, nil
}

// ReadTestSet reads the n-way files of dir for the given languages, keeping
// the first maxLines lines (0: all). Every file must have the same number of
// lines.
func ReadTestSet(dir string, langs []string, maxLines int) (*TestSet, error) {
	if len(langs) == 0 {
		return nil, fmt.Errorf("%s: no languages requested", dir)
	}
	found, err := ScanTestSet(dir)
	if err != nil {
		return nil, err
	}
	ts := &TestSet{Dir: dir, Files: map[string]string{}, Lines: map[string][]string{}}
	for _, l := range langs {
		path, ok := found[l]
		if !ok {
			return nil, fmt.Errorf("%s has no file for language %s (found: %s)", dir, l, strings.Join(sortedKeys(found), " "))
		}
		lines, err := textio.ReadLines(path)
		if err != nil {
			return nil, err
		}
		if maxLines > 0 && len(lines) > maxLines {
			lines = lines[:maxLines]
		}
		ts.Files[l], ts.Lines[l] = path, lines
	}
	return ts, ts.checkAligned()
}

func (t *TestSet) checkAligned() error {
	langs := t.Languages()
	if len(langs) == 0 {
		return fmt.Errorf("%s: no test files (want test.LANG or FLORES xxx_Yyyy.devtest)", t.Dir)
	}
	n := len(t.Lines[langs[0]])
	for _, l := range langs[1:] {
		if len(t.Lines[l]) != n {
			return fmt.Errorf("%s has %d lines but %s has %d: an n-way test set needs the same number of lines in every language",
				t.Files[l], len(t.Lines[l]), t.Files[langs[0]], n)
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
