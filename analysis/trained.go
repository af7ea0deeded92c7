package analysis

import "fmt"

// TrainedDirections are what a model records of its training directions
// (data.Directions): Seen for the directions its training data held,
// Allows for those and its zero-shot ones, Known for whether anything was
// recorded.
type TrainedDirections interface {
	Known() bool
	Seen(src, tgt string) bool
	Allows(src, tgt string) bool
}

// kind is d's kind for the evaluated model: supervised when its training
// data held d, zero-shot otherwise; without recorded directions, the
// English-centric rule (to or from the pivot is supervised).
func (opt *MatrixOptions) kind(d Direction) string {
	if opt.Trained != nil && opt.Trained.Known() {
		if opt.Trained.Seen(d.Src, d.Tgt) {
			return Supervised
		}
		return ZeroShot
	}
	return d.Kind(opt.Pivot)
}

// allDirections are AllDirections of langs that the model may translate:
// a direction from a language it never read, or into one it never wrote,
// is left out with a log line (it would only echo its input, and count as
// a direction scored).
func (opt *MatrixOptions) allDirections(langs []string) []Direction {
	var out []Direction
	for _, d := range AllDirections(langs, opt.Pivot) {
		if opt.Trained != nil && !opt.Trained.Allows(d.Src, d.Tgt) {
			if opt.Log != nil {
				fmt.Fprintf(opt.Log, "%s: left out, the model was not trained to translate it (neither a training direction nor zero-shot)\n", d)
			}
			continue
		}
		out = append(out, d)
	}
	return out
}
