package plot

import (
	"fmt"
	"image/color"
	"math"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// missingColor fills cells whose value is NaN or ±Inf.
var missingColor = color.Gray{Y: 0xd8}

// rasterCells is the cell count above which the heat map is drawn as an
// image rather than as rectangles.
const rasterCells = 2500

// colorBarWidth is the strip, in pixels, the colour bar and its ticks take.
const colorBarWidth = 90

// Heatmap writes values (rows × columns) as coloured cells, row 0 at the top
// unless RowsBottomUp, with a colour bar unless NoColorBar. rowLabels and
// colLabels name the rows and columns; either may be nil for 0, 1, 2, ...
// When there are more labels than fit, every k-th is shown. NaN and ±Inf
// cells are drawn grey. Options: Size, AxisLabels, CellValues, NoColorBar,
// RowsBottomUp, ColorRange.
func Heatmap(path, title string, rowLabels, colLabels []string, values [][]float64, opts ...Option) error {
	o := collect(opts, 900, 720)
	g, err := newGrid(values, rowLabels, colLabels, !o.rowsBottomUp)
	if err != nil {
		return fmt.Errorf("plot %s: %w", path, err)
	}
	if err := o.checkRange(); err != nil {
		return fmt.Errorf("plot %s: %w", path, err)
	}
	cmap, err := sequentialColors()
	if err != nil {
		return fmt.Errorf("plot %s: %w", path, err)
	}
	lo, hi := g.valueRange()
	if o.haveRange {
		lo, hi = o.min, o.max
	}
	cmap.SetMin(lo)
	cmap.SetMax(hi)

	p := newPlot(title, o.xLabel, o.yLabel)
	hm := plotter.NewHeatMap(g, cmap.Palette(256))
	hm.Min, hm.Max = lo, hi
	hm.NaN = missingColor
	// Thousands of vector cells leave hairline seams between them; an image
	// of one pixel per cell, scaled up, has none.
	hm.Rasterized = len(values)*len(values[0]) > rasterCells
	pal := hm.Palette.Colors()
	hm.Underflow, hm.Overflow = pal[0], pal[len(pal)-1]
	p.Add(hm)
	if o.cellFormat != "" {
		labels, err := cellLabels(g, o.cellFormat, hm)
		if err != nil {
			return fmt.Errorf("plot %s: %w", path, err)
		}
		p.Add(labels)
	}
	g.setTicks(p, o)

	return render(path, o.width, o.height, func(dc draw.Canvas) error {
		if o.noColorBar {
			p.Draw(dc)
			return nil
		}
		bar := pixelsToLength(colorBarWidth)
		main := draw.Crop(dc, 0, -bar, 0, 0)
		p.Draw(main)
		drawColorBar(dc, p.DataCanvas(main), bar, cmap)
		return nil
	})
}

// sequentialColors runs from pale yellow (low) through teal to navy (high),
// evenly in perceived lightness, so that darker always means larger, also in
// grey-scale print.
func sequentialColors() (palette.ColorMap, error) {
	dark, err := moreland.NewLuminance([]color.Color{
		color.RGBA{8, 29, 88, 255},
		color.RGBA{34, 94, 168, 255},
		color.RGBA{65, 182, 196, 255},
		color.RGBA{199, 233, 180, 255},
		color.RGBA{255, 255, 217, 255},
	})
	if err != nil {
		return nil, err
	}
	return palette.Reverse(dark), nil
}

// grid adapts a row-major matrix to plotter.GridXYZ; non-finite values read
// as NaN, which the heat map draws in its NaN colour.
type grid struct {
	values              [][]float64
	rowLabels, colLabel []string
	topDown             bool
}

func newGrid(values [][]float64, rowLabels, colLabels []string, topDown bool) (*grid, error) {
	if len(values) == 0 || len(values[0]) == 0 {
		return nil, fmt.Errorf("heat map needs at least one row and one column, got %d rows", len(values))
	}
	cols := len(values[0])
	for r, row := range values {
		if len(row) != cols {
			return nil, fmt.Errorf("ragged matrix: row %d has %d values, row 0 has %d", r, len(row), cols)
		}
	}
	if rowLabels == nil {
		rowLabels = indexLabels(len(values))
	}
	if colLabels == nil {
		colLabels = indexLabels(cols)
	}
	if len(rowLabels) != len(values) {
		return nil, fmt.Errorf("%d row labels for %d rows", len(rowLabels), len(values))
	}
	if len(colLabels) != cols {
		return nil, fmt.Errorf("%d column labels for %d columns", len(colLabels), cols)
	}
	return &grid{values: values, rowLabels: rowLabels, colLabel: colLabels, topDown: topDown}, nil
}

func indexLabels(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprint(i)
	}
	return out
}

func (g *grid) Dims() (c, r int) { return len(g.values[0]), len(g.values) }
func (g *grid) X(c int) float64  { return float64(c) }
func (g *grid) Y(r int) float64  { return float64(r) }

// Z reads the value drawn at grid row r: matrix row rows-1-r when top-down.
func (g *grid) Z(c, r int) float64 {
	v := g.values[g.matrixRow(r)][c]
	if !finite(v) {
		return math.NaN()
	}
	return v
}

func (g *grid) matrixRow(r int) int {
	if g.topDown {
		return len(g.values) - 1 - r
	}
	return r
}

