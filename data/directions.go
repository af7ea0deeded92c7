package data

import (
	"fmt"
	"slices"
	"strings"
)

// Directions are the translation directions a model was trained on. The
// languages it reads are their sources and the languages it writes their
// targets: a direction from a training source to a training target that
// never occurred in training is a multilingual model's zero-shot
// direction, which it may translate; any other is one it cannot (the
// en→de model echoes de→en input). The zero value is unknown: it allows
// every direction, as models recorded before directions were did.
type Directions struct {
	seen [][2]string
}

// TrainDirections are the directions of a manifest's split (usually
// "train"): unknown when the manifest has no such split.
func (m *Manifest) TrainDirections(split string) Directions {
	var d Directions
	for _, p := range m.Splits[split] {
		d.add(p.SrcLang, p.TgtLang)
	}
	return d
}

// ParseDirections reads directions written as SRC-TGT (e.g. "en-de",
// "de-en"), as run.json records them and --trained-directions takes them.
func ParseDirections(specs []string) (Directions, error) {
	var d Directions
	for _, s := range specs {
		src, tgt, ok := strings.Cut(strings.TrimSpace(s), "-")
		if !ok || src == "" || tgt == "" || strings.Contains(tgt, "-") {
			return Directions{}, fmt.Errorf("trained direction %q: want SRC-TGT, e.g. en-de", s)
		}
		d.add(src, tgt)
	}
	return d, nil
}

func (d *Directions) add(src, tgt string) {
	if src == "" || tgt == "" || slices.Contains(d.seen, [2]string{src, tgt}) {
		return
	}
	d.seen = append(d.seen, [2]string{src, tgt})
	slices.SortFunc(d.seen, func(a, b [2]string) int { return strings.Compare(a[0]+"-"+a[1], b[0]+"-"+b[1]) })
}

// Known says whether the directions were recorded.
func (d Directions) Known() bool { return len(d.seen) > 0 }

// Strings lists the directions as SRC-TGT, sorted.
func (d Directions) Strings() []string {
	out := make([]string, len(d.seen))
	for i, p := range d.seen {
		out[i] = p[0] + "-" + p[1]
	}
	return out
}

// Sources are the languages the model was trained to read, sorted.
func (d Directions) Sources() []string { return d.side(0) }

// Targets are the languages the model was trained to write, sorted.
func (d Directions) Targets() []string { return d.side(1) }

func (d Directions) side(i int) []string {
	var out []string
	for _, p := range d.seen {
		if !slices.Contains(out, p[i]) {
			out = append(out, p[i])
		}
	}
	slices.Sort(out)
	return out
}

// Seen says whether src→tgt occurred in training (a supervised direction).
func (d Directions) Seen(src, tgt string) bool {
	return slices.Contains(d.seen, [2]string{src, tgt})
}

// Allows says whether the model may translate src→tgt: seen in training,
// or zero-shot. An empty language is not checked (a model without
// language tags is told none), nor is anything when the directions are
// unknown.
func (d Directions) Allows(src, tgt string) bool { return d.Check(src, tgt) == nil }

// Check is Allows with the reason for a refusal, naming the model's
// directions.
func (d Directions) Check(src, tgt string) error {
	if !d.Known() {
		return nil
	}
	if src != "" && !slices.Contains(d.Sources(), src) {
		return fmt.Errorf("direction %s: the model was not trained to read %s (trained directions %s; it translates from %s into %s)",
			arrow(src, tgt), src, d, strings.Join(d.Sources(), ", "), strings.Join(d.Targets(), ", "))
	}
	if tgt != "" && !slices.Contains(d.Targets(), tgt) {
		return fmt.Errorf("direction %s: the model was not trained to write %s (trained directions %s; it translates from %s into %s)",
			arrow(src, tgt), tgt, d, strings.Join(d.Sources(), ", "), strings.Join(d.Targets(), ", "))
	}
	return nil
}

func arrow(src, tgt string) string {
	if src == "" {
		src = "?"
	}
	if tgt == "" {
		tgt = "?"
	}
	return src + "→" + tgt
}

// String joins the directions as "en→de, en→fr".
func (d Directions) String() string {
	parts := make([]string, len(d.seen))
	for i, p := range d.seen {
		parts[i] = p[0] + "→" + p[1]
	}
	return strings.Join(parts, ", ")
}
