package mo

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// FuzzParse: any bytes give a catalogue whose strings are valid UTF-8 and
// whose every message has at least one msgstr, or an error; never a panic
// or an allocation larger than the input. Seeds: the two msgfmt outputs in
// testdata and a built file with a context, plurals and a Latin-1 header.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"de-le.mo", "de-be.mo"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add(build(binary.BigEndian, 0, "", "Content-Type: text/plain; charset=ISO-8859-1\n", "c\x04a\x00b", "\xe4\x00\xf6"))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := Parse("fuzz.mo", b)
		if err != nil {
			return
		}
		for i, m := range c.Messages {
			if len(m.Str) == 0 {
				t.Fatalf("message %d has no msgstr", i)
			}
			for _, s := range append([]string{m.Context, m.ID, m.Plural}, m.Str...) {
				if !utf8.ValidString(s) {
					t.Fatalf("message %d: invalid UTF-8 %q", i, s)
				}
			}
		}
	})
}
