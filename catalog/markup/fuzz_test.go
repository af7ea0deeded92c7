package markup

import (
	"strings"
	"testing"
)

// FuzzTranslate: any input parses (the tokenizer accepts every byte
// string); written back untranslated it is the input, byte for byte;
// translated (upper-cased, sentinels kept; or with each sentence's codes
// reversed, which the nesting check must refuse or accept safely) it
// parses to the input's element tree.
func FuzzTranslate(f *testing.F) {
	f.Add(page)
	for _, s := range []string{
		`<p><a href="/range"><em>View the complete range of</em> <em>drawer systems</em></a></p>`,
		`<p>It works. It is <b>fast. Really</b> fast!</p><img alt='x y' title=z>`,
		`<table><tr><td>a<b>b</td></tr></table>x`,
		`<p>a <b>b <i>c</b> d</i> e</p>`,
		`<select><option>One<option>Two</select><textarea>t</textarea>`,
		`<svg><title>T</title><text>x</text></svg><math><mi>x</mi></math>`,
		"<p title=\"a\" title='b' alt=c alt>x</p><img/alt=\"q r\"/>",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		d, err := Parse([]byte(src), "fuzz.html", defaultOptions)
		if err != nil {
			return
		}
		if got := render(t, d); got != src {
			t.Fatalf("untranslated output differs:\n%q\n%q", src, got)
		}
		upper(d)
		sameTree(t, src, render(t, d))

		d, _ = Parse([]byte(src), "fuzz.html", defaultOptions)
		outs := make([]string, len(d.Units))
		for i, u := range d.Units {
			outs[i] = reverseSentinels(u.Masked.Text)
		}
		d.SetTranslations(outs)
		sameTree(t, src, render(t, d))
	})
}

// reverseSentinels writes a masked text's sentinels in reverse order.
func reverseSentinels(s string) string {
	ms := sentinelRe.FindAllString(s, -1)
	var b strings.Builder
	b.WriteString("X ")
	for i := len(ms) - 1; i >= 0; i-- {
		b.WriteString(ms[i])
	}
	return b.String()
}
