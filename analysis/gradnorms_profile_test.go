package analysis

import (
	"os"
	"path/filepath"
	"testing"
)

// Two runs of different depth: one row per layer of the deeper, the
// shallower's cells empty below its depth, each cell the layer's mean.
func TestWriteDepthProfiles(t *testing.T) {
	deep := NewDepthProfile("deep", []*LayerGradNorms{
		{Norms: []float64{4, 2, 9}}, {Norms: []float64{2, 2, 5}}, {Norms: []float64{1, 3, 2}},
	})
	flat := NewDepthProfile("flat", []*LayerGradNorms{{Norms: []float64{1}}, {Norms: []float64{0.25, 0.5, 1.5}}})
	path := filepath.Join(t.TempDir(), "profile.tsv")
	if err := WriteDepthProfiles(path, []DepthProfile{deep, flat}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "layer\tdeep\tflat\n1\t5\t1\n2\t3\t0.75\n3\t2\t\n"
	if string(b) != want {
		t.Errorf("profile TSV\n%q\nwant\n%q", b, want)
	}
}
