package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FileFormat tells an int8 tensor file from a float32 one by its header,
// and names the file when it is not a tensor file.
func TestFileFormat(t *testing.T) {
	dir := t.TempDir()
	m, v := NewTensor(3, 4), NewTensor(4)
	m.Name, v.Name = "w", "b"
	for i := range m.Data {
		m.Data[i] = float32(i) - 5
	}
	write := func(name string, int8 bool) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if int8 {
			err = WriteTensorsInt8(f, map[string]any{}, []*Tensor{m, v})
		} else {
			err = WriteTensors(f, map[string]any{}, []*Tensor{m, v})
		}
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		name string
		int8 bool
	}{{"f32.bin", false}, {"q.bin", true}} {
		want := FormatF32
		if c.int8 {
			want = FormatInt8
		}
		got, err := FileFormat(write(c.name, c.int8))
		if err != nil || got != want {
			t.Errorf("%s: FileFormat = %v, %v; want %v", c.name, got, err, want)
		}
	}
	bad := filepath.Join(dir, "text.txt")
	os.WriteFile(bad, []byte("not a model\n"), 0o644)
	if _, err := FileFormat(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("a text file: error %v, want one naming %s", err, bad)
	}
}
