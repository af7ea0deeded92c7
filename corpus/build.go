package corpus

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"golang.org/x/text/language"
)

// Options configure Build.
type Options struct {
	// Langs are the target languages (ISO 639-1); English is the pivot.
	Langs []string
	// Output is the corpus directory.
	Output string
	// Cache holds the downloaded .deb files (default Output/packages); a
	// package already there in the wanted version is not fetched again.
	Cache string
	// Packages overrides the package list (default DefaultPackages).
	Packages []string
	// Pin is a manifest of an earlier build: its packages are fetched in
	// the versions it lists and must have the same SHA-256.
	Pin *Manifest
	// Reference is a published l10n corpus directory whose dev and test
	// sets are reused and whose training pairs are compared; "" splits
	// new dev and test sets.
	Reference string
	// HeldOutSize is the number of dev and of test lines a split makes
	// (default HeldOutSize).
	HeldOutSize int
	// PlaceholderHeldOut is the number of dev and of test pairs of the
	// placeholder set, at most (default PlaceholderHeldOut).
	PlaceholderHeldOut int
	// ReferenceSums are the SHA-256 sums the reference's dev and test
	// files must have (default the published corpus's, ReferenceSums).
	ReferenceSums map[string]string
	// Source fetches and reads packages (default Apt).
	Source Source
	// Log receives progress lines; nil discards them.
	Log io.Writer
}

// Build builds the corpus and returns its manifest (also written to
// Output/manifest.json).
func Build(ctx context.Context, opt Options) (*Manifest, error) {
	start := time.Now()
	if err := checkLangs(opt.Langs); err != nil {
		return nil, err
	}
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	if opt.Source == nil {
		opt.Source = Apt{Log: opt.Log}
	}
	if opt.HeldOutSize == 0 {
		opt.HeldOutSize = HeldOutSize
	}
	if opt.PlaceholderHeldOut == 0 {
		opt.PlaceholderHeldOut = PlaceholderHeldOut
	}
	if opt.ReferenceSums == nil {
		opt.ReferenceSums = ReferenceSums
	}
	if opt.Cache == "" {
		opt.Cache = filepath.Join(opt.Output, "packages")
	}
	if err := os.MkdirAll(opt.Cache, 0o755); err != nil {
		return nil, err
	}
	pkgs, missing, err := fetch(ctx, opt)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(opt.Log, "corpus: %d packages fetched (%d not in the archive) in %s\n", len(pkgs), len(missing), time.Since(start).Round(time.Second))
	x := newExtractor(opt.Langs)
	for i, p := range pkgs {
		// One line per package: reading LibreOffice's help takes minutes
		// on a loaded machine, and a silent command looks hung.
		fmt.Fprintf(opt.Log, "corpus: reading %s %s (%d/%d, %s)\n", p.Name, p.Version, i+1, len(pkgs), time.Since(start).Round(time.Second))
		if err := opt.Source.Walk(ctx, p, func(name string, size int64, r io.Reader) error {
			return x.file(p.Name, name, size, r)
		}); err != nil {
			return nil, err
		}
	}
	raw := x.pairs
	for l, ps := range x.helpPairs() {
		raw[l] = append(raw[l], ps...)
	}
	fmt.Fprintf(opt.Log, "corpus: cleaning, aligning and splitting %d pairs (%s)\n", countPairs(raw), time.Since(start).Round(time.Second))
	m := &Manifest{Format: ManifestFormat, Version: ManifestVersion, Languages: opt.Langs,
		Packages: pkgs, Missing: missing, Skipped: x.Skipped}
	if err := assemble(opt, raw, m); err != nil {
		return nil, err
	}
	m.Seconds = time.Since(start).Seconds()
	return m, m.write(opt.Output)
}

// countPairs is the number of extracted pairs over all languages.
func countPairs(raw map[string][]Pair) int {
	n := 0
	for _, ps := range raw {
		n += len(ps)
	}
	return n
}

// fetch resolves the package list (pinned or default) and fetches it.
func fetch(ctx context.Context, opt Options) ([]Package, []string, error) {
	want := map[string]string{}
	switch {
	case opt.Pin != nil:
		for _, p := range opt.Pin.Packages {
			want[p.Name] = p.Version
		}
	case opt.Packages != nil:
		for _, n := range opt.Packages {
			want[n] = ""
		}
	default:
		for _, n := range DefaultPackages(opt.Langs) {
			want[n] = ""
		}
	}
	pkgs, missing, err := opt.Source.Fetch(ctx, want, opt.Cache)
	if err != nil {
		return nil, nil, err
	}
	if opt.Pin != nil {
		if err := checkPins(opt.Pin, pkgs, missing); err != nil {
			return nil, nil, err
		}
	}
	return pkgs, missing, nil
}

// checkPins requires every pinned package, in its version and hash.
func checkPins(pin *Manifest, got []Package, missing []string) error {
	have := map[string]Package{}
	for _, p := range got {
		have[p.Name] = p
	}
	for _, w := range pin.Packages {
		g, ok := have[w.Name]
		switch {
		case !ok:
			return fmt.Errorf("pinned package %s %s could not be fetched (the archive may have dropped that version; snapshot.debian.org keeps it)", w.Name, w.Version)
		case g.Version != w.Version:
			return fmt.Errorf("pinned package %s: got version %s, want %s", w.Name, g.Version, w.Version)
		case g.SHA256 != w.SHA256:
			return fmt.Errorf("pinned package %s %s: SHA-256 %s, want %s", w.Name, w.Version, g.SHA256, w.SHA256)
		}
	}
	return nil
}

// checkLangs accepts lower-case ISO 639 codes CLDR knows, other than
// English, each once.
func checkLangs(langs []string) error {
	if len(langs) == 0 {
		return fmt.Errorf("no target language")
	}
	for i, l := range langs {
		b, err := language.ParseBase(l)
		if err != nil || b.String() != l || l == English || slices.Contains(langs[:i], l) {
			return fmt.Errorf("language %q: want lower-case ISO 639-1 codes (de, zh, ...), other than en, each once", l)
		}
	}
	return nil
}
