package pretranslate

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/catalog/markup"
	"github.com/strata-nmt/strata/catalog/placeholder"
	"github.com/strata-nmt/strata/catalog/po"
	"github.com/strata-nmt/strata/catalog/tmx"
	"github.com/strata-nmt/strata/catalog/xliff"
)

// fakeMT "translates" by a table, else upper-cases the line; it records
// what it was asked.
type fakeMT struct {
	table map[string]string
	asked []string
}

func (f *fakeMT) Translate(_ context.Context, _, _ string, lines []string) ([]string, error) {
	out := make([]string, len(lines))
	for i, l := range lines {
		f.asked = append(f.asked, l)
		if t, ok := f.table[l]; ok {
			out[i] = t
		} else {
			out[i] = strings.ToUpper(l)
		}
	}
	return out, nil
}

func TestStringsKeepsLayoutAndRefusesBrokenOutput(t *testing.T) {
	mt := &fakeMT{table: map[string]string{
		"{1} is {2}.":         "{1} ist {2}.",
		"Only in {1}: {2}":    "Nur in {1}",   // lost %s
		"Written by {1}.":     "Von {1} {1}.", // duplicated
		"Copy {1} to {2}":     "{2} nach {1}", // reordered
		"Usage: {1} [OPTION]": "Aufruf: {1} [OPTION]",
		"Print lines.":        "Zeilen ausgeben.",
	}}
	texts := []string{"%.250s is %s.", "Only in %s: %s", "Written by %s.", "Copy %s to %s", "Usage: %s [OPTION]\n  Print lines.\n\n", "%s: %s\n"}
	outs, err := Strings(context.Background(), mt, texts, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"%.250s ist %s.", "", "", "", "Aufruf: %s [OPTION]\n  Zeilen ausgeben.\n\n", "%s: %s\n"}
	for i, o := range outs {
		if o.Text != want[i] || (want[i] == "") != (o.Err != nil) {
			t.Errorf("%q: got %q, %v; want %q", texts[i], o.Text, o.Err, want[i])
		}
	}
	for _, a := range mt.asked {
		if strings.Contains(a, "%") || strings.HasPrefix(a, " ") || strings.Contains(a, "\n") {
			t.Errorf("the model was asked %q: placeholders, blanks or line breaks not masked", a)
		}
	}
}

