package mo

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// wantDE is what testdata/de.po holds once msgfmt has compiled it: no
// header (returned apart), no untranslated or fuzzy entry, sorted by
// context+EOT+msgid as msgfmt sorts.
var wantDE = []Message{
	{ID: "%d file", Plural: "%d files", Str: []string{"%d Datei", "%d Dateien"}},
	{ID: "Line one\nline two", Str: []string{"Zeile eins\nZeile zwei"}},
	{ID: "Open", Str: []string{"Öffnen"}},
	{Context: "menu", ID: "File", Str: []string{"Datei"}},
	{Context: "noun", ID: "Open", Str: []string{"Offen"}},
	{Context: "status", ID: "One item selected", Plural: "%d items selected", Str: []string{"Ein Element ausgewählt", "%d Elemente ausgewählt"}},
}

func checkDE(t *testing.T, c *Catalog, order binary.ByteOrder) {
	t.Helper()
	if c.ByteOrder != order {
		t.Errorf("byte order %v, want %v", c.ByteOrder, order)
	}
	if c.Charset != "UTF-8" || !strings.Contains(c.Header, "Plural-Forms: nplurals=2; plural=(n != 1);") {
		t.Errorf("charset %q, header %q", c.Charset, c.Header)
	}
	if !reflect.DeepEqual(c.Messages, wantDE) {
		t.Errorf("messages:\n got %q\nwant %q", c.Messages, wantDE)
	}
}

func TestReadMsgfmtOutput(t *testing.T) {
	for file, order := range map[string]binary.ByteOrder{"de-le.mo": binary.LittleEndian, "de-be.mo": binary.BigEndian} {
		t.Run(file, func(t *testing.T) {
			c, err := ReadFile(filepath.Join("testdata", file))
			if err != nil {
				t.Fatal(err)
			}
			checkDE(t, c, order)
		})
	}
}

// TestMsgfmtRegenerates compiles testdata/de.po with the installed msgfmt
// and reads the result, so the reader is checked against the real tool's
// current output, not only the committed files.
func TestMsgfmtRegenerates(t *testing.T) {
	msgfmt, err := exec.LookPath("msgfmt")
	if err != nil {
		t.Skip("msgfmt not installed (Debian: apt-get install gettext); the committed .mo files are still tested")
	}
	dir := t.TempDir()
	for _, e := range []struct {
		name  string
		order binary.ByteOrder
	}{{"little", binary.LittleEndian}, {"big", binary.BigEndian}} {
		out := filepath.Join(dir, e.name+".mo")
		cmd := exec.Command(msgfmt, "--endianness="+e.name, "-o", out, filepath.Join("testdata", "de.po"))
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("msgfmt: %v\n%s", err, b)
		}
		c, err := ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		checkDE(t, c, e.order)
		fresh, _ := os.ReadFile(out)
		committed, _ := os.ReadFile(filepath.Join("testdata", "de-"+e.name[:1]+"e.mo"))
		if !bytes.Equal(fresh, committed) {
			t.Logf("%s-endian output of this msgfmt differs from the committed file (another gettext version); both read the same", e.name)
		}
	}
}

// build writes an MO file of the given raw key/value strings (keys must
// be in the order wanted in the file), with no hash table.
func build(order binary.ByteOrder, rev uint32, kv ...string) []byte {
	n := len(kv) / 2
	origOff := headerSize
	transOff := origOff + 8*n
	strOff := transOff + 8*n
	var strs bytes.Buffer
	desc := make([]byte, 16*n)
	for i := 0; i < len(kv); i++ {
		msg, table := i/2, i%2
		at := 8*msg + 8*n*table
		order.PutUint32(desc[at:], uint32(len(kv[i])))
		order.PutUint32(desc[at+4:], uint32(strOff+strs.Len()))
		strs.WriteString(kv[i])
		strs.WriteByte(0)
	}
	// interleaved orig/trans pairs in the descriptor tables
	h := make([]byte, headerSize)
	for i, v := range []uint32{Magic, rev, uint32(n), uint32(origOff), uint32(transOff), 0, 0} {
		order.PutUint32(h[4*i:], v)
	}
	return append(append(h, desc...), strs.Bytes()...)
}

