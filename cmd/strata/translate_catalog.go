package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/strata-nmt/strata/catalog/markup"
	"github.com/strata-nmt/strata/catalog/po"
	"github.com/strata-nmt/strata/catalog/pretranslate"
	"github.com/strata-nmt/strata/catalog/tmx"
	"github.com/strata-nmt/strata/catalog/xliff"
	"github.com/strata-nmt/strata/decode"
	"github.com/strata-nmt/strata/internal/textio"
)

// catalogFlags are translate's options for --format other than text.
type catalogFlags struct {
	format      string
	fuzzy       bool
	accelerator string
}

// catalogFormats maps each --format but text to the function that
// pre-translates a file of that format: it reads in, writes the result to
// out and reports on stderr.
var catalogFormats = map[string]func(ctx context.Context, tr pretranslate.Translator, in io.Reader, name string, out io.Writer, o pretranslate.Options, stderr io.Writer) error{
	"po":    translatePO,
	"xliff": translateXLIFF,
	"tmx":   translateTMX,
	"html":  translateHTML,
	"lines": translateLines,
}

func catalogFlagsOn(cmd *cobra.Command, c *catalogFlags) {
	fl := cmd.Flags()
	fl.StringVar(&c.format, "format", "text", "input format: text (one sentence a line) or one of "+strings.Join(catalogFormatNames(), ", ")+": html translates a page sentence by sentence, its markup kept; po, xliff and tmx fill untranslated entries, machine output marked for review; lines translates one catalogue string a line with its placeholders protected, a line whose placeholders were not kept left empty (docs/l10n.md)")
	fl.BoolVar(&c.fuzzy, "fuzzy", false, "with --format po|xliff|tmx: also retranslate entries marked fuzzy or needing review")
	fl.StringVar(&c.accelerator, "accelerator", "", "with --format po|xliff|tmx: the accelerator marker (& or _ or ~) of the catalogue, when its header does not name one (X-Accelerator-Marker)")
}

func catalogFormatNames() []string {
	var names []string
	for n := range catalogFormats {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// runTranslateCatalog pre-translates one catalogue file with tr.
func runTranslateCatalog(cmd *cobra.Command, f *translateFlags, tr *decode.Translator) error {
	fn, ok := catalogFormats[f.catalog.format]
	if !ok {
		return fmt.Errorf("translate: --format %q: want text or one of %s", f.catalog.format, strings.Join(catalogFormatNames(), ", "))
	}
	if f.pivot != "" || f.shard != "" || f.scores || f.align || f.opt.NBest > 1 {
		return fmt.Errorf("translate: --format %s takes none of --pivot, --shard, --scores, --alignment, --nbest", f.catalog.format)
	}
	o := pretranslate.Options{Src: f.src, Tgt: f.tgt, Fuzzy: f.catalog.fuzzy}
	if a := f.catalog.accelerator; a != "" {
		if utf8.RuneCountInString(a) != 1 {
			return fmt.Errorf("translate: --accelerator %q: want one character such as & or _", a)
		}
		o.Placeholders.Accelerator, _ = utf8.DecodeRuneInString(a)
	}
	in, err := textio.OpenFrom(f.input, cmd.InOrStdin())
	if err != nil {
		return err
	}
	defer in.Close()
	start := time.Now()
	name := textio.Name(f.input)
	err = writeOutput(cmd, f.output, func(w io.Writer) error {
		return fn(cmd.Context(), tr, in, name, w, o, os.Stderr)
	})
	if err != nil {
		return err
	}
	s := tr.Stats
	fmt.Fprintf(os.Stderr, "translated %d lines (%d source / %d generated tokens) in %.1fs\n", s.Sentences, s.SrcTokens, s.Tokens, time.Since(start).Seconds())
	return nil
}

// translatePO fills a gettext catalogue.
func translatePO(ctx context.Context, tr pretranslate.Translator, in io.Reader, name string, out io.Writer, o pretranslate.Options, stderr io.Writer) error {
	c, err := po.Parse(in, name)
	if err != nil {
		return err
	}
	r, err := pretranslate.PO(ctx, tr, c, o)
	if err != nil {
		return err
	}
	r.Write(stderr)
	_, err = c.WriteTo(out)
	return err
}

// translateXLIFF fills an XLIFF 1.2 or 2.0 document.
func translateXLIFF(ctx context.Context, tr pretranslate.Translator, in io.Reader, name string, out io.Writer, o pretranslate.Options, stderr io.Writer) error {
	d, err := xliff.Parse(in, name, o.Placeholders)
	if err != nil {
		return err
	}
	r, err := pretranslate.XLIFF(ctx, tr, d, o)
	if err != nil {
		return err
	}
	r.Write(stderr)
	_, err = d.WriteTo(out)
	return err
}

// translateTMX adds target-language variants to a translation memory.
func translateTMX(ctx context.Context, tr pretranslate.Translator, in io.Reader, name string, out io.Writer, o pretranslate.Options, stderr io.Writer) error {
	if o.Src == "" || o.Tgt == "" {
		return fmt.Errorf("translate: --format tmx needs --src-lang and --tgt-lang (a memory's units hold many languages)")
	}
	m, err := tmx.Parse(in, name, o.Placeholders)
	if err != nil {
		return err
	}
	r, err := pretranslate.TMX(ctx, tr, m, o)
	if err != nil {
		return err
	}
	r.Write(stderr)
	_, err = m.WriteTo(out)
	return err
}

// translateHTML translates an HTML page sentence by sentence, its markup
// kept.
func translateHTML(ctx context.Context, tr pretranslate.Translator, in io.Reader, name string, out io.Writer, o pretranslate.Options, stderr io.Writer) error {
	src, err := io.ReadAll(in)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	d, err := markup.Parse(src, name, o.Placeholders)
	if err != nil {
		return err
	}
	r, err := pretranslate.HTML(ctx, tr, d, o)
	if err != nil {
		return err
	}
	r.Write(stderr)
	_, err = d.WriteTo(out)
	return err
}

// translateLines translates one catalogue string a line, placeholders
// protected; a line whose translation broke one is written empty.
func translateLines(ctx context.Context, tr pretranslate.Translator, in io.Reader, name string, out io.Writer, o pretranslate.Options, stderr io.Writer) error {
	var lines []string
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		lines = append(lines, strings.TrimSuffix(sc.Text(), "\r"))
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: line %d: %w", name, len(lines)+1, err)
	}
	outs, r, err := pretranslate.Lines(ctx, tr, name, lines, o)
	if err != nil {
		return err
	}
	r.Write(stderr)
	for _, l := range outs {
		if _, err := fmt.Fprintln(out, l); err != nil {
			return err
		}
	}
	return nil
}
