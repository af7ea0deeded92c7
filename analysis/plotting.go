package analysis

import (
	"fmt"
	"image/color"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/strata-nmt/strata/internal/atomicfile"
)

// The charts are drawn with gonum/plot directly; the project's plot
// package was not available when this was written.

// grid adapts a row-major matrix to plotter.GridXYZ with row 0 at the top.
type grid [][]float64

func (g grid) Dims() (c, r int)   { return len(g[0]), len(g) }
func (g grid) Z(c, r int) float64 { return g[len(g)-1-r][c] }
func (g grid) X(c int) float64    { return float64(c) }
func (g grid) Y(r int) float64    { return float64(r) }

// Heatmap writes a PNG heat map of values[i][j] (row i, column j) with the
// value printed in each cell; NaN cells are light grey.
func Heatmap(path, title, xLabel, yLabel string, rows, cols []string, values [][]float64) error {
	if len(values) == 0 || len(values) != len(rows) || len(values[0]) != len(cols) {
		return fmt.Errorf("heat map %s: %d×%d values for %d rows and %d columns", path, len(values), len(values[0]), len(rows), len(cols))
	}
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, xLabel, yLabel
	h := plotter.NewHeatMap(grid(values), moreland.SmoothBlueRed().Palette(255))
	h.NaN = color.Gray{Y: 0xe0}
	lo, hi := math.Inf(1), math.Inf(-1)
	var xys plotter.XYs
	var labels []string
	for i, row := range values {
		for j, v := range row {
			if math.IsNaN(v) {
				continue
			}
			lo, hi = math.Min(lo, v), math.Max(hi, v)
			xys = append(xys, plotter.XY{X: float64(j), Y: float64(len(values) - 1 - i)})
			labels = append(labels, fmt.Sprintf("%.1f", v))
		}
	}
	if lo < hi {
		h.Min, h.Max = lo, hi
	}
	p.Add(h)
	if len(xys) > 0 {
		l, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: labels})
		if err != nil {
			return err
		}
		for i := range l.TextStyle {
			l.TextStyle[i].XAlign, l.TextStyle[i].YAlign = draw.XCenter, draw.YCenter
		}
		p.Add(l)
	}
	p.X.Tick.Marker = namedTicks(cols, false)
	p.Y.Tick.Marker = namedTicks(rows, true)
	p.X.Min, p.X.Max = -0.5, float64(len(cols))-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(len(rows))-0.5
	size := vg.Length(60+45*max(len(rows), len(cols))) * vg.Points(1)
	return savePNG(path, size+60, size, func(c draw.Canvas) { p.Draw(c) })
}

// namedTicks labels integer positions 0..n-1 (top to bottom when
// reversed).
func namedTicks(names []string, reversed bool) plot.ConstantTicks {
	var t plot.ConstantTicks
	for i, n := range names {
		v := float64(i)
		if reversed {
			v = float64(len(names) - 1 - i)
		}
		t = append(t, plot.Tick{Value: v, Label: n})
	}
	return t
}

// Series is a named line of a line chart; NaN values leave gaps.
type Series struct {
	Name   string
	Values []float64
	Dashed bool
}

// Panel is one line chart.
type Panel struct {
	Title, YLabel string
	X             []string // category labels of the x axis
	Series        []Series
	// Divider, when > 0, draws a vertical line before category Divider
	// (the encoder/decoder boundary).
	Divider int
	YMin    float64
	YMax    float64
}

var seriesColors = []color.Color{
	color.RGBA{0x1f, 0x77, 0xb4, 0xff}, color.RGBA{0xd6, 0x27, 0x28, 0xff},
	color.RGBA{0x2c, 0xa0, 0x2c, 0xff}, color.RGBA{0xff, 0x7f, 0x0e, 0xff},
	color.RGBA{0x94, 0x67, 0xbd, 0xff}, color.RGBA{0x8c, 0x56, 0x4b, 0xff},
}

func (pn Panel) plot() (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text, p.Y.Label.Text = pn.Title, pn.YLabel
	p.Legend.Top, p.Legend.Left = false, true
	p.Legend.YPosition = draw.PosBottom
	for k, s := range pn.Series {
		var segs []plotter.XYs
		var cur plotter.XYs
		for i, v := range s.Values {
			if math.IsNaN(v) {
				if len(cur) > 0 {
					segs, cur = append(segs, cur), nil
				}
				continue
			}
			cur = append(cur, plotter.XY{X: float64(i), Y: v})
		}
		if len(cur) > 0 {
			segs = append(segs, cur)
		}
		for si, seg := range segs {
			l, pts, err := plotter.NewLinePoints(seg)
			if err != nil {
				return nil, err
			}
			col := seriesColors[k%len(seriesColors)]
			l.Color, pts.Color = col, col
			l.Width = vg.Points(1.5)
			if s.Dashed {
				l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			}
			p.Add(l, pts)
			if si == 0 {
				p.Legend.Add(s.Name, l, pts)
			}
		}
	}
	if pn.Divider > 0 {
		y0, y1 := pn.YMin, pn.YMax
		l, err := plotter.NewLine(plotter.XYs{{X: float64(pn.Divider) - 0.5, Y: y0}, {X: float64(pn.Divider) - 0.5, Y: y1}})
		if err != nil {
			return nil, err
		}
		l.Color, l.Dashes = color.Gray{Y: 0x90}, []vg.Length{vg.Points(2), vg.Points(2)}
		p.Add(l)
	}
	p.X.Tick.Marker = namedTicks(pn.X, false)
	p.X.Min, p.X.Max = -0.3, float64(len(pn.X))-0.7
	if pn.YMax > pn.YMin {
		p.Y.Min, p.Y.Max = pn.YMin, pn.YMax
	}
	p.Add(plotter.NewGrid())
	return p, nil
}

// LinePanels writes panels side by side into one PNG.
func LinePanels(path string, panels []Panel) error {
	plots := make([][]*plot.Plot, 1)
	for _, pn := range panels {
		p, err := pn.plot()
		if err != nil {
			return err
		}
		plots[0] = append(plots[0], p)
	}
	w := vg.Length(420*len(panels)) * vg.Points(1)
	return savePNG(path, w, vg.Points(340), func(c draw.Canvas) {
		tiles := draw.Tiles{Rows: 1, Cols: len(panels), PadX: vg.Points(10), PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(8)}
		canv := plot.Align(plots, tiles, c)
		for j, p := range plots[0] {
			p.Draw(canv[0][j])
		}
	})
}

func savePNG(path string, w, h vg.Length, draw func(draw.Canvas)) error {
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(120), vgimg.UseBackgroundColor(color.White))
	draw(drawCanvas(img))
	return atomicfile.WriteWith(path, func(out io.Writer) error {
		_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(out)
		return err
	})
}

func drawCanvas(c *vgimg.Canvas) draw.Canvas { return draw.New(c) }