func TestBuildMatchesReader(t *testing.T) {
	b := build(binary.BigEndian, 0, "", "Content-Type: text/plain; charset=UTF-8\n", "ctx\x04a\x00as", "x\x00y\x00z")
	c, err := Parse("built", b)
	if err != nil {
		t.Fatal(err)
	}
	want := []Message{{Context: "ctx", ID: "a", Plural: "as", Str: []string{"x", "y", "z"}}}
	if !reflect.DeepEqual(c.Messages, want) {
		t.Fatalf("got %q, want %q", c.Messages, want)
	}
}

func TestCharsetConverted(t *testing.T) {
	b := build(binary.LittleEndian, 0, "", "Content-Type: text/plain; charset=ISO-8859-1\n", "Open", "\xd6ffnen")
	c, err := Parse("latin1", b)
	if err != nil {
		t.Fatal(err)
	}
	if c.Messages[0].Str[0] != "Öffnen" {
		t.Fatalf("got %q, want Öffnen", c.Messages[0].Str[0])
	}
}

func TestRevisionOneMinorAccepted(t *testing.T) {
	if _, err := Parse("rev", build(binary.LittleEndian, 1<<16|1, "a", "b")); err != nil {
		t.Fatal(err)
	}
}

func TestCorruptFilesRejected(t *testing.T) {
	good := build(binary.LittleEndian, 0, "a", "b")
	badMagic := append([]byte{}, good...)
	badMagic[0] = 0
	badRev := build(binary.LittleEndian, 2<<16, "a", "b")
	noNUL := append([]byte{}, good...)
	noNUL[len(noNUL)-1] = 'x'
	hugeN := append([]byte{}, good...)
	binary.LittleEndian.PutUint32(hugeN[8:], 1<<30)
	pastEnd := append([]byte{}, good...)
	binary.LittleEndian.PutUint32(pastEnd[headerSize:], 1000)
	badUTF8 := build(binary.LittleEndian, 0, "a", "\xff")
	badCharset := build(binary.LittleEndian, 0, "", "Content-Type: text/plain; charset=KLINGON\n")
	for _, c := range []struct {
		name string
		b    []byte
		want string
	}{
		{"short", good[:10], "truncated: 10 bytes"},
		{"bad magic", badMagic, "not an MO file"},
		{"revision 2", badRev, "revision 2.0"},
		{"no NUL", noNUL, "not followed by a NUL"},
		{"huge count", hugeN, "original string table (1073741824 entries at offset 28)"},
		{"string past end", pastEnd, "original string 0 (1000 bytes"},
		{"truncated strings", good[:len(good)-3], "past the end of the file"},
		{"invalid UTF-8", badUTF8, "message 0: invalid UTF-8"},
		{"unknown charset", badCharset, `charset "KLINGON"`},
	} {
		_, err := Parse("x.mo", c.b)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "x.mo: ") {
			t.Errorf("%s: error %v, want one starting x.mo: and containing %q", c.name, err, c.want)
		}
	}
}

// TestEveryTruncationRejected: any strict prefix of a real file is an
// error, never a catalogue missing entries silently.
func TestEveryTruncationRejected(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "de-le.mo"))
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(b); n++ {
		if _, err := Parse("p", b[:n]); err == nil {
			t.Fatalf("prefix of %d of %d bytes parsed without error", n, len(b))
		}
	}
}

func TestReadSizeLimit(t *testing.T) {
	b := build(binary.LittleEndian, 0, "a", "b")
	if _, err := Read("s.mo", bytes.NewReader(b), int64(len(b))); err != nil {
		t.Fatalf("at the limit: %v", err)
	}
	_, err := Read("s.mo", bytes.NewReader(b), int64(len(b)-1))
	if err == nil || !strings.Contains(err.Error(), "larger than the limit") {
		t.Fatalf("over the limit: %v", err)
	}
}
