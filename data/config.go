package data

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/strata-nmt/strata/internal/textio"
	"gopkg.in/yaml.v3"
)

// Config describes a prepare run; it is read from YAML (see configs/ and
// docs/data.md). Relative paths are relative to Root, and a relative Root is
// relative to the config file's directory.
type Config struct {
	// Root is the directory corpus paths are relative to.
	Root string `yaml:"root"`
	// Languages lists every language, in tag order. Each gets a tag whether
	// or not it occurs. Empty: the corpora's languages, sorted.
	Languages []string `yaml:"languages"`
	// Tags is the tag scheme: none, T-ENC or S-ENC-T-DEC.
	Tags string `yaml:"tags"`
	// TagStyle spells tags: "<2xx>" (default) or "__xx__".
	TagStyle string `yaml:"tag_style"`
	// TagInLoss makes the S-ENC-T-DEC target tag a prediction target.
	TagInLoss bool `yaml:"tag_in_loss"`
	// DecoderStart is the first decoder input: "</s>" (default, as
	// fairseq) or "<s>".
	DecoderStart string `yaml:"decoder_start"`
	// BPE configures subword learning.
	BPE BPEConfig `yaml:"bpe"`
	// MaxLen drops pairs with a side over this many subword pieces (tags and
	// </s> not counted) from splits that filter; 0 means no limit.
	MaxLen int `yaml:"max_len"`
	// Splits maps a split name (train, valid, test, ...) to its corpora.
	// "train" is required; the subword model is learned on it.
	Splits map[string][]CorpusSpec `yaml:"splits"`

	dir string // directory of the config file
}

// BPEConfig configures subword learning. Set one of Merges and VocabSize.
type BPEConfig struct {
	// Merges is the number of merges to learn.
	Merges int `yaml:"merges"`
	// VocabSize is the size of the whole vocabulary: special tokens, tags,
	// 256 byte pieces, alphabet and merges.
	VocabSize int `yaml:"vocab_size"`
	// CharacterCoverage is the share of character occurrences the alphabet
	// covers; the rest falls back to bytes. Default 1.0.
	CharacterCoverage float64 `yaml:"character_coverage"`
	// MaxPieceRunes bounds piece length (default 16).
	MaxPieceRunes int `yaml:"max_piece_runes"`
	// MinFrequency stops learning at rarer pairs (default 2).
	MinFrequency int64 `yaml:"min_frequency"`
	// Model reuses an existing model (a bpe.json) instead of learning.
	Model string `yaml:"model"`
}

// CorpusSpec is one parallel corpus: a TSV file (Path) or two aligned files
// (Src and Tgt), plain or gzip, whose columns are in the languages of Pair;
// or a translation memory or catalogue (Path with Format tmx, xliff, po or mo).
type CorpusSpec struct {
	// Pair is "src-tgt", the languages of the first and second column.
	Pair string `yaml:"pair"`
	// Path is a TSV file: source TAB target, one pair a line; or a
	// catalogue in the format Format names.
	Path string `yaml:"path"`
	// Src and Tgt are two aligned plain-text files.
	Src string `yaml:"src"`
	Tgt string `yaml:"tgt"`
	// Format of Path: tsv (default), tmx, xliff, po (docs/l10n.md) or mo
	// (a gettext binary catalogue; a path ending in .mo needs no format
	// key). Empty after Resolve for TSV; the new keys are omitted from the
	// manifest key when unset, so that data directories prepared before
	// them stay current.
	Format string `yaml:"format" json:",omitempty"`
	// Inline says what TMX and XLIFF inline codes become: strip (default)
	// drops them, keep puts their native code text (<b>) in place.
	Inline string `yaml:"inline" json:",omitempty"`
	// States keeps only XLIFF units whose state is listed ("" for none);
	// empty: every unit with a target.
	States []string `yaml:"states" json:",omitempty"`
	// Fuzzy keeps PO entries marked fuzzy (default: skipped).
	Fuzzy bool `yaml:"fuzzy" json:",omitempty"`
	// Directions: forward (default) trains Pair's direction, backward the
	// reverse, both the two (as the zero-shot studies train).
	Directions string `yaml:"directions"`
	// Filter drops empty and over-long pairs; default true in train, false
	// elsewhere (so dev and test keep every line).
	Filter *bool `yaml:"filter"`
	// Each repeats this entry once per value, with {x} in Pair, Path, Src
	// and Tgt replaced by the value: one line for a whole English-centric
	// corpus.
	Each []string `yaml:"each"`
}

