package plot

import (
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// decode opens a written chart and checks it is a PNG of the given size
// with more than a blank page on it.
func decode(t *testing.T, path string, w, h int) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		t.Fatalf("%s: %dx%d, want %dx%d", path, b.Dx(), b.Dy(), w, h)
	}
	if countColored(img) == 0 {
		t.Fatalf("%s: no coloured pixels", path)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Fatalf("temporary file %s left behind", e.Name())
		}
	}
	return img
}

// countColored counts pixels that are neither grey nor white (the data).
func countColored(img image.Image) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if max(r, g, bl)-min(r, g, bl) > 0x2000 {
				n++
			}
		}
	}
	return n
}

func wantError(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one mentioning %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Fatalf("error %q does not mention %q", err, p)
		}
	}
}

func TestLines(t *testing.T) {
	dir := t.TempDir()
	x := []float64{1, 2, 3, 4, 5, 6}
	series := []Series{
		{Name: "train", X: x, Y: []float64{9, 7, 5.5, math.NaN(), 4, 3.8}},
		{Name: "valid", X: x, Y: []float64{9.5, 7.5, math.Inf(1), 5, 4.8, -1}},
	}
	path := filepath.Join(dir, "lines.png")
	if err := Lines(path, "Loss", "update", "loss", series); err != nil {
		t.Fatal(err)
	}
	decode(t, path, 900, 560)

	log := filepath.Join(dir, "log.png")
	if err := Lines(log, "Gradient norm", "update", "norm", series, LogY(), Size(640, 400)); err != nil {
		t.Fatal(err)
	}
	decode(t, log, 640, 400)
}

func TestLinesWithoutDrawablePoints(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.png")
	s := []Series{{Name: "nan", X: []float64{1, 2}, Y: []float64{math.NaN(), -3}}}
	if err := Lines(path, "nothing", "x", "y", s, LogY()); err != nil {
		t.Fatal(err)
	}
	if err := Lines(path, "nothing", "x", "y", nil); err != nil {
		t.Fatal(err)
	}
	img, err := os.ReadFile(path)
	if err != nil || len(img) == 0 {
		t.Fatalf("no image written: %v", err)
	}
}

func TestLinesMismatchedLengths(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.png")
	err := Lines(path, "t", "x", "y", []Series{{Name: "layer 3", X: []float64{1, 2}, Y: []float64{1}}})
	wantError(t, err, path, "layer 3", "2 X values and 1 Y values")
	if _, statErr := os.Stat(path); !os.IsNotExist(statErr) {
		t.Fatalf("a failed chart left %s behind", path)
	}
}

func TestHeatmap(t *testing.T) {
	dir := t.TempDir()
	values := [][]float64{
		{math.NaN(), 12.5, 3.25},
		{20.5, math.NaN(), math.Inf(-1)},
	}
	path := filepath.Join(dir, "bleu.png")
	err := Heatmap(path, "Zero-shot BLEU", []string{"de", "fr"}, []string{"de", "fr", "zh"}, values,
		CellValues("%.1f"), AxisLabels("target", "source"), Size(500, 400))
	if err != nil {
		t.Fatal(err)
	}
	img := decode(t, path, 500, 400)
	if !hasColor(img, missingColor) {
		t.Fatal("NaN/Inf cells are not drawn in the missing-value grey")
	}

	grads := make([][]float64, 12)
	for l := range grads {
		grads[l] = make([]float64, 300)
		for u := range grads[l] {
			grads[l][u] = math.Exp(-float64(u)/100) * float64(l+1)
		}
	}
	path = filepath.Join(dir, "grad.png")
	if err := Heatmap(path, "Gradient norm", nil, nil, grads, RowsBottomUp(), ColorRange(0, 10)); err != nil {
		t.Fatal(err)
	}
	decode(t, path, 900, 720)
}

func TestHeatmapDegenerateValues(t *testing.T) {
	dir := t.TempDir()
	for name, values := range map[string][][]float64{
		"constant": {{2, 2}, {2, 2}},
		"all-nan":  {{math.NaN()}},
	} {
		path := filepath.Join(dir, name+".png")
		if err := Heatmap(path, name, nil, nil, values, CellValues("%g")); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := os.Stat(path); err != nil {
			t.Fatal(err)
		}
	}
}