func TestPOFillsPluralsAndKeepsContext(t *testing.T) {
	raw, err := os.ReadFile("../po/testdata/msgcat.po")
	if err != nil {
		t.Fatal(err)
	}
	c, err := po.Parse(bytes.NewReader(raw), "msgcat.po")
	if err != nil {
		t.Fatal(err)
	}
	mt := &fakeMT{table: map[string]string{
		"{1} is {2}.":                          "{1} ist {2}.",
		"Copied {1} file":                      "{1} Datei kopiert",
		"Copied {1} files":                     "{1} Dateien kopiert",
		"Open":                                 "Öffnen",
		"Hello {1}, you have {2} new messages": "Hallo {1}, neue Nachrichten",
	}}
	r, err := PO(context.Background(), mt, c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Units != 8 || r.Candidates != 5 || r.Translated != 4 || len(r.Failed) != 1 {
		var b bytes.Buffer
		r.Write(&b)
		t.Fatalf("report: %+v\n%s", r, b.String())
	}
	e := c.Entries[3]
	if got := strings.Join(e.Str, "|"); got != "%d Datei kopiert|%d Dateien kopiert" || !e.Fuzzy() || !e.HasFlag("c-format") {
		t.Errorf("plural entry: %q fuzzy=%v", got, e.Fuzzy())
	}
	if e := c.Entries[5]; e.Str[0] != "Öffnen" || e.Context != "verb" || !e.Fuzzy() {
		t.Errorf("context entry: %+v", e)
	}
	if e := c.Entries[6]; e.Str[0] != "Aufruf: %s [OPTION]...\n" {
		t.Errorf("a fuzzy entry was retranslated without Fuzzy: %q", e.Str[0])
	}
	if e := c.Entries[7]; e.Str[0] != `TAB	HERE, "QUOTES" AND A BACKSLASH \.` {
		t.Errorf("tab entry: %q", e.Str[0])
	}
	var out bytes.Buffer
	if _, err := c.WriteTo(&out); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("msgfmt"); err != nil {
		t.Skip("gettext's msgfmt is not installed")
	}
	p := filepath.Join(t.TempDir(), "de.po")
	if err := os.WriteFile(p, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command("msgfmt", "--check", "--use-fuzzy", "-o", os.DevNull, p).CombinedOutput(); err != nil {
		t.Fatalf("msgfmt --check --use-fuzzy: %v\n%s", err, msg)
	}
}

func TestPOOnePluralForm(t *testing.T) {
	in := "msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=UTF-8\\nPlural-Forms: nplurals=1; plural=0;\\n\"\n\nmsgid \"a file\"\nmsgid_plural \"files\"\nmsgstr[0] \"\"\nmsgstr[1] \"\"\n"
	c, err := po.Parse(strings.NewReader(in), "ja.po")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := PO(context.Background(), &fakeMT{}, c, Options{}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Entries[1].Str, "|"); got != "FILES" {
		t.Fatalf("nplurals=1: %q", got)
	}
}

func TestPOAcceleratorFromHeader(t *testing.T) {
	in := "msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=UTF-8\\nX-Accelerator-Marker: &\\n\"\n\nmsgid \"&File\"\nmsgstr \"\"\n"
	c, err := po.Parse(strings.NewReader(in), "kde.po")
	if err != nil {
		t.Fatal(err)
	}
	mt := &fakeMT{table: map[string]string{"File": "Datei"}}
	if _, err := PO(context.Background(), mt, c, Options{}); err != nil {
		t.Fatal(err)
	}
	if got := c.Entries[1].Str[0]; got != "&Datei" {
		t.Fatalf("got %q", got)
	}
}

func TestXLIFFAndTMX(t *testing.T) {
	raw, err := os.ReadFile("../xliff/testdata/xliff20.xlf")
	if err != nil {
		t.Fatal(err)
	}
	d, err := xliff.Parse(bytes.NewReader(raw), "x.xlf", placeholder.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mt := &fakeMT{table: map[string]string{
		"Delete {1}{2} files{3} from {4}?": "{1}{2} Dateien{3} aus {4} löschen?",
		"Tom & Jerry <3 {1}":               "Tom & Jerry {1}", // lost nothing but "<3": fine
	}}
	r, err := XLIFF(context.Background(), mt, d, Options{Src: "en", Tgt: "de"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Units != 3 || r.Done != 1 || r.Translated != 2 || len(r.Failed) != 0 {
		t.Fatalf("report %+v", r)
	}
	var out bytes.Buffer
	if _, err := d.WriteTo(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `<target><pc id="1">%d Dateien</pc> aus <ph id="2" equiv="{0}"/> löschen?</target>`) ||
		!strings.Contains(out.String(), `<target>Tom &amp; Jerry <cp hex="2764"/></target>`) {
		t.Fatalf("output:\n%s", out.String())
	}

	raw, err = os.ReadFile("../tmx/testdata/tmx14.tmx")
	if err != nil {
		t.Fatal(err)
	}
	m, err := tmx.Parse(bytes.NewReader(raw), "m.tmx", placeholder.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mt = &fakeMT{table: map[string]string{"Line{1}break & more": "Zeilen{1}{1}umbruch"}} // duplicated
	r, err = TMX(context.Background(), mt, m, Options{Src: "en", Tgt: "de"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Units != 2 || r.Done != 1 || r.Translated != 0 || len(r.Failed) != 1 {
		t.Fatalf("report %+v", r)
	}
}

func TestHTML(t *testing.T) {
	src := `<p>Open <a href="/f"><em>the</em> file</a> now. Then close it.</p><img src=x alt="A file">`
	d, err := markup.Parse([]byte(src), "p.html", placeholder.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mt := &fakeMT{table: map[string]string{
		"Open {1}{2}the{3} file{4} now.": "Öffne jetzt {1}{2}die{3} Datei{4}.",
		"Then close it.":                 "Dann {1} schließen.", // invented a sentinel
		"A file":                         "Eine Datei",
	}}
	r, err := HTML(context.Background(), mt, d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Units != 3 || r.Translated != 2 || len(r.Failed) != 1 || r.Failed[0].ID != "Then close it." {
		t.Fatalf("report %+v", r)
	}
	var out bytes.Buffer
	d.WriteTo(&out)
	if want := `<p>Öffne jetzt <a href="/f"><em>die</em> Datei</a>. Then close it.</p><img src=x alt="Eine Datei">`; out.String() != want {
		t.Fatalf("got  %s\nwant %s", out.String(), want)
	}
}

func TestLinesLeavesBrokenOutputEmpty(t *testing.T) {
	mt := &fakeMT{table: map[string]string{"{1} is {2}.": "{1} ist {2}.", "Only in {1}: {2}": "Nur in {1}"}}
	outs, r, err := Lines(context.Background(), mt, "test.en", []string{"%.250s is %s.", "Only in %s: %s", ""}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(outs, "|") != "%.250s ist %s.||" || r.Candidates != 2 || r.Translated != 1 || len(r.Failed) != 1 || r.Failed[0].Line != 2 {
		t.Fatalf("outputs %q, report %+v", outs, r)
	}
}
