package corpus

import (
	"bytes"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/strata-nmt/strata/catalog/mo"
)

// maxFileSize bounds what is read of any one catalogue or help file: the
// largest in Debian are a few MiB.
const maxFileSize = 32 << 20

// Pair is an English string and its translation, with its origin.
type Pair struct {
	En, Tgt string
	// Origin is "package:domain" for a catalogue, "package:help" for help.
	Origin string
}

// docKey names one help document in one package.
type docKey struct{ pkg, file string }

// extractor collects pairs from package files, per language.
type extractor struct {
	langs []string
	// pairs holds catalogue pairs per language, in extraction order.
	pairs map[string][]Pair
	// help holds the text blocks of each help page per language (English
	// included), paired once every package has been read.
	help map[docKey]map[string][]string
	// lohelp holds LibreOffice help paragraphs per language, keyed by
	// page, paragraph id and occurrence; English comes from another
	// package than the translations, hence the global key.
	lohelp map[string]map[string]string
	// helpOrder and loOrder remember first-seen order for determinism.
	helpOrder []docKey
	loOrder   []string
	// Skipped counts files that could not be read, by reason.
	Skipped map[string]int
}

func newExtractor(langs []string) *extractor {
	return &extractor{langs: langs, pairs: map[string][]Pair{}, help: map[docKey]map[string][]string{},
		lohelp: map[string]map[string]string{}, Skipped: map[string]int{}}
}

// file reads one file of package pkg if it is a catalogue or help page of
// a wanted language.
func (x *extractor) file(pkg, name string, size int64, r io.Reader) error {
	switch kind, lang, rest := classify(name, x.langs); kind {
	case kindMO:
		if lang == English {
			return nil
		}
		return x.catalogue(pkg, name, lang, r)
	case kindMallard:
		return x.helpPage(pkg, name, lang, rest, r)
	case kindLOHelp:
		return x.loHelpPage(pkg, name, lang, rest, r)
	}
	return nil
}

func (x *extractor) catalogue(pkg, name, lang string, r io.Reader) error {
	c, err := mo.Read(name, r, maxFileSize)
	if err != nil {
		// A broken catalogue in one package must not stop the build; it
		// is counted and reported.
		x.Skipped["unreadable MO file"]++
		return nil
	}
	origin := pkg + ":" + strings.TrimSuffix(path.Base(name), ".mo")
	add := func(en, tgt string) {
		for i, e := range splitLines(en, tgt) {
			x.pairs[lang] = append(x.pairs[lang], Pair{En: e, Tgt: splitLines(tgt, en)[i], Origin: origin})
		}
	}
	for _, m := range c.Messages {
		if m.Str[0] != "" {
			add(m.ID, m.Str[0])
		}
		if m.Plural != "" && len(m.Str) > 1 && m.Str[1] != "" {
			add(m.Plural, m.Str[1])
		}
	}
	return nil
}

// splitLines cuts a multi-line message into units when its partner has
// as many: the items of a --help text (an option line with its indented
// continuation lines, which translations wrap differently), else lines.
// Otherwise the message stays whole. Blank lines are dropped.
func splitLines(s, partner string) []string {
	a, b := helpItems(s), helpItems(partner)
	if len(a) > 1 && len(a) == len(b) {
		return a
	}
	return []string{s}
}

// helpItems groups lines into items: a line indented by more than
// continuationIndent spaces that does not start an option continues the
// item before it.
func helpItems(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		indent := len(l) - len(strings.TrimLeft(l, " \t"))
		if len(out) > 0 && indent > continuationIndent && !strings.HasPrefix(t, "-") {
			out[len(out)-1] += " " + t
			continue
		}
		out = append(out, l)
	}
	return out
}

// continuationIndent is the indentation beyond which a --help line
// continues the option above it (GNU tools indent options by 2 to 6
// spaces and descriptions by 20 to 30).
const continuationIndent = 8

func (x *extractor) helpPage(pkg, name, lang, rest string, r io.Reader) error {
	b, err := readLimited(r)
	if err != nil {
		return err
	}
	blocks, err := xmlBlocks(bytes.NewReader(b))
	if err != nil {
		x.Skipped["unparsable help page"]++
		return nil
	}
	k := docKey{pkg, rest}
	if x.help[k] == nil {
		x.help[k] = map[string][]string{}
		x.helpOrder = append(x.helpOrder, k)
	}
	x.help[k][lang] = blocks
	return nil
}

func (x *extractor) loHelpPage(pkg, name, lang, rest string, r io.Reader) error {
	b, err := readLimited(r)
	if err != nil {
		return err
	}
	paras, err := htmlParagraphs(bytes.NewReader(b))
	if err != nil {
		x.Skipped["unparsable LibreOffice help page"]++
		return nil
	}
	if x.lohelp[lang] == nil {
		x.lohelp[lang] = map[string]string{}
	}
	m := x.lohelp[lang]
	for _, p := range paras {
		key := rest + "#" + p.ID
		for n := 0; ; n++ { // an id can occur more than once in a page
			k := fmt.Sprintf("%s#%d", key, n)
			if _, dup := m[k]; !dup {
				m[k] = p.Text
				if lang == English {
					x.loOrder = append(x.loOrder, k)
				}
				break
			}
		}
	}
	return nil
}

func readLimited(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxFileSize {
		return nil, fmt.Errorf("larger than %d bytes", maxFileSize)
	}
	return b, nil
}

// helpPairs pairs the help pages read: a page's blocks pair by position
// when the translated page has exactly as many as the English one (itstool
// writes translations into the English structure, so a difference means
// the page is not a translation of this English page and is skipped).
func (x *extractor) helpPairs() map[string][]Pair {
	out := map[string][]Pair{}
	for _, k := range x.helpOrder {
		en := x.help[k][English]
		if en == nil {
			continue
		}
		for _, l := range x.langs {
			tr, ok := x.help[k][l]
			if !ok {
				continue
			}
			if len(tr) != len(en) {
				x.Skipped["help page with another structure"]++
				continue
			}
			for i := range en {
				out[l] = append(out[l], Pair{En: en[i], Tgt: tr[i], Origin: k.pkg + ":help"})
			}
		}
	}
	for _, l := range x.langs {
		for _, k := range x.loOrder {
			if t, ok := x.lohelp[l][k]; ok {
				out[l] = append(out[l], Pair{En: x.lohelp[English][k], Tgt: t, Origin: "libreoffice:help"})
			}
		}
	}
	return out
}