// valueRange is the finite values' range, widened when it is a single
// value (a colour scale needs min < max) and 0..1 when there are none.
func (g *grid) valueRange() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, row := range g.values {
		for _, v := range row {
			if finite(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	switch {
	case lo > hi:
		return 0, 1
	case lo == hi:
		pad := math.Max(math.Abs(lo)*0.05, 0.5)
		return lo - pad, hi + pad
	}
	return lo, hi
}

// setTicks labels the cells' rows and columns, thinning labels that would
// overlap, and turns long column labels (tokens) vertical.
func (g *grid) setTicks(p *gplot.Plot, o options) {
	cols, rows := g.Dims()
	const lineSpacing = 16 // pixels one label needs across its text
	const charWidth = 7    // pixels per character of a 10-point label
	longest := longestLabel(g.colLabel)
	colSpacing := longest*charWidth + 10
	if longest > 3 {
		colSpacing = lineSpacing
		p.X.Tick.Label.Rotation = math.Pi / 2
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
	}
	p.X.Tick.Marker = categoryTicks(cols, (o.width-2*colorBarWidth)/colSpacing, func(i int) string { return g.colLabel[i] }, false)
	p.Y.Tick.Marker = categoryTicks(rows, (o.height-150)/lineSpacing, func(i int) string { return g.rowLabels[i] }, g.topDown)
	p.X.Padding, p.Y.Padding = 0, 0
}

// categoryTicks labels every k-th of n cells so that at most limit show,
// with k 1, 2 or 5 times a power of ten.
func categoryTicks(n, limit int, label func(int) string, reversed bool) gplot.Ticker {
	step := niceStep(n, max(limit, 1))
	return gplot.TickerFunc(func(_, _ float64) []gplot.Tick {
		var ticks []gplot.Tick
		for i := 0; i < n; i += step {
			pos := float64(i)
			if reversed {
				pos = float64(n - 1 - i)
			}
			ticks = append(ticks, gplot.Tick{Value: pos, Label: label(i)})
		}
		return ticks
	})
}

func niceStep(n, limit int) int {
	for pow := 1; ; pow *= 10 {
		for _, m := range []int{1, 2, 5} {
			if step := m * pow; (n+step-1)/step <= limit {
				return step
			}
		}
	}
}

// cellLabels prints each finite value at its cell's centre, in black or
// white, whichever reads better on the cell's colour.
func cellLabels(g *grid, format string, hm *plotter.HeatMap) (*plotter.Labels, error) {
	cols, rows := g.Dims()
	var xys plotter.XYs
	var texts []string
	for r := range rows {
		for c := range cols {
			if v := g.Z(c, r); finite(v) {
				xys = append(xys, plotter.XY{X: float64(c), Y: float64(r)})
				texts = append(texts, fmt.Sprintf(format, v))
			}
		}
	}
	labels, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: texts})
	if err != nil {
		return nil, err
	}
	for i, xy := range xys {
		st := &labels.TextStyle[i]
		st.XAlign, st.YAlign = draw.XCenter, draw.YCenter
		st.Font.Size = vg.Points(9)
		st.Color = contrastingText(cellColor(hm, g.Z(int(xy.X), int(xy.Y))))
	}
	return labels, nil
}

// cellColor is the colour the heat map gives a finite value (its own
// lookup: plotter.HeatMap does not export it).
func cellColor(hm *plotter.HeatMap, v float64) color.Color {
	pal := hm.Palette.Colors()
	switch {
	case v <= hm.Min:
		return pal[0]
	case v >= hm.Max:
		return pal[len(pal)-1]
	}
	return pal[int((v-hm.Min)*float64(len(pal)-1)/(hm.Max-hm.Min)+0.5)]
}

// contrastingText picks black or white, whichever reads better on bg.
func contrastingText(bg color.Color) color.Color {
	r, g, b, _ := bg.RGBA()
	// Relative luminance (Rec. 709 weights) on 16-bit channels.
	if 0.2126*float64(r)+0.7152*float64(g)+0.0722*float64(b) < 0.5*0xffff {
		return color.White
	}
	return color.Black
}

// drawColorBar draws a vertical colour bar in the rightmost width of dc,
// spanning the same height as the heat map's data area.
func drawColorBar(dc draw.Canvas, data draw.Canvas, width vg.Length, cmap palette.ColorMap) {
	bar := gplot.New()
	bar.HideX()
	bar.Y.Padding = 0
	bar.Add(&plotter.ColorBar{ColorMap: cmap, Vertical: true})
	strip := draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{
		Min: vg.Point{X: dc.Max.X - width + vg.Millimeter*3, Y: data.Min.Y},
		Max: vg.Point{X: dc.Max.X - vg.Millimeter*3, Y: data.Max.Y},
	}}
	// Y-axis labels sit left of the bar: put the axis on the strip's left
	// and leave the bar a fixed 14 points.
	strip.Min.X = strip.Max.X - vg.Points(14) - axisWidth(bar, strip)
	bar.Draw(strip)
}

// axisWidth is the room the bar plot's Y axis (ticks and labels) takes.
func axisWidth(p *gplot.Plot, c draw.Canvas) vg.Length {
	whole := c.Max.X - c.Min.X
	inner := p.DataCanvas(c)
	return whole - (inner.Max.X - inner.Min.X)
}
