package markup

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/strata-nmt/strata/catalog/placeholder"
)

func parse(t testing.TB, src string) *Doc {
	t.Helper()
	d, err := Parse([]byte(src), "t.html", defaultOptions)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func texts(d *Doc) []string {
	var out []string
	for _, u := range d.Units {
		out = append(out, u.Masked.Text)
	}
	return out
}

func render(t testing.TB, d *Doc) string {
	t.Helper()
	var b bytes.Buffer
	if _, err := d.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// upper "translates" by upper-casing: sentinels are digits in braces,
// which it keeps.
func upper(d *Doc) []error {
	outs := make([]string, len(d.Units))
	for i, u := range d.Units {
		outs[i] = strings.ToUpper(u.Masked.Text)
	}
	return d.SetTranslations(outs)
}

func TestUnitsAreSentences(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		// inline elements nested in a sentence travel with it; the
		// element around the whole sentence stays outside
		{`<p><a href="/range"><em>View the complete range of</em> <em>drawer systems</em></a></p>`,
			[]string{"{1}View the complete range of{2} {3}drawer systems{4}"}},
		{"<div>Click <a href=x><b>here</b></a>\n   to <span class=k>continue</span>.</div>",
			[]string{"Click {1}{2}here{3}{4} to {5}continue{6}."}},
		// sentences of a paragraph are units; an element is never split
		{`<p>It works. It is <b>fast. Really</b> fast! "Yes," he said.</p>`,
			[]string{"It works.", "It is {1}fast. Really{2} fast!", `"Yes," he said.`}},
		{`<p>One! Two? Three. Four</p>`, []string{"One!", "Two?", "Three.", "Four"}},
		{`<p>See e.g. Table 2. Use Dr. Smith's method.</p>`,
			[]string{"See e.g. Table 2.", "Use Dr. Smith's method."}},
		// block elements separate units; blank and letterless text is no unit
		{"<ul>\n <li>One</li>\n <li>Two<br>lines</li>\n <li>42 %</li>\n</ul>",
			[]string{"One", "Two{1}lines"}},
		{`<h1 title="Main title">Tom &amp; Jerry &lt;3</h1><img src="a.png" alt="A cat">`,
			[]string{"Main title", "Tom & Jerry <3", "A cat"}},
		// printf placeholders in text are protected too
		{`<p>Copied %d files to <code>%s</code>.</p>`, []string{"Copied {1} files to {2}{3}{4}."}},
		// scripts, styles, pre, translate="no" are no units
		{`<script>var s = "Hello world";</script><style>p{}</style><pre>Keep this</pre><p translate="no">Not this</p><p>But <span translate="no">Strata</span> is here.</p>`,
			[]string{"But {1} is here."}},
		{`<head><title>Page title</title></head>`, []string{"Page title"}},
	}
	for _, c := range cases {
		d := parse(t, c.in)
		if got := texts(d); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

const page = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>Drawer systems</title>
<script type="module">if (a < b && c) { document.title = "x"; }</script>
<style>  p > a { color: red }  </style>
</head>
<body class='main'   data-x=1>
<!-- a comment -->
<nav><a href="/" title="Home page">Home</a> | <a href=/shop>Shop</a></nav>
<p><a href="/range?a=1&amp;b=2"><em>View the complete range of</em> <em>drawer systems</em></a></p>
<p>First sentence. Second <strong>strong <i>nested</i> text</strong>. Third one!</p>
<table><tr><td>Cell <b>one</b></td><td><img src="x.png" alt="A drawer" width=10> Caption</td></tr></table>
<pre>  keep   this  </pre>
<p translate="no">Do not translate</p>
<p>Unclosed <b>bold and <br/> a break
<div>After</div>
</body></html>
`

func TestUntranslatedIsByteForByte(t *testing.T) {
	d := parse(t, page)
	if got := render(t, d); got != page {
		t.Fatalf("output differs from input:\n%s", got)
	}
	outs := make([]string, len(d.Units))
	d.SetTranslations(outs)
	if got := render(t, d); got != page {
		t.Fatalf("output with no translations differs from input:\n%s", got)
	}
}

func TestTranslationKeepsTheTree(t *testing.T) {
	d := parse(t, page)
	for i, err := range upper(d) {
		if err != nil {
			t.Errorf("unit %q: %v", d.Units[i].Masked.Text, err)
		}
	}
	out := render(t, d)
	for _, want := range []string{
		`<script type="module">if (a < b && c) { document.title = "x"; }</script>`,
		`<style>  p > a { color: red }  </style>`,
		`<body class='main'   data-x=1>`,
		`<a href="/" title="HOME PAGE">HOME</a>`,
		`<p><a href="/range?a=1&amp;b=2"><em>VIEW THE COMPLETE RANGE OF</em> <em>DRAWER SYSTEMS</em></a></p>`,
		`<p>FIRST SENTENCE. SECOND <strong>STRONG <i>NESTED</i> TEXT</strong>. THIRD ONE!</p>`,
		`<img src="x.png" alt="A DRAWER" width=10> CAPTION`,
		`<pre>  keep   this  </pre>`,
		`<p translate="no">Do not translate</p>`,
		`<title>DRAWER SYSTEMS</title>`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s\n%s", want, out)
		}
	}
	sameTree(t, page, out)
}

// sameTree checks that b parses to the element tree of a: tags, nesting
// and attributes other than alt and title.
func sameTree(t testing.TB, a, b string) {
	t.Helper()
	ta, tb := elementTree(t, a), elementTree(t, b)
	if ta != tb {
		t.Fatalf("element trees differ:\n%s\n---\n%s\ninput:\n%q\noutput:\n%q", ta, tb, a, b)
	}
}

func elementTree(t testing.TB, s string) string {
	n, err := html.Parse(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		if n.Type == html.ElementNode {
			fmt.Fprintf(&b, "%s%s:%s", strings.Repeat(" ", depth), n.Namespace, n.Data)
			for _, a := range n.Attr {
				if a.Key != "alt" && a.Key != "title" {
					fmt.Fprintf(&b, " %s:%s=%q", a.Namespace, a.Key, a.Val)
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

func TestRefusedTranslations(t *testing.T) {
	d := parse(t, `<p>Say <a href=x><b>hi</b></a> to <em>Tom</em> now.</p><img alt="Dog" title="Cat">`)
	if got := texts(d); fmt.Sprint(got) != fmt.Sprint([]string{"Say {1}{2}hi{3}{4} to {5}Tom{6} now.", "Dog", "Cat"}) {
		t.Fatalf("units %q", got)
	}
	if a, b := d.Units[0].Source(), d.Units[1].Source(); a != "Say <a href=x><b>hi</b></a> to <em>Tom</em> now." || b != "Dog" {
		t.Errorf("sources %q, %q", a, b)
	}
	cases := []struct {
		out, want string
	}{
		{"Sag {1}{2}hallo{4}{3} {5}Tom{6}.", "nested differently"}, // interleaved
		{"Sag {2}{1}hallo{4}{3} {5}Tom{6}.", "nested differently"}, // b now holds a
		{"Sag {5}Tom{6} {1}{2}hallo{3}{4}.", ""},                   // siblings swap: fine
		{"Sag {1}{2}hallo{3}{4}.", "lost"},
		{"<script>{1}{2}x{3}{4} {5}{6}", ""},
	}
	for _, c := range cases {
		errs := d.SetTranslations([]string{c.out, "Hund", ""})
		err := errs[0]
		if (err == nil) != (c.want == "") || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%q: got %v, want %q", c.out, err, c.want)
		}
	}
	out := render(t, d)
	if want := `<p>&lt;script&gt;<a href=x><b>x</b></a> <em></em></p><img alt="Hund" title="Cat">`; out != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
}

var defaultOptions = placeholder.Options{}
