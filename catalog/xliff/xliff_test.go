package xliff

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/catalog/placeholder"
)

func parseFile(t testing.TB, path string) (*Doc, []byte) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Parse(bytes.NewReader(raw), path, placeholder.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return d, raw
}

func write(t testing.TB, d *Doc) []byte {
	t.Helper()
	var b bytes.Buffer
	if _, err := d.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// testdata/po2xliff.xlf is translate-toolkit's po2xliff of small.po.
func TestReadPo2xliff(t *testing.T) {
	d, raw := parseFile(t, "testdata/po2xliff.xlf")
	if d.Version != "1.2" || len(d.Units) != 7 {
		t.Fatalf("version %s, %d units", d.Version, len(d.Units))
	}
	u := d.Units[1]
	if u.Source != "%s: cannot open file: %s\n" || u.Target != "%s: Datei kann nicht geöffnet werden: %s\n" || u.State != "translated" || u.SrcLang != "en-US" {
		t.Fatalf("unit 1: %+v", u)
	}
	if u := d.Units[2]; u.Source != "%.250s is %s." || !u.HasTarget || u.Target != "" || u.State != "" {
		t.Fatalf("unit 2: %+v", u)
	}
	if u := d.Units[4]; u.Source != "Click <b>Save</b> & exit" || u.State != "needs-translation" {
		t.Fatalf("unit 4: %+v", u)
	}
	if u := d.Units[6]; u.ID != "7[1]" || u.Target != "%d Dateien kopiert" {
		t.Fatalf("plural unit: %+v", u)
	}
	if !bytes.Equal(write(t, d), raw) {
		t.Fatal("written back differs")
	}
	d.Units[2].SetTarget("%.250s ist %s.")
	out := string(write(t, d))
	if !strings.Contains(out, `<source>%.250s is %s.</source>
        <target state="needs-review-translation">%.250s ist %s.</target>`) {
		t.Fatalf("target not replaced:\n%s", out)
	}
	if strings.Count(out, "\n") != strings.Count(string(raw), "\n") {
		t.Fatal("other lines changed")
	}
}

func TestReadXLIFF20(t *testing.T) {
	d, raw := parseFile(t, "testdata/xliff20.xlf")
	if d.Version != "2.0" || len(d.Units) != 4 {
		t.Fatalf("version %s, %d units: %+v", d.Version, len(d.Units), d.Units)
	}
	want := []struct{ id, src, tgt, state string }{
		{"u1/s1", "Save the file", "Datei speichern", "final"},
		{"u2/s2", "Delete %d files from ?", "", ""},
		{"u2/s3", "Tom & Jerry <3 ❤", "", "initial"},
		{"u3", "strata", "", ""},
	}
	for i, w := range want {
		u := d.Units[i]
		if u.ID != w.id || u.Source != w.src || u.Target != w.tgt || u.State != w.state || u.SrcLang != "en" || u.TgtLang != "de" {
			t.Errorf("unit %d: %+v, want %+v", i, u, w)
		}
	}
	if d.Units[3].Translate {
		t.Error("translate=no unit is translatable")
	}
	m := d.Units[1].Masked()
	if m.Text != "Delete {1}{2} files{3} from {4}?" {
		t.Fatalf("masked %s", m)
	}
	inner, err := m.Unmask("{4}: {1}{2} Dateien{3} löschen? <ok> & fertig")
	if err != nil {
		t.Fatal(err)
	}
	d.Units[1].SetTarget(inner)
	m = d.Units[2].Masked()
	if m.Text != "Tom & Jerry <3 {1}" {
		t.Fatalf("masked %s", m)
	}
	inner, err = m.Unmask("Tom & Jerry <3 {1}")
	if err != nil {
		t.Fatal(err)
	}
	d.Units[2].SetTarget(inner)
	out := string(write(t, d))
	for _, s := range []string{
		`<segment id="s2" state="translated" subState="strata:machine-translation">
        <source>Delete <pc id="1">%d files</pc> from <ph id="2" equiv="{0}"/>?</source>
        <target><ph id="2" equiv="{0}"/>: <pc id="1">%d Dateien</pc> löschen? &lt;ok&gt; &amp; fertig</target>`,
		`<segment id="s3" state="translated" subState="strata:machine-translation">`,
		`<target>Tom &amp; Jerry &lt;3 <cp hex="2764"/></target>`,
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %s:\n%s", s, out)
		}
	}
	again, err := Parse(strings.NewReader(out), "out.xlf", placeholder.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if u := again.Units[1]; u.Target != ": %d Dateien löschen? <ok> & fertig" || u.State != "translated" {
		t.Fatalf("read back: %+v", u)
	}
	_ = raw
}

func TestErrors(t *testing.T) {
	cases := map[string]string{
		"<html/>": "x.xlf:1: no <xliff> element",
		`<?xml version="0"?><xliff version="1.2"/>`: `x.xlf:1: xml: unsupported version "0"`,
		`<xliff version="3.0"/>`:                    "x.xlf:1: <xliff version=\"3.0\">: want 1.2 or 2.x",
		"<xliff version=\"1.2\">\n<file><body><trans-unit id=\"a\"><source>x<b>y</b></source></trans-unit></body></file></xliff>": "x.xlf:2: <source>: unknown inline element <b>",
		"<xliff version=\"1.2\">\n<file>\n<body></file>":                                              "x.xlf:3: XML:",
		"<xliff version=\"1.2\"><file><body><trans-unit id=\"a\"></trans-unit></body></file></xliff>": "x.xlf:1: <trans-unit> without <source>",
	}
	for in, want := range cases {
		_, err := Parse(strings.NewReader(in), "x.xlf", placeholder.Options{})
		var e *Error
		if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Parse(%q) = %v; want %q", in, err, want)
		}
	}
}

