package decode

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-nmt/strata/engine"
)

// DefaultComputeType keeps int8 model files in int8, and an ensemble in
// int8 only when every member file is one; a bundle without files is
// float32.
func TestDefaultComputeTypeFollowsTheFiles(t *testing.T) {
	dir := t.TempDir()
	w := engine.NewTensor(2, 4)
	w.Name = "w"
	write := func(name string, int8 bool) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if int8 {
			err = engine.WriteTensorsInt8(f, map[string]any{}, []*engine.Tensor{w})
		} else {
			err = engine.WriteTensors(f, map[string]any{}, []*engine.Tensor{w})
		}
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	q, f := write("q.bin", true), write("f.bin", false)
	for _, c := range []struct {
		paths []string
		want  string
	}{
		{nil, "float32"},
		{[]string{q}, "int8"},
		{[]string{f}, "float32"},
		{[]string{q, q}, "int8"},
		{[]string{q, f}, "float32"},
		{[]string{f, q}, "float32"},
	} {
		got, err := (&Bundle{ModelPaths: c.paths}).DefaultComputeType()
		if err != nil || got != c.want {
			t.Errorf("files %v: DefaultComputeType = %q, %v; want %q", c.paths, got, err, c.want)
		}
	}
}
