// Package plot writes the PNG charts strata produces: line charts (training
// curves, per-layer accuracy, gradient norms), heat maps (zero-shot BLEU
// matrices, gradient norm per layer and update, attention maps) and grouped
// bar charts (off-target rates per direction).
//
// Drawing is gonum.org/v1/plot's; this package only fixes the layout, makes
// non-finite values harmless (they are left out, never a panic), validates
// shapes with errors that say what was expected, and writes every file
// atomically so a viewer never opens half a PNG.
package plot

import (
	"bytes"
	"fmt"
	"image"
	"math"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/strata-nmt/strata/internal/atomicfile"
)

// Series is one named curve (Lines) or one group of bars (Bars, which uses
// only Y).
type Series struct {
	Name string
	X, Y []float64
}

// dpi is the resolution PNGs are rendered at; sizes are given in pixels.
const dpi = 96

// maxPixels bounds a side of an image, so that a wrong Size option fails
// clearly instead of allocating gigabytes.
const maxPixels = 20000

// marginPx is the white border left around every chart.
const marginPx = 12

// render draws onto a width×height white canvas, inside a margin, and
// writes it to path as a PNG, atomically.
func render(path string, width, height int, drawFn func(dc draw.Canvas) error) error {
	if width <= 0 || height <= 0 || width > maxPixels || height > maxPixels {
		return fmt.Errorf("plot %s: image size %dx%d pixels, want 1..%d on each side", path, width, height, maxPixels)
	}
	canvas := vgimg.NewWith(vgimg.UseImage(image.NewRGBA(image.Rect(0, 0, width, height))), vgimg.UseDPI(dpi))
	m := pixelsToLength(marginPx)
	if err := drawFn(draw.Crop(draw.New(canvas), m, -m, m, -m)); err != nil {
		return fmt.Errorf("plot %s: %w", path, err)
	}
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: canvas}).WriteTo(&buf); err != nil {
		return fmt.Errorf("plot %s: encode PNG: %w", path, err)
	}
	return atomicfile.WriteFile(path, buf.Bytes())
}

// newPlot returns a plot with the title and axis labels set.
func newPlot(title, xlabel, ylabel string) *gplot.Plot {
	p := gplot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(13)
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.X.Tick.Marker, p.Y.Tick.Marker = linearTicks{}, linearTicks{}
	return p
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// pixelsToLength converts a pixel count at dpi to a drawing length.
func pixelsToLength(px float64) vg.Length { return vg.Length(px) * vg.Inch / dpi }

// withLegend draws p with leg to the right of it, outside the data area, so
// the legend never hides a curve or a bar. before, if not nil, sees the
// canvas p will be drawn on first (to size things to it).
func withLegend(dc draw.Canvas, p *gplot.Plot, leg gplot.Legend, before func(area draw.Canvas)) {
	area := dc
	hasEntries := leg.Rectangle(dc).Size().Y > 0
	if hasEntries {
		leg.Top, leg.Left = true, false
		area = draw.Crop(dc, 0, -leg.Rectangle(dc).Size().X-pixelsToLength(10), 0, 0)
		// Align the legend's top with the data area's, below the title.
		leg.YOffs = -p.Title.TextStyle.FontExtents().Height - p.Title.Padding
	}
	if before != nil {
		before(area)
	}
	p.Draw(area)
	if hasEntries {
		leg.Draw(dc)
	}
}

// newLegend is gonum's default legend with wider thumbnails and more
// space between entries.
func newLegend() gplot.Legend {
	leg := gplot.NewLegend()
	leg.ThumbnailWidth = vg.Points(20)
	leg.Padding = vg.Points(4)
	return leg
}