// The committed po2xliff.xlf is what translate-toolkit writes today.
func TestTestdataIsPo2xliffOutput(t *testing.T) {
	if _, err := exec.LookPath("po2xliff"); err != nil {
		t.Skip("translate-toolkit's po2xliff is not installed")
	}
	out := filepath.Join(t.TempDir(), "out.xlf")
	cmd := exec.Command("po2xliff", "small.po", out)
	cmd.Dir = "testdata"
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("po2xliff: %v\n%s", err, msg)
	}
	got, _ := os.ReadFile(out)
	want, _ := os.ReadFile("testdata/po2xliff.xlf")
	if !bytes.Equal(got, want) {
		t.Fatalf("po2xliff output changed; regenerate with (cd testdata && po2xliff small.po po2xliff.xlf):\n%s", got)
	}
}

// FuzzParse: any input parses or fails with an *Error; what parses writes
// back unchanged, and setting every target with its masked source gives a
// document that parses again with the same number of units.
func FuzzParse(f *testing.F) {
	for _, p := range []string{"testdata/po2xliff.xlf", "testdata/xliff20.xlf"} {
		raw, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		d, err := Parse(bytes.NewReader(in), "f.xlf", placeholder.Options{})
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		if !bytes.Equal(write(t, d), in) {
			t.Fatal("round trip changed the document")
		}
		for _, u := range d.Units {
			m := u.Masked()
			inner, err := m.Unmask(m.Text)
			if err != nil {
				t.Fatalf("unit %s: %v", u.ID, err)
			}
			u.SetTarget(inner)
		}
		out := write(t, d)
		again, err := Parse(bytes.NewReader(out), "f2.xlf", placeholder.Options{})
		if err != nil {
			t.Fatalf("written document does not parse: %v\n%s", err, out)
		}
		if len(again.Units) != len(d.Units) {
			t.Fatalf("%d units read back, want %d", len(again.Units), len(d.Units))
		}
	})
}
