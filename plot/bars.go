package plot

import (
	"fmt"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// clusterFill is the share of a label's slot its cluster of bars takes.
const clusterFill = 0.8

// Bars writes a grouped bar chart: one cluster per label, one bar per group
// in each cluster (group g's Y[i] is its bar at labels[i]; X is unused), and
// a legend, right of the data area, naming the groups. Non-finite values get
// no bar. Options: Size, AxisLabels.
func Bars(path, title string, labels []string, groups []Series, opts ...Option) error {
	o := collect(opts, 900, 560)
	if len(labels) == 0 || len(groups) == 0 {
		return fmt.Errorf("plot %s: bar chart needs at least one label and one group, got %d and %d", path, len(labels), len(groups))
	}
	for _, g := range groups {
		if len(g.Y) != len(labels) {
			return fmt.Errorf("plot %s: group %q has %d values for %d labels, want one per label", path, g.Name, len(g.Y), len(labels))
		}
	}
	p := newPlot(title, o.xLabel, o.yLabel)
	p.Add(plotter.NewGrid())
	leg := newLegend()
	var charts []*plotter.BarChart
	for i, g := range groups {
		values := make(plotter.Values, len(g.Y))
		for j, v := range g.Y {
			if finite(v) {
				values[j] = v // a zero-height bar without an outline is invisible
			}
		}
		bars, err := plotter.NewBarChart(values, 1) // width is set once the canvas is known
		if err != nil {
			return fmt.Errorf("plot %s: group %q: %w", path, g.Name, err)
		}
		bars.Color = plotutil.Color(i)
		bars.LineStyle.Width = 0
		p.Add(bars)
		leg.Add(g.Name, bars)
		charts = append(charts, bars)
	}
	p.NominalX(labels...)
	if longestLabel(labels) > 8 || len(labels) > 12 {
		p.X.Tick.Label.Rotation = 0.6
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YTop
	}
	// Whole clusters in view, and headroom above the tallest bar.
	p.X.Min, p.X.Max = -0.5, float64(len(labels))-0.5
	p.Y.Max += 0.05 * (p.Y.Max - p.Y.Min)
	return render(path, o.width, o.height, func(dc draw.Canvas) error {
		withLegend(dc, p, leg, func(area draw.Canvas) {
			data := p.DataCanvas(area)
			slot := (data.Max.X - data.Min.X) / vg.Length(len(labels))
			width := clusterFill * slot / vg.Length(len(charts))
			for i, bars := range charts {
				bars.Width = width
				bars.Offset = (vg.Length(i) - vg.Length(len(charts)-1)/2) * width
			}
		})
		return nil
	})
}

func longestLabel(labels []string) int {
	n := 0
	for _, l := range labels {
		n = max(n, len([]rune(l)))
	}
	return n
}
