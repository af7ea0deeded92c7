package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/analysis"
)

// Two runs of different depth: --profile draws one PNG with a curve per
// run, each point a layer's mean norm over the updates read.
func TestGradNormsProfile(t *testing.T) {
	dir := t.TempDir()
	for name, recs := range map[string]string{
		"deep": `{"type":"train","update":1,"layer_grad_norms":{"encoder.layers.0":4,"encoder.layers.1":2,"encoder.layers.2":1}}` + "\n" +
			`{"type":"train","update":2,"layer_grad_norms":{"encoder.layers.0":2,"encoder.layers.1":2,"encoder.layers.2":3}}` + "\n" +
			`{"type":"train","update":3,"layer_grad_norms":{"encoder.layers.0":9,"encoder.layers.1":5,"encoder.layers.2":2}}` + "\n",
		"flat": `{"type":"train","update":1,"layer_grad_norms":{"encoder.layers.0":1,"encoder.layers.1":1}}` + "\n",
	} {
		os.MkdirAll(filepath.Join(dir, name), 0o755)
		os.WriteFile(filepath.Join(dir, name, "metrics.jsonl"), []byte(recs), 0o644)
	}
	prefix := filepath.Join(dir, "figures", "fig5") // a folder that does not exist yet
	out := run(t, "analyze", "grad-norms", filepath.Join(dir, "deep"), filepath.Join(dir, "flat"), "--out", prefix, "--profile")
	if !strings.Contains(out, "wrote "+prefix+"-profile.png and .tsv (each encoder layer's mean norm, 2 runs)") {
		t.Errorf("no profile in the output:\n%s", out)
	}
	if b := readFile(t, prefix+"-profile.png"); !strings.HasPrefix(b, "\x89PNG") {
		t.Errorf("%s-profile.png is not a PNG", prefix)
	}
	// deep: layer means 5, 3, 2; blocks of 1: 5 / 2
	if out := run(t, "analyze", "grad-norms", filepath.Join(dir, "deep"), "--out", prefix, "--block", "1"); !strings.Contains(out, "deep: mean gradient norm of the lowest 1 layers / the top 1: 2.50 (5 / 2)\n") {
		t.Errorf("no block means in the output:\n%s", out)
	}
	out = run(t, "analyze", "grad-norms", filepath.Join(dir, "flat"), "--out", filepath.Join(dir, "alone"))
	if strings.Contains(out, "profile") || fileExists(filepath.Join(dir, "alone-profile.png")) {
		t.Errorf("a profile drawn without --profile:\n%s", out)
	}
	if got, want := readFile(t, prefix+"-profile.tsv"), "layer\tdeep\tflat\n1\t5\t1\n2\t3\t1\n3\t2\t\n"; got != want {
		t.Errorf("%s-profile.tsv\n%q\nwant the means\n%q", prefix, got, want)
	}
	layers, err := analysis.ReadEncoderGradNorms(filepath.Join(dir, "deep", "metrics.jsonl"), 0, false)
	if err != nil {
		t.Fatal(err)
	}
	s := depthSeries(analysis.NewDepthProfile("deep", layers))
	if !slices.Equal(s.X, []float64{1, 2, 3}) || !slices.Equal(s.Y, []float64{5, 3, 2}) {
		t.Errorf("depth profile %v at %v, want the means [5 3 2] at [1 2 3]", s.Y, s.X)
	}
}
