// Command gradplot draws the MSC paper's Figure 5 from training logs: the
// gradient norm of encoder layers over the first updates, one PNG per run.
// It reads the "layer_grad_norms" field that `strata train
// --log-grad-norms` writes to RUN/metrics.jsonl.
//
//	go run ./experiments/msc/gradplot -updates 2000 -out fig5 runs/msc/deep-pre-18 runs/msc/msc-18
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/strata-nmt/strata/internal/atomicfile"
)

func main() {
	updates := flag.Int("updates", 0, "plot only the first N updates (0: all)")
	out := flag.String("out", "fig5", "output prefix: PREFIX-RUNNAME.png")
	lines := flag.Int("lines", 6, "encoder layers to draw, evenly spaced from the lowest to the top")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: gradplot [-updates N] [-out PREFIX] RUN_DIR...")
		os.Exit(2)
	}
	for _, dir := range flag.Args() {
		series, err := readNorms(filepath.Join(dir, "metrics.jsonl"), *updates)
		if err == nil {
			name := fmt.Sprintf("%s-%s.png", *out, filepath.Base(dir))
			err = draw(name, filepath.Base(dir), series, *lines)
			if err == nil {
				fmt.Println(name)
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "gradplot:", err)
			os.Exit(1)
		}
	}
}

// encoderLayer orders encoder layer keys bottom-up: encoder.layers.K or
// encoder.blocks.N.layers.K.
var encoderLayer = regexp.MustCompile(`^encoder\.(?:blocks\.(\d+)\.)?layers\.(\d+)$`)

type layerSeries struct {
	block, layer int
	pts          plotter.XYs
}

func readNorms(path string, maxUpdate int) ([]*layerSeries, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	byKey := map[string]*layerSeries{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for line := 1; sc.Scan(); line++ {
		var rec struct {
			Type   string             `json:"type"`
			Update int                `json:"update"`
			Norms  map[string]float64 `json:"layer_grad_norms"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		if rec.Type != "train" || rec.Norms == nil || (maxUpdate > 0 && rec.Update > maxUpdate) {
			continue
		}
		for k, v := range rec.Norms {
			m := encoderLayer.FindStringSubmatch(k)
			if m == nil {
				continue
			}
			s := byKey[k]
			if s == nil {
				b, _ := strconv.Atoi("0" + m[1])
				l, _ := strconv.Atoi(m[2])
				s = &layerSeries{block: b, layer: l}
				byKey[k] = s
			}
			s.pts = append(s.pts, plotter.XY{X: float64(rec.Update), Y: v})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(byKey) == 0 {
		return nil, fmt.Errorf("%s: no layer_grad_norms records (train with --log-grad-norms)", path)
	}
	var out []*layerSeries
	for _, s := range byKey {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].block != out[j].block {
			return out[i].block < out[j].block
		}
		return out[i].layer < out[j].layer
	})
	return out, nil
}

func draw(path, title string, series []*layerSeries, lines int) error {
	p := plot.New()
	p.Title.Text = "Gradient norm of encoder layers: " + title
	p.X.Label.Text = "update"
	p.Y.Label.Text = "‖∇ layer‖"
	p.Legend.Top = true
	n := len(series)
	picks := map[int]bool{}
	for i := 0; i < lines && n > 0; i++ {
		picks[i*(n-1)/max(lines-1, 1)] = true
	}
	k := 0
	for i, s := range series {
		if !picks[i] {
			continue
		}
		l, err := plotter.NewLine(s.pts)
		if err != nil {
			return err
		}
		// bottom layers red, top layers blue
		shade := 200 * k / max(lines-1, 1)
		l.Color = color.RGBA{R: uint8(210 - shade), G: uint8(shade / 3), B: uint8(30 + shade), A: 255}
		l.Width = vg.Points(1.2)
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("L%d", i+1), l)
		k++
	}
	w, err := p.WriterTo(8*vg.Inch, 4.5*vg.Inch, "png")
	if err != nil {
		return err
	}
	return atomicfile.WriteWith(path, func(f io.Writer) error {
		_, err := w.WriteTo(f)
		return err
	})
}
