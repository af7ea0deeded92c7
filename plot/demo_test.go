package plot

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// TestDemo writes one chart of each kind into $STRATA_PLOT_DEMO for a person
// to look at (go test ./plot -run Demo with the variable set); it is skipped
// otherwise.
func TestDemo(t *testing.T) {
	dir := os.Getenv("STRATA_PLOT_DEMO")
	if dir == "" {
		t.Skip("set STRATA_PLOT_DEMO=<dir> to write sample charts there")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	out := func(name string) string { return filepath.Join(dir, name) }

	var curves []Series
	for _, name := range []string{"train loss", "valid loss"} {
		s := Series{Name: name}
		for u := 1; u <= 200; u++ {
			s.X = append(s.X, float64(u*100))
			s.Y = append(s.Y, 2+8/math.Sqrt(float64(u))+0.1*rng.Float64())
		}
		curves = append(curves, s)
	}
	curves[0].Y[50] = math.NaN()
	check(t, Lines(out("curves.png"), "Training curves", "update", "loss (nats)", curves))
	check(t, Lines(out("curves-log.png"), "Training curves (log)", "update", "loss (nats)", curves, LogY()))

	var layers []Series
	for _, name := range []string{"post-norm", "pre-norm", "pre-norm + residual drop"} {
		s := Series{Name: name}
		for l := 1; l <= 6; l++ {
			s.X = append(s.X, float64(l))
			s.Y = append(s.Y, 40+5*float64(l)*rng.Float64())
		}
		layers = append(layers, s)
	}
	check(t, Lines(out("layers.png"), "Language ID accuracy per layer", "encoder layer", "accuracy (%)", layers))

	langs := []string{"de", "en", "fr", "zh", "ru"}
	bleu := make([][]float64, len(langs))
	for i := range bleu {
		bleu[i] = make([]float64, len(langs))
		for j := range bleu[i] {
			bleu[i][j] = 5 + 30*rng.Float64()
			if i == j {
				bleu[i][j] = math.NaN()
			}
		}
	}
	check(t, Heatmap(out("bleu.png"), "Zero-shot BLEU", langs, langs, bleu, CellValues("%.1f"), AxisLabels("target", "source"), Size(600, 520)))

	grads := make([][]float64, 18)
	for l := range grads {
		for u := range 400 {
			grads[l] = append(grads[l], math.Exp(-float64(u)/120)*float64(l+1)/6+0.05*rng.Float64())
		}
	}
	check(t, Heatmap(out("grad.png"), "Gradient norm per layer", nil, nil, grads, RowsBottomUp(), AxisLabels("update", "layer")))

	src := []string{"▁Das", "▁ist", "▁ein", "▁kleiner", "▁Test", "."}
	tgt := []string{"▁This", "▁is", "▁a", "▁small", "▁test", ".", "</s>"}
	attn := make([][]float64, len(tgt))
	for i := range attn {
		attn[i] = make([]float64, len(src))
		for j := range attn[i] {
			attn[i][j] = rng.Float64() * 0.3
		}
		attn[i][min(i, len(src)-1)] += 1
	}
	check(t, Heatmap(out("attention.png"), "Cross-attention, layer 6", tgt, src, attn, AxisLabels("source", "target"), Size(600, 560)))

	dirs := []string{"de-fr", "fr-de", "de-zh", "zh-de", "fr-ru", "ru-fr"}
	groups := []Series{{Name: "post-norm"}, {Name: "pre-norm"}, {Name: "MSC"}}
	for g := range groups {
		for range dirs {
			groups[g].Y = append(groups[g].Y, 40*rng.Float64())
		}
	}
	check(t, Bars(out("offtarget.png"), "Off-target rate", dirs, groups, AxisLabels("direction", "off-target (%)")))
}
