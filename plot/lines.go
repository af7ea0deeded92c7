package plot

import (
	"fmt"
	"image/color"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// markerLimit: series with at most this many points get a marker at each
// point (per-layer curves have a handful of points and read better with
// them); longer ones (training curves) are plain lines.
const markerLimit = 40

// Lines writes a line chart with one curve per series and a legend.
// Non-finite points (and non-positive ones on a LogY axis) are left out and
// break the curve there. The legend sits right of the data area. Options:
// Size, LogY.
func Lines(path, title, xlabel, ylabel string, series []Series, opts ...Option) error {
	o := collect(opts, 900, 560)
	for _, s := range series {
		if len(s.X) != len(s.Y) {
			return fmt.Errorf("plot %s: series %q has %d X values and %d Y values, want the same number", path, s.Name, len(s.X), len(s.Y))
		}
	}
	p := newPlot(title, xlabel, ylabel)
	p.Add(plotter.NewGrid())
	if o.logY {
		p.Y.Scale = gplot.LogScale{}
		p.Y.Tick.Marker = logTicks{}
	}
	leg := newLegend()
	empty := true
	for i, s := range series {
		style := seriesStyle(i)
		segments := segments(s, o.logY)
		for _, seg := range segments {
			empty = false
			if err := addSegment(p, seg, style, len(s.X) <= markerLimit); err != nil {
				return fmt.Errorf("plot %s: series %q: %w", path, s.Name, err)
			}
		}
		leg.Add(s.Name, legendThumb(style, len(s.X) <= markerLimit))
	}
	if empty {
		emptyRange(p, o.logY)
	}
	return render(path, o.width, o.height, func(dc draw.Canvas) error {
		withLegend(dc, p, leg, nil)
		return nil
	})
}

type lineStyle struct {
	color  color.Color
	dashes []vg.Length
	glyph  draw.GlyphDrawer
}

// seriesStyle gives series i a colour, and past the palette's length a dash
// pattern and marker shape too, so curves stay distinguishable in print.
func seriesStyle(i int) lineStyle {
	return lineStyle{color: plotutil.Color(i), dashes: plotutil.Dashes(i / len(plotutil.DefaultColors)), glyph: plotutil.Shape(i)}
}

// segments splits a series at points that cannot be drawn.
func segments(s Series, logY bool) []plotter.XYs {
	var out []plotter.XYs
	var cur plotter.XYs
	for i := range s.X {
		x, y := s.X[i], s.Y[i]
		if !finite(x) || !finite(y) || (logY && y <= 0) {
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, plotter.XY{X: x, Y: y})
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

func addSegment(p *gplot.Plot, xys plotter.XYs, st lineStyle, markers bool) error {
	line, points, err := plotter.NewLinePoints(xys)
	if err != nil {
		return err
	}
	line.Color, line.Dashes, line.Width = st.color, st.dashes, vg.Points(1.5)
	p.Add(line)
	if markers || len(xys) == 1 { // a lone point has no line to show it
		points.Color, points.Shape, points.Radius = st.color, st.glyph, vg.Points(3)
		p.Add(points)
	}
	return nil
}

// legendThumb draws the legend sample the way the curve is drawn.
func legendThumb(st lineStyle, markers bool) gplot.Thumbnailer {
	line := &plotter.Line{LineStyle: draw.LineStyle{Color: st.color, Dashes: st.dashes, Width: vg.Points(1.5)}}
	if !markers {
		return line
	}
	return thumbs{line, &plotter.Scatter{GlyphStyle: draw.GlyphStyle{Color: st.color, Shape: st.glyph, Radius: vg.Points(3)}}}
}

type thumbs []gplot.Thumbnailer

func (t thumbs) Thumbnail(c *draw.Canvas) {
	for _, th := range t {
		th.Thumbnail(c)
	}
}

// emptyRange gives axes with no data a valid range (LogScale panics on 0).
func emptyRange(p *gplot.Plot, logY bool) {
	p.X.Min, p.X.Max = 0, 1
	p.Y.Min, p.Y.Max = 0, 1
	if logY {
		p.Y.Min, p.Y.Max = 1, 10
	}
}
