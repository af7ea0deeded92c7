package placeholder

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func spansOf(m Masked) []string {
	var l []string
	for _, s := range m.Spans {
		l = append(l, s.Text)
	}
	return l
}

func TestMaskKinds(t *testing.T) {
	cases := []struct {
		in, text string
		spans    []string
	}{
		{"%.250s is %s.", "{1} is {2}.", []string{"%.250s", "%s"}},
		{"Wrote %1$d of %2$lu bytes (100%%)", "Wrote {1} of {2} bytes (100{3})", []string{"%1$d", "%2$lu", "%%"}},
		{"%-*.*s|%'10d|%<PRIuMAX>", "{1}|{2}|{3}", []string{"%-*.*s", "%'10d", "%<PRIuMAX>"}},
		{"Hello %(name)s, 5% off", "Hello {1}, 5% off", []string{"%(name)s"}},
		{"Open {0} in {name}?", "Open {1} in {2}?", []string{"{0}", "{name}"}},
		{"{count, plural, one {# file} other {# files}} left", "{1} left", []string{"{count, plural, one {# file} other {# files}}"}},
		{"Set $HOME or ${XDG_DATA_HOME} ($1)", "Set {1} or {2} ({3})", []string{"$HOME", "${XDG_DATA_HOME}", "$1"}},
		{`Click <a href="x.html">here</a>.<br/>`, "Click {1}here{2}.{3}", []string{`<a href="x.html">`, "</a>", "<br/>"}},
		{"Tom &amp; Jerry &#169; &#xA9; & co", "Tom {1} Jerry {2} {3} & co", []string{"&amp;", "&#169;", "&#xA9;"}},
		{"a literal {1} and <3 and a {", "a literal {1} and <3 and a {", []string{"{1}"}},
		{"x < y > z", "x < y > z", nil},
	}
	for _, c := range cases {
		m := Mask(c.in, Options{})
		if m.Text != c.text || !reflect.DeepEqual(spansOf(m), c.spans) {
			t.Errorf("Mask(%q) = %s; want %q %q", c.in, m, c.text, c.spans)
		}
		back, err := m.Unmask(m.Text)
		if err != nil || back != c.in {
			t.Errorf("Unmask(Mask(%q)) = %q, %v", c.in, back, err)
		}
	}
}

