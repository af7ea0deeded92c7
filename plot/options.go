package plot

import "fmt"

// Option changes how a chart is drawn. Options that do not apply to a chart
// kind are ignored by it (each option says which charts read it).
type Option func(*options)

type options struct {
	width, height int // pixels; 0 means the chart's default

	logY bool

	xLabel, yLabel string

	cellFormat   string // "" means no printed values
	noColorBar   bool
	rowsBottomUp bool
	haveRange    bool
	min, max     float64
}

func collect(opts []Option, defaultW, defaultH int) options {
	o := options{width: defaultW, height: defaultH}
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// Size sets the image size in pixels (all charts). Defaults: 900×560 for
// line and bar charts, 900×720 for heat maps.
func Size(width, height int) Option {
	return func(o *options) { o.width, o.height = width, height }
}

// LogY draws the Y axis on a log scale (Lines). Values that are not
// positive cannot be placed on it and are left out like NaNs.
func LogY() Option { return func(o *options) { o.logY = true } }

// AxisLabels names the X and Y axes (Heatmap, Bars; Lines takes them as
// arguments).
func AxisLabels(x, y string) Option {
	return func(o *options) { o.xLabel, o.yLabel = x, y }
}

// CellValues prints each cell's value with the given fmt verb, e.g. "%.1f"
// (Heatmap). Non-finite cells stay blank.
func CellValues(format string) Option { return func(o *options) { o.cellFormat = format } }

// NoColorBar leaves out the colour bar (Heatmap), e.g. when CellValues
// already says everything.
func NoColorBar() Option { return func(o *options) { o.noColorBar = true } }

// RowsBottomUp draws row 0 at the bottom (Heatmap). The default is matrix
// order, row 0 at the top, which suits BLEU matrices and attention maps;
// bottom-up suits "layer" rows where layer 1 is the lowest.
func RowsBottomUp() Option { return func(o *options) { o.rowsBottomUp = true } }

// ColorRange fixes the values mapped to the ends of the colour scale
// (Heatmap; default: the smallest and largest finite value). Values outside
// it take the end colours.
func ColorRange(min, max float64) Option {
	return func(o *options) { o.haveRange, o.min, o.max = true, min, max }
}

func (o *options) checkRange() error {
	if o.haveRange && !(finite(o.min) && finite(o.max) && o.min < o.max) {
		return fmt.Errorf("colour range [%g, %g]: want finite min < max", o.min, o.max)
	}
	return nil
}