// LoadConfig reads a YAML config; unknown keys are errors.
func LoadConfig(path string) (*Config, error) {
	text, err := textio.ReadAll(path) // "-": standard input, paths relative to the working directory
	if err != nil {
		return nil, err
	}
	raw := []byte(text)
	var c Config
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	if err := dec.Decode(&c); errors.Is(err, io.EOF) {
		// yaml says only "EOF" for a file with no document in it
		return nil, fmt.Errorf("%s: no YAML document in it: want a mapping with languages, bpe and splits (docs/data.md)", textio.Name(path))
	} else if err != nil {
		return nil, fmt.Errorf("%s: %w", textio.Name(path), err)
	}
	if textio.IsStdin(path) {
		path = "stdin.yaml"
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	c.dir = filepath.Dir(abs)
	if err := c.Resolve(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &c, nil
}

// SetDir sets the directory relative paths start from, for configs built in
// code (LoadConfig sets it to the config file's directory).
func (c *Config) SetDir(dir string) { c.dir = dir }

// Resolve expands Each entries, makes paths absolute, fills defaults and
// checks the config. Prepare calls it; it is idempotent.
func (c *Config) Resolve() error {
	if c.dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		c.dir = wd
	}
	root := c.Root
	if !filepath.IsAbs(root) {
		root = filepath.Join(c.dir, root)
	}
	c.Root, c.dir = filepath.Clean(root), filepath.Clean(root)
	if _, err := ParseTagScheme(c.Tags); err != nil {
		return err
	}
	if _, err := parseTagStyle(c.TagStyle); err != nil {
		return err
	}
	if _, err := parseDecoderStart(c.DecoderStart); err != nil {
		return err
	}
	if c.MaxLen < 0 {
		return fmt.Errorf("max_len %d is negative", c.MaxLen)
	}
	if err := c.resolveBPE(); err != nil {
		return err
	}
	if len(c.Splits["train"]) == 0 {
		return fmt.Errorf("splits: no train corpus")
	}
	seen := map[string]bool{}
	for _, name := range c.SplitNames() {
		specs, err := c.expand(name, c.Splits[name])
		if err != nil {
			return err
		}
		c.Splits[name] = specs
		for _, s := range specs {
			for _, l := range strings.SplitN(s.Pair, "-", 2) {
				seen[l] = true
			}
		}
	}
	return c.resolveLanguages(seen)
}

func (c *Config) resolveBPE() error {
	b := &c.BPE
	if b.Model != "" {
		b.Model = c.abs(b.Model)
		if b.Merges != 0 || b.VocabSize != 0 {
			return fmt.Errorf("bpe: model given, so merges and vocab_size must not be")
		}
		return nil
	}
	if b.Merges <= 0 && b.VocabSize <= 0 {
		return fmt.Errorf("bpe: the subword model needs its size, e.g. \"bpe: {merges: 10000}\" or \"bpe: {vocab_size: 8000}\" (or \"bpe: {model: FILE}\" to reuse one)")
	}
	if b.Merges > 0 && b.VocabSize > 0 {
		return fmt.Errorf("bpe: set one of merges (%d) and vocab_size (%d), not both", b.Merges, b.VocabSize)
	}
	if b.CharacterCoverage < 0 || b.CharacterCoverage > 1 {
		return fmt.Errorf("bpe: character_coverage %g is outside (0, 1]", b.CharacterCoverage)
	}
	if b.CharacterCoverage == 0 {
		b.CharacterCoverage = 1
	}
	return nil
}

func (c *Config) resolveLanguages(seen map[string]bool) error {
	if len(c.Languages) == 0 {
		for l := range seen {
			c.Languages = append(c.Languages, l)
		}
		sort.Strings(c.Languages)
	}
	for i, l := range c.Languages {
		if err := checkLangCode(l); err != nil {
			return fmt.Errorf("languages: %w", err)
		}
		if slices.Contains(c.Languages[:i], l) {
			return fmt.Errorf("languages: %q listed twice", l)
		}
	}
	for l := range seen {
		if !slices.Contains(c.Languages, l) {
			return fmt.Errorf("corpus language %q is not in languages %v", l, c.Languages)
		}
	}
	return nil
}

// parseDecoderStart reads the decoder_start key.
func parseDecoderStart(s string) (int32, error) {
	switch s {
	case "", specialTokens[EOSID]:
		return EOSID, nil
	case specialTokens[BOSID]:
		return BOSID, nil
	}
	return 0, fmt.Errorf("decoder_start %q: want %q or %q", s, specialTokens[EOSID], specialTokens[BOSID])
}

// SplitNames lists the splits, train first, then by name.
func (c *Config) SplitNames() []string {
	var names []string
	for n := range c.Splits {
		if n != "train" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return append([]string{"train"}, names...)
}

func (c *Config) abs(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(c.dir, p)
}

// expand replaces Each entries by their copies and checks every entry.
func (c *Config) expand(split string, specs []CorpusSpec) ([]CorpusSpec, error) {
	var out []CorpusSpec
	for i, s := range specs {
		where := fmt.Sprintf("splits.%s[%d]", split, i)
		copies := []CorpusSpec{s}
		if len(s.Each) > 0 {
			copies = copies[:0]
			for _, x := range s.Each {
				r := strings.NewReplacer("{x}", x)
				e := s
				e.Each = nil
				e.Pair, e.Path, e.Src, e.Tgt = r.Replace(s.Pair), r.Replace(s.Path), r.Replace(s.Src), r.Replace(s.Tgt)
				copies = append(copies, e)
			}
		}
		for _, e := range copies {
			if err := c.checkSpec(split, &e); err != nil {
				return nil, fmt.Errorf("%s (pair %s): %w", where, e.Pair, err)
			}
			for _, o := range out {
				if o.Path == e.Path && o.Src == e.Src && o.Tgt == e.Tgt {
					return nil, fmt.Errorf("%s: corpus %s listed twice in split %s", where, e.describe(), split)
				}
			}
			out = append(out, e)
		}
	}
	return out, nil
}

func (c *Config) checkSpec(split string, e *CorpusSpec) error {
	langs := strings.Split(e.Pair, "-")
	if len(langs) != 2 {
		return fmt.Errorf("pair %q: want src-tgt, e.g. en-de", e.Pair)
	}
	for _, l := range langs {
		if err := checkLangCode(l); err != nil {
			return err
		}
	}
	if langs[0] == langs[1] {
		return fmt.Errorf("pair %q has the same language twice", e.Pair)
	}
	e.inferFormat()
	if err := checkFormat(e); err != nil {
		return err
	}
	switch {
	case e.Path != "" && e.Src == "" && e.Tgt == "":
		e.Path = c.abs(e.Path)
	case e.Path == "" && e.Src != "" && e.Tgt != "":
		e.Src, e.Tgt = c.abs(e.Src), c.abs(e.Tgt)
	default:
		return fmt.Errorf("give either path (TSV) or both src and tgt (aligned files)")
	}
	switch e.Directions {
	case "":
		e.Directions = "forward"
	case "forward", "backward", "both":
	default:
		return fmt.Errorf("directions %q: want forward, backward or both", e.Directions)
	}
	if e.Filter == nil {
		f := split == "train"
		e.Filter = &f
	}
	return nil
}

// checkFormat checks format and the keys that go with it.
func checkFormat(e *CorpusSpec) error {
	switch e.Format {
	case "":
	case "tmx", "xliff", "po", FormatMO:
		if e.Path == "" {
			return fmt.Errorf("format %s: give the file as path", e.Format)
		}
	default:
		return fmt.Errorf("format %q: want tsv, tmx, xliff, po or mo", e.Format)
	}
	switch e.Inline {
	case "", "strip", "keep":
	default:
		return fmt.Errorf("inline %q: want strip or keep", e.Inline)
	}
	if e.Inline != "" && e.Format != "tmx" && e.Format != "xliff" {
		return fmt.Errorf("inline applies to formats tmx and xliff, not %q", e.Format)
	}
	if len(e.States) > 0 && e.Format != "xliff" {
		return fmt.Errorf("states applies to format xliff only")
	}
	if e.Fuzzy && e.Format != "po" {
		return fmt.Errorf("fuzzy applies to format po only")
	}
	return nil
}

func (e *CorpusSpec) describe() string {
	if e.Path != "" {
		return e.Path
	}
	return e.Src + " + " + e.Tgt
}

// langs returns the languages of the two columns.
func (e *CorpusSpec) langs() (string, string) {
	l := strings.SplitN(e.Pair, "-", 2)
	return l[0], l[1]
}
