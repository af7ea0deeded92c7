package tmx

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/catalog/placeholder"
)

func parseFile(t testing.TB, path string) (*Memory, []byte) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Parse(bytes.NewReader(raw), path, placeholder.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return m, raw
}

func write(t testing.TB, m *Memory) []byte {
	t.Helper()
	var b bytes.Buffer
	if _, err := m.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// testdata/po2tmx.tmx is translate-toolkit's po2tmx -l de of small.po: it
// keeps translated, non-fuzzy entries and the first plural form.
func TestReadPo2tmx(t *testing.T) {
	m, raw := parseFile(t, "testdata/po2tmx.tmx")
	if len(m.Units) != 3 {
		t.Fatalf("%d units", len(m.Units))
	}
	u := m.Units[0]
	if en, de := u.Variant("en"), u.Variant("de"); en == nil || de == nil || en.Text != "%s: cannot open file: %s\n" || de.Text != "%s: Datei kann nicht geöffnet werden: %s\n" {
		t.Fatalf("unit 0: %+v", u.Variants)
	}
	if !bytes.Equal(write(t, m), raw) {
		t.Fatal("written back differs")
	}
}

func TestReadInlineAndAddVariant(t *testing.T) {
	m, raw := parseFile(t, "testdata/tmx14.tmx")
	en, de := m.Units[0].Variant("en"), m.Units[0].Variant("de")
	if en.Text != "Click Save to keep all changes." || en.Kept != "Click <b>Save</b> to keep all changes." || !strings.HasPrefix(de.Kept, "Klicken Sie auf <b>Speichern</b>") {
		t.Fatalf("inline: %+v %+v", en, de)
	}
	v := m.Units[1].Variant("en")
	if v == nil || v.Text != "Linebreak & more" || v.Kept != "Line<br/>break & more" {
		t.Fatalf("TMX 1.1 lang attribute, ph: %+v", v)
	}
	mk := v.Masked()
	if mk.Text != "Line{1}break & more" {
		t.Fatalf("masked %s", mk)
	}
	inner, err := mk.Unmask("Zeilen{1}umbruch & mehr")
	if err != nil {
		t.Fatal(err)
	}
	m.Units[1].AddVariant("de-DE", inner)
	out := string(write(t, m))
	want := `<tuv lang="EN"><seg>Line<ph x="1">&lt;br/&gt;</ph>break &amp; more</seg></tuv>
      <tuv xml:lang="de-DE">` + ReviewProp + `<seg>Zeilen<ph x="1">&lt;br/&gt;</ph>umbruch &amp; mehr</seg></tuv>
    </tu>`
	if !strings.Contains(out, want) {
		t.Fatalf("output:\n%s", out)
	}
	if !strings.HasPrefix(out, string(raw[:200])) {
		t.Fatal("bytes before the change differ")
	}
}

func TestErrors(t *testing.T) {
	cases := map[string]string{
		"<xliff/>":                  "m.tmx:1: no <tmx> element",
		`<?xml version="0"?><tmx/>`: `m.tmx:1: xml: unsupported version "0"`,
		"<tmx>\n<body><tu><tuv><seg>x</seg></tuv></tu></body></tmx>":                         "m.tmx:2: <tuv> without xml:lang",
		"<tmx><body>\n<tu><tuv xml:lang=\"en\"><seg>x<g>y</g></seg></tuv></tu></body></tmx>": "m.tmx:2: <seg>: unknown inline element <g>",
		"<tmx><body>\n<tu>\n</body></tmx>":                                                   "m.tmx:3: XML:",
	}
	for in, want := range cases {
		_, err := Parse(strings.NewReader(in), "m.tmx", placeholder.Options{})
		var e *Error
		if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Parse(%q) = %v; want %q", in, err, want)
		}
	}
}

// The committed po2tmx.tmx is what translate-toolkit writes today (its
// version attribute aside).
func TestTestdataIsPo2tmxOutput(t *testing.T) {
	if _, err := exec.LookPath("po2tmx"); err != nil {
		t.Skip("translate-toolkit's po2tmx is not installed")
	}
	out := filepath.Join(t.TempDir(), "out.tmx")
	cmd := exec.Command("po2tmx", "-l", "de", "small.po", out)
	cmd.Dir = "testdata"
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("po2tmx: %v\n%s", err, msg)
	}
	got, _ := os.ReadFile(out)
	want, _ := os.ReadFile("testdata/po2tmx.tmx")
	version := regexp.MustCompile(`creationtoolversion="[^"]*"`)
	if !bytes.Equal(version.ReplaceAll(got, nil), version.ReplaceAll(want, nil)) {
		t.Fatalf("po2tmx output changed; regenerate with (cd testdata && po2tmx -l de small.po po2tmx.tmx):\n%s", got)
	}
}

// FuzzRead: any input parses or fails with an *Error; what parses writes
// back unchanged, and with a variant added to every unit parses again with
// one more variant each.
func FuzzRead(f *testing.F) {
	for _, p := range []string{"testdata/po2tmx.tmx", "testdata/tmx14.tmx"} {
		raw, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		m, err := Parse(bytes.NewReader(in), "f.tmx", placeholder.Options{})
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		if !bytes.Equal(write(t, m), in) {
			t.Fatal("round trip changed the memory")
		}
		n := 0
		for _, u := range m.Units {
			if len(u.Variants) == 0 {
				continue
			}
			mk := u.Variants[0].Masked()
			inner, err := mk.Unmask(mk.Text)
			if err != nil {
				t.Fatalf("unit %s: %v", u.ID, err)
			}
			u.AddVariant("qq", inner)
			n++
		}
		again, err := Parse(bytes.NewReader(write(t, m)), "f2.tmx", placeholder.Options{})
		if err != nil {
			t.Fatalf("written memory does not parse: %v", err)
		}
		got := 0
		for _, u := range again.Units {
			if u.Variant("qq") != nil {
				got++
			}
		}
		if got != n {
			t.Fatalf("%d variants read back, want %d", got, n)
		}
	})
}