func TestHeatmapBadInput(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.png")
	wantError(t, Heatmap(path, "t", nil, nil, [][]float64{{1, 2}, {3}}), path, "ragged", "row 1 has 1 values, row 0 has 2")
	wantError(t, Heatmap(path, "t", []string{"a"}, nil, [][]float64{{1}, {2}}), "1 row labels for 2 rows")
	wantError(t, Heatmap(path, "t", nil, []string{"a"}, [][]float64{{1, 2}}), "1 column labels for 2 columns")
	wantError(t, Heatmap(path, "t", nil, nil, nil), "at least one row")
	wantError(t, Heatmap(path, "t", nil, nil, [][]float64{{1}}, ColorRange(3, 1)), "colour range")
	wantError(t, Heatmap(path, "t", nil, nil, [][]float64{{1}}, Size(0, 10)), "image size")
}

func TestBars(t *testing.T) {
	path := filepath.Join(t.TempDir(), "offtarget.png")
	labels := []string{"de-fr", "fr-de", "de-zh", "zh-de"}
	groups := []Series{
		{Name: "post-norm", Y: []float64{12.5, 30, math.NaN(), 8}},
		{Name: "pre-norm", Y: []float64{2.5, 4, 6, math.Inf(1)}},
	}
	if err := Bars(path, "Off-target rate", labels, groups, AxisLabels("direction", "% off-target")); err != nil {
		t.Fatal(err)
	}
	decode(t, path, 900, 560)
}

func TestBarsBadInput(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.png")
	err := Bars(path, "t", []string{"a", "b"}, []Series{{Name: "g1", Y: []float64{1}}})
	wantError(t, err, path, "g1", "1 values for 2 labels")
	wantError(t, Bars(path, "t", nil, nil), "at least one label")
}

func hasColor(img image.Image, want color.Color) bool {
	wr, wg, wb, _ := want.RGBA()
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if r == wr && g == wg && bl == wb {
				return true
			}
		}
	}
	return false
}

func TestLogTicks(t *testing.T) {
	labels := func(min, max float64) []string {
		var out []string
		for _, tk := range (logTicks{}).Ticks(min, max) {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return out
	}
	for _, tc := range []struct {
		min, max float64
		want     string
	}{
		{2.6, 10, "3 4 5 6 7 8 9 10"},
		{0.5, 40, "0.5 1 2 5 10 20"},
		{0.001, 200, "0.001 0.01 0.1 1 10 100"},
	} {
		if got := strings.Join(labels(tc.min, tc.max), " "); got != tc.want {
			t.Errorf("ticks(%g, %g) = %q, want %q", tc.min, tc.max, got, tc.want)
		}
	}
}

func TestLinearTicks(t *testing.T) {
	for _, tc := range []struct {
		min, max float64
		want     string
	}{
		{11, 249, "50 100 150 200"},
		{0, 800, "0 200 400 600 800"},
		{0.02, 0.93, "0.2 0.4 0.6 0.8"},
		{-1.5, 1.5, "-1.5 -1.0 -0.5 0.0 0.5 1.0 1.5"},
		{7.8, 10.7, "8.0 8.5 9.0 9.5 10.0 10.5"},
	} {
		var got []string
		for _, tk := range (linearTicks{}).Ticks(tc.min, tc.max) {
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("ticks(%g, %g) = %q, want %q", tc.min, tc.max, g, tc.want)
		}
	}
}

func TestSegmentsBreakAtUndrawablePoints(t *testing.T) {
	s := Series{X: []float64{1, 2, 3, 4, 5, 6}, Y: []float64{1, math.NaN(), 3, 4, -1, 6}}
	lengths := func(logY bool) []int {
		var out []int
		for _, seg := range segments(s, logY) {
			out = append(out, len(seg))
		}
		return out
	}
	if got := lengths(false); len(got) != 2 || got[0] != 1 || got[1] != 4 {
		t.Errorf("linear axis: segment lengths %v, want [1 4]", got)
	}
	if got := lengths(true); len(got) != 3 || got[0] != 1 || got[1] != 2 || got[2] != 1 {
		t.Errorf("log axis: segment lengths %v, want [1 2 1]", got)
	}
}