// Positional and named placeholders may move; printf directives that take
// the next argument may not, as that would swap the program's arguments.
func TestUnmaskReordered(t *testing.T) {
	m := Mask("Only in %s: %s", Options{})
	_, err := m.Unmask("{2} enthält als einziges {1}")
	var e *Error
	if !errors.As(err, &e) || !reflect.DeepEqual(e.Reordered, []string{"%s"}) {
		t.Fatalf("swapped %%s: %v", err)
	}
	m = Mask("%(a)s and {b} and $C and %%", Options{})
	if got, err := m.Unmask("{4} {3} {2} {1}"); err != nil || got != "%% $C {b} %(a)s" {
		t.Fatalf("got %q, %v", got, err)
	}
	m = Mask("%1$s of %2$d", Options{})
	got, err := m.Unmask("{2} von {1}")
	if err != nil || got != "%2$d von %1$s" {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestUnmaskRefusesBrokenOutput(t *testing.T) {
	m := Mask("%.250s is %s. <b>Bold</b>", Options{})
	cases := map[string]Error{
		"{1} ist {3}Fett{4}":          {Lost: []string{"%s"}},
		"{1} ist {2} {2}. {3}Fett{4}": {Duplicated: []string{"%s"}},
		"{1} ist {2}. {3}Fett{4} {9}": {Unknown: []string{"{9}"}},
		"{1} ist {2}. {4}Fett{3}":     {Misordered: []string{"</b>"}},
		"{1} ist %. {3}Fett{4}":       {Lost: []string{"%s"}},
		"{1 ist {2}. {3}Fett{4}":      {Lost: []string{"%.250s"}},
	}
	for out, want := range cases {
		_, err := m.Unmask(out)
		var e *Error
		if !errors.As(err, &e) || !reflect.DeepEqual(*e, want) {
			t.Errorf("Unmask(%q) = %v; want %+v", out, err, want)
		}
	}
}

func TestTagPairs(t *testing.T) {
	m := Mask("<a><em>View</em> <em>drawers</em></a><br>", Options{})
	want := []int{5, 2, 1, 4, 3, 0, -1}
	for i, sp := range m.Spans {
		if sp.Pair != want[i] {
			t.Errorf("span %d %q: pair %d, want %d", i, sp.Text, sp.Pair, want[i])
		}
	}
}

func TestAccelerator(t *testing.T) {
	cases := []struct {
		in, out string
		marker  rune
		text    string
		tr, res string
	}{
		{"&File", "", '&', "File", "Datei", "&Datei"},
		{"Save &As…", "", '&', "Save As…", "Speichern unter…", "&Speichern unter…"},
		{"Save _As", "", '_', "Save As", "Speichern als", "Speichern _als"},
		{"_Quit", "", '_', "Quit", "Beenden", "_Beenden"},
		{"Tom &amp; &Jerry", "", '&', "Tom {1} Jerry", "Tom {1} Jerry", "Tom &amp; &Jerry"},
		{"max_line_len", "", '_', "max_line_len", "max_line_len", "max_line_len"},
		{"Fish && &Chips", "", '&', "Fish && Chips", "Fisch && Pommes", "Fis&ch && Pommes"},
	}
	for _, c := range cases {
		m := Mask(c.in, Options{Accelerator: c.marker})
		if m.Text != c.text {
			t.Errorf("Mask(%q).Text = %q, want %q", c.in, m.Text, c.text)
		}
		got, err := m.Unmask(c.tr)
		if err != nil || got != c.res {
			t.Errorf("Mask(%q).Unmask(%q) = %q, %v; want %q", c.in, c.tr, got, err, c.res)
		}
	}
}

func TestCheck(t *testing.T) {
	if err := Check("%s: %d files in %s", "%s: %d Dateien in %s", Options{}); err != nil {
		t.Fatal(err)
	}
	err := Check("%s: %d files", "%s: %s Dateien", Options{})
	var e *Error
	if !errors.As(err, &e) || !reflect.DeepEqual(e.Lost, []string{"%d"}) || !reflect.DeepEqual(e.Duplicated, []string{"%s"}) {
		t.Fatalf("Check = %v", err)
	}
	if err := Check("<b>x</b>", "<b>x</b> <i>", Options{}); err == nil {
		t.Fatal("an invented tag passed Check")
	}
}

// FuzzMaskUnmask: for any string, unmasking the masked text gives the
// string back, and Check finds nothing wrong with a string against itself.
func FuzzMaskUnmask(f *testing.F) {
	for _, s := range []string{"%.250s is %s.", "{n, plural, one {a} other {b {c}}}", "<a href='x'>y</a>&amp;$HOME", "&File", "_Save _As"} {
		f.Add(s, byte('&'))
	}
	f.Fuzz(func(t *testing.T, s string, accel byte) {
		o := Options{}
		if accel == '&' || accel == '_' || accel == '~' {
			o.Accelerator = rune(accel)
		}
		m := Mask(s, o)
		back, err := m.Unmask(m.Text)
		if err != nil {
			t.Fatalf("Unmask(Mask(%q)) failed: %v (%s)", s, err, m)
		}
		if m.Accel == 0 && back != s {
			t.Fatalf("Unmask(Mask(%q)) = %q (%s)", s, back, m)
		}
		if err := Check(s, s, o); err != nil {
			t.Fatalf("Check(%q, itself) = %v", s, err)
		}
	})
}

func TestBuilder(t *testing.T) {
	esc := func(s string) string { return strings.NewReplacer("&", "&amp;", "<", "&lt;").Replace(s) }
	b := NewBuilder(Options{}, esc)
	b.Text("Delete ")
	b.Code(`<g id="1">`, Tag, Open)
	b.Text("%d files & <stuff>")
	b.Code(`</g>`, Tag, Close)
	b.Code(`<x id="2"/>`, Tag, Standalone)
	m := b.Masked()
	if m.Text != "Delete {1}{2} files & {3}{4}{5}" || m.Spans[0].Pair != 3 || m.Spans[3].Pair != 0 {
		t.Fatalf("built %s", m)
	}
	got, err := m.Unmask("{1}{2} Dateien & {3} <b>{4} löschen{5}")
	if err != nil || got != `<g id="1">%d Dateien &amp; &lt;stuff> &lt;b></g> löschen<x id="2"/>` {
		t.Fatalf("got %q, %v", got, err)
	}
	if _, err := m.Unmask("{4}{2} Dateien{3}{1} löschen{5}"); err == nil {
		t.Fatal("a closing code before its opening one was accepted")
	}
}

func TestMaskPair(t *testing.T) {
	for _, c := range []struct{ src, tgt, wantSrc, wantTgt, err string }{
		{"%s is %s.", "%s ist %s.", "{1} is {2}.", "{1} ist {2}.", ""},
		{"Copy %1$s to %2$s", "%2$s: %1$s kopieren", "Copy {1} to {2}", "{2}: {1} kopieren", ""},
		{"<b>Save</b> %d files", "%d Dateien <b>speichern</b>", "{1}Save{2} {3} files", "{3} Dateien {1}speichern{2}", ""},
		{"Hello {name} &amp; $USER", "Hallo {name} &amp; $USER", "Hello {1} {2} {3}", "Hallo {1} {2} {3}", ""},
		// what translate would refuse is no training pair
		{"%.250s is %s.", "%.250s ist %.", "", "", "lost"},
		{"Only in %s: %s", "%s: nur in %s", "", "", ""}, // same set, order kept: accepted
		{"%s of %d", "%d von %s", "", "", "order"},
		{"<b>x</b> y", "</b>x<b> y", "", "", "before"},
		{"%s %s", "%s %s %s", "", "", "duplicated"},
		{"plain text", "reiner Text", "", "", "no placeholder"},
	} {
		m, tgt, err := MaskPair(c.src, c.tgt, Options{})
		if c.err != "" {
			if err == nil {
				t.Errorf("MaskPair(%q, %q) = %q, %q; want an error", c.src, c.tgt, m.Text, tgt)
			}
			continue
		}
		if err != nil {
			t.Errorf("MaskPair(%q, %q): %v", c.src, c.tgt, err)
			continue
		}
		if c.wantSrc != "" && (m.Text != c.wantSrc || tgt != c.wantTgt) {
			t.Errorf("MaskPair(%q, %q) = %q, %q; want %q, %q", c.src, c.tgt, m.Text, tgt, c.wantSrc, c.wantTgt)
		}
		if back, err := m.Unmask(tgt); err != nil || back != c.tgt {
			t.Errorf("Unmask(%q) = %q, %v; want %q", tgt, back, err, c.tgt)
		}
	}
}

func TestKept(t *testing.T) {
	srcs := []string{"%s is %s.", "Only in %s: %s", "Copy <b>%d</b>", "plain"}
	hyps := []string{"%s ist %s.", "Nur in %s", "", "schlicht"}
	if n := Kept(srcs, hyps, Options{}); n != 2 {
		t.Fatalf("Kept = %d, want 2 (a lost %%s and an empty line are not kept)", n)
	}
}
