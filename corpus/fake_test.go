package corpus

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"sort"
)

// fakeSource serves packages from memory: name -> file path -> content.
type fakeSource struct {
	pkgs    map[string]map[string][]byte
	version string
	fetched int
}

func (f *fakeSource) Fetch(_ context.Context, want map[string]string, _ string) ([]Package, []string, error) {
	var got []Package
	var missing []string
	for _, name := range sortedKeys(want) {
		files, ok := f.pkgs[name]
		if !ok || (want[name] != "" && want[name] != f.version) {
			missing = append(missing, name)
			continue
		}
		h := sha256.New()
		for _, p := range sortedKeys(files) {
			h.Write([]byte(p))
			h.Write(files[p])
		}
		got = append(got, Package{Name: name, Version: f.version, Architecture: "all", SHA256: hex.EncodeToString(h.Sum(nil))})
		f.fetched++
	}
	return got, missing, nil
}

func (f *fakeSource) Walk(_ context.Context, p Package, fn WalkFunc) error {
	files := f.pkgs[p.Name]
	for _, path := range sortedKeys(files) {
		if err := fn(path, int64(len(files[path])), bytes.NewReader(files[path])); err != nil {
			return err
		}
	}
	return nil
}

// moFile writes a little-endian MO file of msgid/msgstr pairs (sorted as
// msgfmt sorts them), with a UTF-8 header.
func moFile(kv ...string) []byte {
	type entry struct{ k, v string }
	es := []entry{{"", "Content-Type: text/plain; charset=UTF-8\n"}}
	for i := 0; i < len(kv); i += 2 {
		es = append(es, entry{kv[i], kv[i+1]})
	}
	sort.Slice(es, func(i, j int) bool { return es[i].k < es[j].k })
	n := len(es)
	var strs bytes.Buffer
	desc := make([]byte, 16*n)
	base := 28 + 16*n
	for i, e := range es {
		for t, s := range []string{e.k, e.v} {
			at := 8*i + 8*n*t
			binary.LittleEndian.PutUint32(desc[at:], uint32(len(s)))
			binary.LittleEndian.PutUint32(desc[at+4:], uint32(base+strs.Len()))
			strs.WriteString(s)
			strs.WriteByte(0)
		}
	}
	h := make([]byte, 28)
	for i, v := range []uint32{0x950412de, 0, uint32(n), 28, uint32(28 + 8*n), 0, 0} {
		binary.LittleEndian.PutUint32(h[4*i:], v)
	}
	return append(append(h, desc...), strs.Bytes()...)
}

// sentence makes the i-th distinct English test sentence and its German
// and French translations.
func sentence(i int) (en, de, fr string) {
	return fmt.Sprintf("Remove the selected item number %d from the list", i),
		fmt.Sprintf("Das ausgewählte Element Nummer %d aus der Liste entfernen", i),
		fmt.Sprintf("Supprimer l'élément sélectionné numéro %d de la liste", i)
}
