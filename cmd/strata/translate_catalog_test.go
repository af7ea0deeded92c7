package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/strata-nmt/strata/catalog/placeholder"
	"github.com/strata-nmt/strata/catalog/po"
)

// TestTranslatePOShippedModel pre-translates a real Debian catalogue
// (testdata/grep.de.po: GNU grep's German catalogue from Debian 12, made
// untranslated by scripts/l10n-catalogue.sh) with the shipped model: every
// entry written keeps its placeholders, every entry is either translated
// and fuzzy or left empty, and msgfmt --check --use-fuzzy accepts the file.
func TestTranslatePOShippedModel(t *testing.T) {
	model := filepath.Join("..", "..", "models", "l10n-en-de")
	if _, err := os.Stat(filepath.Join(model, "model.bin")); err != nil {
		t.Skipf("no shipped model here (%v)", err)
	}
	out := filepath.Join(t.TempDir(), "grep.mt.po")
	run(t, "translate", "--format", "po", "-m", model, "--compute-type", "int8", "--greedy", "--threads", "1",
		"-i", "testdata/grep.de.po", "-o", out)
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	c, err := po.Parse(bytes.NewReader(raw), out)
	if err != nil {
		t.Fatal(err)
	}
	translated, empty := 0, 0
	for _, e := range c.Entries {
		if e.IsHeader() {
			continue
		}
		if e.Str[0] == "" {
			empty++
			continue
		}
		translated++
		if !e.Fuzzy() {
			t.Errorf("line %d: machine output not marked fuzzy", e.Line)
		}
		for i, s := range e.Str {
			src := e.ID
			if i > 0 {
				src = e.IDPlural
			}
			if err := placeholder.Check(src, s, placeholder.Options{}); err != nil {
				t.Errorf("line %d: %q → %q: %v", e.Line, src, s, err)
			}
		}
	}
	t.Logf("%d entries translated, %d left untranslated", translated, empty)
	if translated < len(c.Entries)*3/4 {
		t.Errorf("only %d of %d entries translated", translated, len(c.Entries)-1)
	}
	if _, err := exec.LookPath("msgfmt"); err != nil {
		t.Skip("gettext's msgfmt is not installed")
	}
	if msg, err := exec.Command("msgfmt", "--check", "--use-fuzzy", "-o", os.DevNull, out).CombinedOutput(); err != nil {
		t.Fatalf("msgfmt --check --use-fuzzy: %v\n%s", err, msg)
	}
}

// TestTranslateHTMLShippedModel translates a page with the shipped model:
// the output parses to the input's element tree (tags, nesting, attributes
// but alt and title), the script and pre are kept and the text is German.
func TestTranslateHTMLShippedModel(t *testing.T) {
	model := filepath.Join("..", "..", "models", "l10n-en-de")
	if _, err := os.Stat(filepath.Join(model, "model.bin")); err != nil {
		t.Skipf("no shipped model here (%v)", err)
	}
	out := filepath.Join(t.TempDir(), "page.de.html")
	run(t, "translate", "--format", "html", "-m", model, "--compute-type", "int8", "--greedy", "--threads", "1",
		"-i", "testdata/page.html", "-o", out)
	src, err := os.ReadFile("testdata/page.html")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := elementTree(t, src), elementTree(t, got); a != b {
		t.Fatalf("element trees differ:\n%s---\n%s", a, b)
	}
	for _, keep := range []string{`<script>var x = "Do not translate this";</script>`, `<pre>grep -r pattern .</pre>`, `<img src="logo.png" alt="`} {
		if !bytes.Contains(got, []byte(keep)) {
			t.Errorf("output lost %s:\n%s", keep, got)
		}
	}
	if bytes.Contains(got, []byte("Search for")) || bytes.Contains(got, []byte("Display this help")) {
		t.Errorf("sentences left in English:\n%s", got)
	}
	t.Logf("%s", got)
}

// elementTree lists a page's elements with their nesting and attributes,
// alt and title left out.
func elementTree(t *testing.T, src []byte) string {
	n, err := html.Parse(bytes.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		if n.Type == html.ElementNode {
			fmt.Fprintf(&b, "%s%s", strings.Repeat(" ", depth), n.Data)
			for _, a := range n.Attr {
				if a.Key != "alt" && a.Key != "title" {
					fmt.Fprintf(&b, " %s=%q", a.Key, a.Val)
				}
			}
			b.WriteByte('\n')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return b.String()
}
