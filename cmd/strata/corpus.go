package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-nmt/strata/corpus"
)

// corpusFlags are the options of `strata corpus l10n`.
type corpusFlags struct {
	langs     []string
	output    string
	cache     string
	manifest  string
	reference string
	packages  []string
}

func init() {
	parent := &cobra.Command{Use: "corpus", Short: "Build training corpora from public sources"}
	var f corpusFlags
	cmd := &cobra.Command{
		Use:   "l10n --langs de,fr,... --output DIR",
		Short: "Build the l10n corpus from Debian's localisation packages",
		Long: `Build the l10n corpus (software text, English-centric, n-way) from Debian's
localisation packages: fetches them with apt-get download (no installation;
run apt-get update first), reads their gettext catalogues and help pages,
cleans and aligns the pairs through the English string and writes
DIR/train/en-XX.tsv.gz, DIR/dev/dev.LANG, DIR/test/test.LANG and
DIR/manifest.json (the packages with version and SHA-256, the outputs, the
report), and under DIR/placeholders the pairs dropped for placeholders or
markup, masked as translate masks them, for fine-tuning. --manifest pins an earlier build's packages. With --ref-corpus (by
default ../shared/data/l10n when it exists) the published dev and test sets
are reused, checked by hash, kept out of training, and the training pairs
are compared with the published ones. docs/data.md, "Building the l10n
corpus", gives the rules.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runCorpusL10n(cmd, f) },
	}
	fl := cmd.Flags()
	fl.StringSliceVar(&f.langs, "langs", nil, "target languages, ISO 639-1 (required)")
	fl.StringVarP(&f.output, "output", "o", "", "corpus directory (required)")
	fl.StringVar(&f.cache, "cache", "", "where .deb files are kept (default OUTPUT/packages)")
	fl.StringVar(&f.manifest, "manifest", "", "pin the packages (versions and hashes) of this earlier manifest.json")
	fl.StringVar(&f.reference, "ref-corpus", "auto", `published corpus to reuse dev/test from and compare with; "auto": ../shared/data/l10n if present; "": none`)
	fl.StringSliceVar(&f.packages, "packages", nil, "package list instead of the built-in one")
	cmd.MarkFlagRequired("langs")
	cmd.MarkFlagRequired("output")
	parent.AddCommand(aliases(cmd, map[string]string{"out": "output"}))
	rootCmd.AddCommand(parent)
}

func runCorpusL10n(cmd *cobra.Command, f corpusFlags) error {
	opt := corpus.Options{Langs: f.langs, Output: f.output, Cache: f.cache, Packages: f.packages,
		Reference: resolveReference(f.reference), Log: cmd.ErrOrStderr()}
	if f.manifest != "" {
		m, err := corpus.ReadManifest(f.manifest)
		if err != nil {
			return err
		}
		opt.Pin = m
	}
	m, err := corpus.Build(cmd.Context(), opt)
	if err != nil {
		return err
	}
	printCorpusReport(cmd.OutOrStdout(), m)
	return nil
}

// resolveReference turns "auto" into ../shared/data/l10n when it exists.
func resolveReference(ref string) string {
	if ref != "auto" {
		return ref
	}
	if root, ok := repoRoot(); ok {
		if dir := filepath.Join(root, "..", "shared", "data", "l10n"); fileExists(filepath.Join(dir, "dev", "dev.en")) {
			return dir
		}
	}
	return ""
}

func printCorpusReport(w io.Writer, m *corpus.Manifest) {
	fmt.Fprintf(w, "%d packages, held-out sets: %s, %.0f s\n", len(m.Packages), m.HeldOut, m.Seconds)
	for _, r := range m.Report {
		fmt.Fprintf(w, "%s: extracted %d, train %d, leaked %d, dropped %v\n", r.Lang, r.Extracted, r.Train, r.Leaked, r.Dropped)
		if p := r.Placeholders; p != nil {
			fmt.Fprintf(w, "%s: placeholder set (masked, placeholders/): %d candidates, train %d, dev %d, test %d, dropped %v\n",
				r.Lang, p.Candidates, p.Train, p.Dev, p.Test, p.Dropped)
		}
		if o := r.Overlap; o != nil {
			fmt.Fprintf(w, "%s: overlap with the reference: %d shared pairs = %.1f%% of ours (%d), %.1f%% of the reference's (%d); reference pairs missing: %v\n",
				r.Lang, o.Shared, 100*o.OfOurs, o.Ours, 100*o.OfReference, o.Reference, o.Missing)
		}
	}
	if len(m.Missing) > 0 {
		fmt.Fprintf(w, "not in the archive: %s\n", strings.Join(m.Missing, " "))
	}
}
