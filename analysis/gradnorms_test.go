package analysis

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestReadEncoderGradNormsOrdersLayersBottomUp(t *testing.T) {
	log := strings.Join([]string{
		`{"type":"train","update":1,"layer_grad_norms":{"encoder.blocks.1.layers.0":3,"encoder.blocks.0.layers.1":2,"encoder.blocks.0.layers.0":1,"decoder.layers.0":9}}`,
		`{"type":"valid","update":1}`,
		`{"type":"train","update":2,"layer_grad_norms":{"encoder.blocks.1.layers.0":6,"encoder.blocks.0.layers.1":5,"encoder.blocks.0.layers.0":4}}`,
		`{"type":"train","update":3,"layer_grad_norms":{"encoder.blocks.1.layers.0":0,"encoder.blocks.0.layers.1":0,"encoder.blocks.0.layers.0":0}}`,
	}, "\n")
	path := filepath.Join(t.TempDir(), "metrics.jsonl")
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := ReadEncoderGradNorms(path, 2, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 3 {
		t.Fatalf("%d encoder layers, want 3 (decoder layers excluded)", len(s))
	}
	for i, want := range [][]float64{{1, 4}, {2, 5}, {3, 6}} {
		if !slices.Equal(s[i].Norms, want) || !slices.Equal(s[i].Updates, []float64{1, 2}) {
			t.Fatalf("layer %d (%s): %v at %v, want %v at [1 2] (updates beyond 2 dropped)", i, s[i].Name, s[i].Norms, s[i].Updates, want)
		}
	}
}

func TestReadEncoderGradNormsReportsBadLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "metrics.jsonl")
	os.WriteFile(path, []byte("{\"type\":\"train\"}\nnot json\n"), 0o644)
	if _, err := ReadEncoderGradNorms(path, 0, false); err == nil || !strings.Contains(err.Error(), ":2:") {
		t.Fatalf("want an error naming line 2, got %v", err)
	}
	os.WriteFile(path, []byte("{\"type\":\"train\",\"update\":1}\n"), 0o644)
	if _, err := ReadEncoderGradNorms(path, 0, false); err == nil || !strings.Contains(err.Error(), "--log-grad-norms") {
		t.Fatalf("want an error pointing at --log-grad-norms, got %v", err)
	}
}

func TestSpreadLayers(t *testing.T) {
	for _, c := range []struct {
		n, k int
		want []int
	}{{18, 6, []int{0, 3, 6, 10, 13, 17}}, {3, 6, []int{0, 1, 2}}, {5, 1, []int{0}}} {
		if got := SpreadLayers(c.n, c.k); !slices.Equal(got, c.want) {
			t.Errorf("SpreadLayers(%d, %d) = %v, want %v", c.n, c.k, got, c.want)
		}
	}
}

func TestLayerGradNormsMedian(t *testing.T) {
	for _, c := range []struct {
		norms []float64
		want  float64
	}{{[]float64{3, 100, 1}, 3}, {[]float64{4, 1, 2, 50}, 3}, {[]float64{7}, 7}} {
		if got := (&LayerGradNorms{Norms: c.norms}).Median(); got != c.want {
			t.Errorf("median of %v = %v, want %v", c.norms, got, c.want)
		}
	}
	if got := (&LayerGradNorms{}).Median(); !math.IsNaN(got) {
		t.Errorf("median of nothing = %v, want NaN", got)
	}
}

func TestReadEncoderGradNormsShared(t *testing.T) {
	path := filepath.Join(t.TempDir(), "metrics.jsonl")
	os.WriteFile(path, []byte(`{"type":"train","update":1,"layer_grad_norms":{"encoder.layers.0":3},"layer_grad_norms_shared":{"encoder.layers.0":2}}`+"\n"), 0o644)
	for shared, want := range map[bool]float64{false: 3, true: 2} {
		s, err := ReadEncoderGradNorms(path, 0, shared)
		if err != nil || len(s) != 1 || s[0].Norms[0] != want {
			t.Errorf("shared=%v: %v, %v; want one layer at %v", shared, s, err, want)
		}
	}
	// a run logged before the shared norm existed says so
	os.WriteFile(path, []byte(`{"type":"train","update":1,"layer_grad_norms":{"encoder.layers.0":3}}`+"\n"), 0o644)
	if _, err := ReadEncoderGradNorms(path, 0, true); err == nil || !strings.Contains(err.Error(), "layer_grad_norms_shared") {
		t.Errorf("want an error naming the missing shared records, got %v", err)
	}
}

// Four layers, blocks of one and two: the mean over every update of the
// lowest layers against the top ones; too few layers give NaN.
func TestBlockMeanRatio(t *testing.T) {
	l := func(norms ...float64) *LayerGradNorms { return &LayerGradNorms{Norms: norms} }
	layers := []*LayerGradNorms{l(4, 8), l(6), l(1, 2, 3), l(2)}
	if got := BlockMeanRatio(layers, 1); got != 6.0/2 {
		t.Errorf("blocks of 1: %v, want (4+8)/2 / 2 = 3", got)
	}
	if got := BlockMeanRatio(layers, 2); got != 6.0/2 {
		t.Errorf("blocks of 2: %v, want (4+8+6)/3 / ((1+2+3+2)/4) = 3", got)
	}
	if got := BlockMeanRatio(layers, 3); !math.IsNaN(got) {
		t.Errorf("blocks of 3 in 4 layers: %v, want NaN", got)
	}
	if b, tp := BlockMeans(layers, 2); b != 6 || tp != 2 {
		t.Errorf("block means of 2: %v and %v, want 6 and 2", b, tp)
	}
}

func TestLayerGradNormsMean(t *testing.T) {
	if got := (&LayerGradNorms{Norms: []float64{1, 2, 9}}).Mean(); got != 4 {
		t.Errorf("mean of [1 2 9] = %v, want 4", got)
	}
	if got := (&LayerGradNorms{}).Mean(); !math.IsNaN(got) {
		t.Errorf("mean of nothing = %v, want NaN", got)
	}
}
