package po

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func parseFile(t testing.TB, path string) (*Catalog, []byte) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse(bytes.NewReader(raw), path)
	if err != nil {
		t.Fatal(err)
	}
	return c, raw
}

func write(t testing.TB, c *Catalog) []byte {
	t.Helper()
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// testdata/msgcat.po is testdata/source.po as gettext's msgcat writes it.
func TestReadMsgcatOutput(t *testing.T) {
	c, raw := parseFile(t, "testdata/msgcat.po")
	if got := write(t, c); !bytes.Equal(got, raw) {
		t.Fatalf("written back differs from the file read:\n%s", got)
	}
	if len(c.Entries) != 11 {
		t.Fatalf("%d entries, want 11", len(c.Entries))
	}
	if n, err := c.NPlurals(); n != 2 || err != nil {
		t.Fatalf("NPlurals = %d, %v", n, err)
	}
	if c.HeaderField("language") != "de" {
		t.Fatalf("Language = %q", c.HeaderField("language"))
	}
	plural := c.Entries[3]
	if !plural.HasPlural || plural.IDPlural != "Copied %d files" || len(plural.Str) != 2 || !plural.HasFlag("c-format") {
		t.Fatalf("plural entry: %+v", plural)
	}
	menu := c.Entries[4]
	if !menu.HasContext || menu.Context != "menu" || menu.ID != "_Open" || menu.Str[0] != "Ö_ffnen" {
		t.Fatalf("context entry: %+v", menu)
	}
	help := c.Entries[6]
	if !help.Fuzzy() || !strings.HasPrefix(help.ID, "Usage: %s [OPTION]... FILE\nPrint the lines") || !strings.HasSuffix(help.ID, "ignore case\n") {
		t.Fatalf("multi-line fuzzy entry: %+v", help)
	}
	if got := c.Entries[7].ID; got != "Tab\there, \"quotes\" and a backslash \\." {
		t.Fatalf("escapes: %q", got)
	}
	obs := c.Entries[10]
	if !obs.Obsolete || obs.Context != "menu" || obs.ID != "Gone" || obs.Str[0] != "Weg" {
		t.Fatalf("obsolete entry: %+v", obs)
	}
}

// Changed entries are written as msgcat writes them: msgcat run on the
// output changes nothing (checked when gettext is installed).
func TestWriteChangedLikeMsgcat(t *testing.T) {
	c, raw := parseFile(t, "testdata/msgcat.po")
	c.Entries[2].SetStr([]string{"%.250s ist %s."})
	c.Entries[2].SetFlag("fuzzy", true)
	c.Entries[3].SetStr([]string{"%d Datei kopiert", "%d Dateien kopiert"})
	c.Entries[3].SetFlag("fuzzy", true)
	c.Entries[5].SetStr([]string{"Öffnen"})
	c.Entries[5].SetFlag("fuzzy", true)
	c.Entries[6].SetStr([]string{"Aufruf: %s [OPTION]... DATEI" + strings.Repeat(" und ein langer Satz, der umbrochen wird,", 3) + "\n\n  -i, --ignore-case   Groß-/Kleinschreibung ignorieren\n"})
	c.Entries[6].SetFlag("fuzzy", false)
	out := write(t, c)
	for i, e := range c.Entries {
		if i != 2 && i != 3 && i != 5 && i != 6 && !bytes.Contains(out, []byte(e.prefix+e.raw)) {
			t.Errorf("unchanged entry %d (%q) lost its bytes", i, e.ID)
		}
	}
	again, err := Parse(bytes.NewReader(out), "out.po")
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range again.Entries {
		if !reflect.DeepEqual(e.Str, c.Entries[i].Str) || e.Fuzzy() != c.Entries[i].Fuzzy() || e.ID != c.Entries[i].ID {
			t.Errorf("entry %d read back as %q fuzzy=%v", i, e.Str, e.Fuzzy())
		}
	}
	if !strings.Contains(string(out), "#, fuzzy, c-format\nmsgid \"%.250s is %s.\"") {
		t.Errorf("fuzzy flag not merged into the c-format line:\n%s", out)
	}
	if bytes.Equal(out, raw) {
		t.Fatal("nothing changed")
	}
	if _, err := exec.LookPath("msgcat"); err != nil {
		t.Skip("gettext's msgcat is not installed: layout not compared")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "out.po")
	if err := os.WriteFile(p, out, 0o644); err != nil {
		t.Fatal(err)
	}
	cat, err := exec.Command("msgcat", p).Output()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(cat, out) {
		t.Fatalf("msgcat rewrites the output:\n--- ours\n%s\n--- msgcat\n%s", out, cat)
	}
	if msg, err := exec.Command("msgfmt", "--check", "--use-fuzzy", "-o", os.DevNull, p).CombinedOutput(); err != nil {
		t.Fatalf("msgfmt --check: %v\n%s", err, msg)
	}
}

// The committed testdata is what msgcat makes of source.po today.
func TestTestdataIsMsgcatOutput(t *testing.T) {
	if _, err := exec.LookPath("msgcat"); err != nil {
		t.Skip("gettext's msgcat is not installed")
	}
	out, err := exec.Command("msgcat", "testdata/source.po").Output()
	if err != nil {
		t.Fatal(err)
	}
	_, raw := parseFile(t, "testdata/msgcat.po")
	if !bytes.Equal(out, raw) {
		t.Fatal("msgcat testdata/source.po differs from testdata/msgcat.po: regenerate with msgcat testdata/source.po -o testdata/msgcat.po")
	}
}

func TestSyntaxErrors(t *testing.T) {
	cases := map[string]string{
		"msgid \"a\"\n":                                      "in.po:1: entry of line 1 ends without msgstr",
		"msgid \"a\"\nmsgstr \"b\nmore\n":                    "in.po:2: msgstr: want a string in double quotes",
		"msgid \"a\"\nmsgstr[0] \"b\"\n":                     "in.po:1: msgid without msgstr",
		"msgid \"a\"\nmsgid_plural \"b\"\nmsgstr[1] \"c\"\n": "in.po:3: msgstr[1]: want msgstr[0]",
		"msgid \"a\"\nmsgstr \"\\q\"\n":                      `in.po:2: msgstr: unknown escape \q`,
		"msgid \"a\"\nfoo \"b\"\n":                           `in.po:2: unknown keyword "foo"`,
		"\"a\"\n":                                            "in.po:1: string without a keyword",
		"msgid \"a\"\nmsgstr \"\xff\"\n":                     "in.po:2: invalid UTF-8",
		"msgid \"a\"\n# c\nmsgstr \"b\"\n":                   "in.po:2: comment inside an entry",
	}
	for in, want := range cases {
		_, err := Parse(strings.NewReader(in), "in.po")
		var pe *Error
		if err == nil || !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("Parse(%q) = %v; want %q...", in, err, want)
		}
	}
}

