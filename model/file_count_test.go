package model

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/internal/atomicfile"
)

// TestFileParameterCount counts from the header what the model built
// from the file counts, for every architecture, in a float32 model file,
// an int8 one, and a checkpoint whose optimiser moments must not count.
func TestFileParameterCount(t *testing.T) {
	dir := t.TempDir()
	for _, arch := range []Arch{ArchTransformer, ArchMSC, ArchDLCL, ArchTransparent} {
		c := tinyDeep(arch, NormPre)
		m := mustNew(t, c)
		want := m.Params().Count()
		f32, i8, ckpt := filepath.Join(dir, string(arch)+".bin"), filepath.Join(dir, string(arch)+".int8.bin"), filepath.Join(dir, string(arch)+".ckpt")
		if err := Save(f32, m, nil); err != nil {
			t.Fatal(err)
		}
		if err := SaveInt8(i8, m, nil); err != nil {
			t.Fatal(err)
		}
		ts := m.Params().List()
		for _, p := range m.Params().List() {
			mom := engine.NewTensor(p.Shape()...)
			mom.Name = optimizerPrefix + "exp_avg." + p.Name
			ts = append(ts, mom)
		}
		err := atomicfile.WriteWith(ckpt, func(w io.Writer) error {
			return engine.WriteTensors(w, fileMeta{Kind: CheckpointKind, Config: c}, ts)
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{f32, i8, ckpt} {
			got, err := FileParameterCount(path)
			if err != nil || got != want {
				t.Fatalf("%s: FileParameterCount = %d, %v; the model counts %d", filepath.Base(path), got, err, want)
			}
		}
	}
}
