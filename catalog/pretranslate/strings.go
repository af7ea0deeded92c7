package pretranslate

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/strata-nmt/strata/catalog/placeholder"
)

// Translator translates lines from language src into tgt, one output line
// per input line.
type Translator interface {
	Translate(ctx context.Context, src, tgt string, lines []string) ([]string, error)
}

// Options configure a pre-translation.
type Options struct {
	Src, Tgt string
	// Fuzzy also retranslates entries marked fuzzy (they stay fuzzy).
	Fuzzy bool
	// Placeholders says what is masked; its Accelerator is overridden by a
	// catalogue that declares its marker (X-Accelerator-Marker).
	Placeholders placeholder.Options
}

// Outcome is the translation of one string, or why there is none.
type Outcome struct {
	Text string
	Err  error
}

// line is one line of a string to translate: its blanks around, and the
// masked text between them.
type line struct {
	lead, trail string
	core        string
	masked      placeholder.Masked
	needsModel  bool // holds a letter: otherwise copied as is
}

// splitLines cuts s after each \n and separates each line's outer blanks.
func splitLines(s string, o placeholder.Options) []line {
	var out []line
	for _, piece := range strings.SplitAfter(s, "\n") {
		core := strings.TrimLeftFunc(piece, unicode.IsSpace)
		lead := piece[:len(piece)-len(core)]
		trimmed := strings.TrimRightFunc(core, unicode.IsSpace)
		l := line{lead: lead, trail: core[len(trimmed):], core: trimmed}
		if trimmed != "" {
			l.masked = placeholder.Mask(trimmed, o)
			l.needsModel = strings.IndexFunc(unmaskedText(l.masked.Text), unicode.IsLetter) >= 0
		}
		out = append(out, l)
	}
	return out
}

// unmaskedText drops sentinels, so that "{1}: {2}" counts as holding no
// letter.
func unmaskedText(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '{' {
			if j := strings.IndexByte(s[i:], '}'); j > 0 && isDigits(s[i+1:i+j]) {
				i += j
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// Strings translates texts, each of which may span lines. Identical lines
// are translated once. An error is returned only when the translator
// fails; a string that cannot be translated safely has its Outcome.Err set.
func Strings(ctx context.Context, tr Translator, texts []string, o Options) ([]Outcome, error) {
	split := make([][]line, len(texts))
	index := map[string]int{}
	var batch []string
	for i, t := range texts {
		split[i] = splitLines(t, o.Placeholders)
		for _, l := range split[i] {
			if _, ok := index[l.masked.Text]; l.needsModel && !ok {
				index[l.masked.Text] = len(batch)
				batch = append(batch, l.masked.Text)
			}
		}
	}
	var outs []string
	if len(batch) > 0 {
		var err error
		if outs, err = tr.Translate(ctx, o.Src, o.Tgt, batch); err != nil {
			return nil, err
		}
		if len(outs) != len(batch) {
			return nil, fmt.Errorf("translator returned %d lines for %d", len(outs), len(batch))
		}
	}
	res := make([]Outcome, len(texts))
	for i, ls := range split {
		res[i] = assemble(texts[i], ls, func(l line) string { return outs[index[l.masked.Text]] }, o.Placeholders)
	}
	return res, nil
}

// Masked translates strings masked already (a format's parsed markup, see
// placeholder.Builder), each as one line.
func Masked(ctx context.Context, tr Translator, ms []placeholder.Masked, o Options) ([]Outcome, error) {
	texts := make([]string, len(ms))
	for i, m := range ms {
		texts[i] = m.Text
	}
	outs, err := unique(ctx, tr, texts, o)
	if err != nil {
		return nil, err
	}
	res := make([]Outcome, len(ms))
	for i, m := range ms {
		t, err := m.Unmask(strings.TrimSpace(outs[i]))
		if err == nil && strings.TrimSpace(t) == "" {
			err = fmt.Errorf("empty translation")
		}
		res[i] = Outcome{Text: t, Err: err}
	}
	return res, nil
}

// unique translates texts, each distinct one once, and returns the
// model's output for each.
func unique(ctx context.Context, tr Translator, texts []string, o Options) ([]string, error) {
	index := map[string]int{}
	var batch []string
	for _, t := range texts {
		if _, ok := index[t]; !ok {
			index[t] = len(batch)
			batch = append(batch, t)
		}
	}
	if len(batch) == 0 {
		return make([]string, len(texts)), nil
	}
	outs, err := tr.Translate(ctx, o.Src, o.Tgt, batch)
	if err != nil {
		return nil, err
	}
	if len(outs) != len(batch) {
		return nil, fmt.Errorf("translator returned %d lines for %d", len(outs), len(batch))
	}
	res := make([]string, len(texts))
	for i, t := range texts {
		res[i] = outs[index[t]]
	}
	return res, nil
}

// assemble restores each line of one string and joins them.
func assemble(src string, ls []line, out func(line) string, o placeholder.Options) Outcome {
	var b strings.Builder
	for k, l := range ls {
		b.WriteString(l.lead)
		if l.needsModel {
			t, err := l.masked.Unmask(strings.TrimSpace(out(l)))
			if err != nil {
				return Outcome{Err: lineError(ls, k, err)}
			}
			if strings.TrimSpace(t) == "" {
				return Outcome{Err: lineError(ls, k, fmt.Errorf("empty translation"))}
			}
			b.WriteString(t)
		} else {
			b.WriteString(l.core)
		}
		b.WriteString(l.trail)
	}
	t := b.String()
	// defence in depth: the restored string holds the source's
	// placeholders, as a person's translation is checked
	if err := placeholder.Check(src, t, o); err != nil {
		return Outcome{Err: err}
	}
	return Outcome{Text: t}
}

// lineError names the line of a multi-line string.
func lineError(ls []line, k int, err error) error {
	n := 0
	for _, l := range ls {
		if l.core != "" {
			n++
		}
	}
	if n > 1 {
		return fmt.Errorf("line %d: %w", k+1, err)
	}
	return err
}