func TestRoundTripOddLayouts(t *testing.T) {
	for _, in := range []string{
		"",
		"\n\n",
		"msgid \"a\"\r\nmsgstr \"b\"\r\n",
		"msgid \"a\"\nmsgstr \"b\"",
		"# only a comment\n",
		"msgid \"a\"\nmsgstr \"b\"\n\n# trailing comment\n",
		"  msgid   \"a\"  \n msgstr \"\" \"b\"\n",
	} {
		c, err := Parse(strings.NewReader(in), "in.po")
		if err != nil {
			t.Errorf("Parse(%q): %v", in, err)
			continue
		}
		if got := string(write(t, c)); got != in {
			t.Errorf("round trip of %q gave %q", in, got)
		}
	}
}

// FuzzParse: any input parses or fails with a *Error; what parses writes
// back byte for byte, and an entry rewritten after SetStr reads back with
// the same strings.
func FuzzParse(f *testing.F) {
	raw, err := os.ReadFile("testdata/msgcat.po")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(raw)
	f.Add([]byte("msgid \"a\"\nmsgid_plural \"b\"\nmsgstr[0] \"\\x41\\101\"\n#~ msgid \"o\"\n#~ msgstr \"p\"\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		c, err := Parse(bytes.NewReader(in), "f.po")
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *Error", err)
			}
			return
		}
		if got := write(t, c); !bytes.Equal(got, in) {
			t.Fatalf("round trip: %q gave %q", in, got)
		}
		for _, e := range c.Entries {
			e.SetStr(append([]string{"x\"\\\n\ty"}, e.Str[1:]...))
			e.SetFlag("fuzzy", true)
		}
		again, err := Parse(bytes.NewReader(write(t, c)), "f2.po")
		if err != nil {
			t.Fatalf("rewritten catalogue does not parse: %v\n%s", err, write(t, c))
		}
		if len(again.Entries) != len(c.Entries) {
			t.Fatalf("%d entries read back, want %d", len(again.Entries), len(c.Entries))
		}
		for i, e := range again.Entries {
			if !reflect.DeepEqual(e.Str, c.Entries[i].Str) || !e.Fuzzy() {
				t.Fatalf("entry %d read back as %q", i, e.Str)
			}
		}
	})
}

// Every catalogue installed in /usr/share/locale/de, turned back into PO by
// gettext's msgunfmt, reads and writes back byte for byte.
func TestRoundTripInstalledCatalogues(t *testing.T) {
	if _, err := exec.LookPath("msgunfmt"); err != nil {
		t.Skip("gettext's msgunfmt is not installed")
	}
	mos, _ := filepath.Glob("/usr/share/locale/de/LC_MESSAGES/*.mo")
	if len(mos) == 0 {
		t.Skip("no catalogue in /usr/share/locale/de/LC_MESSAGES")
	}
	if len(mos) > 8 { // msgunfmt is slow on a busy machine; eight of them cover the layouts
		mos = mos[:8]
	}
	for _, mo := range mos {
		out, err := exec.Command("msgunfmt", mo).Output()
		if err != nil {
			t.Logf("msgunfmt %s: %v (skipped)", mo, err)
			continue
		}
		c, err := Parse(bytes.NewReader(out), mo)
		if err != nil && strings.Contains(err.Error(), "msgconv --to-code=UTF-8") && !utf8.Valid(out) {
			continue // a Latin-1 catalogue: refused with the advice to convert it
		}
		if err != nil {
			t.Errorf("%s: %v", mo, err)
			continue
		}
		if got := write(t, c); !bytes.Equal(got, out) {
			t.Errorf("%s: written back differs", mo)
		}
	}
}
