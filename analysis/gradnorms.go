package analysis

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"

	"github.com/strata-nmt/strata/rundir"
)

// LayerGradNorms is one encoder layer's gradient norm over training
// updates, read from the "layer_grad_norms" records that `strata train
// --log-grad-norms` writes to RUN/metrics.jsonl (the MSC paper's Figure 5
// plots these for the first updates).
type LayerGradNorms struct {
	Name         string // encoder.layers.K or encoder.blocks.N.layers.K
	Block, Layer int
	Updates      []float64
	Norms        []float64
}

// encoderLayer matches encoder layer keys: encoder.layers.K or
// encoder.blocks.N.layers.K.
var encoderLayer = regexp.MustCompile(`^encoder\.(?:blocks\.(\d+)\.)?layers\.(\d+)$`)

// ReadEncoderGradNorms returns the encoder layers' gradient norms of the
// training records up to maxUpdate (0: all), bottom layer first: the norm
// over all of a layer's parameters, or with shared over the parameters every
// architecture's layer has (self-attention and FFN; see LayerGradNorms in train),
// which compares an MSC layer with a plain one like for like.
func ReadEncoderGradNorms(path string, maxUpdate int, shared bool) ([]*LayerGradNorms, error) {
	recs, err := rundir.ReadMetrics(path)
	if err != nil {
		return nil, err
	}
	byKey := map[string]*LayerGradNorms{}
	for _, rec := range recs {
		norms := rec.LayerGradNorms
		if shared {
			norms = rec.SharedGradNorms
		}
		if rec.Type != "train" || norms == nil || (maxUpdate > 0 && rec.Update > maxUpdate) {
			continue
		}
		for k, v := range norms {
			m := encoderLayer.FindStringSubmatch(k)
			if m == nil {
				continue
			}
			s := byKey[k]
			if s == nil {
				b, _ := strconv.Atoi("0" + m[1])
				l, _ := strconv.Atoi(m[2])
				s = &LayerGradNorms{Name: k, Block: b, Layer: l}
				byKey[k] = s
			}
			s.Updates, s.Norms = append(s.Updates, float64(rec.Update)), append(s.Norms, v)
		}
	}
	if len(byKey) == 0 {
		if shared {
			return nil, fmt.Errorf("%s: no layer_grad_norms_shared records (train with --log-grad-norms; runs logged before strata recorded the shared-parameter norm have only --params all)", path)
		}
		return nil, fmt.Errorf("%s: no layer_grad_norms records (train with --log-grad-norms)", path)
	}
	var out []*LayerGradNorms
	for _, s := range byKey {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Block != out[j].Block {
			return out[i].Block < out[j].Block
		}
		return out[i].Layer < out[j].Layer
	})
	return out, nil
}

// SpreadLayers picks k of n layers evenly from the lowest to the top (all
// when k ≥ n), as indices in increasing order.
func SpreadLayers(n, k int) []int {
	if k >= n {
		k = n
	}
	var out []int
	for i := 0; i < k; i++ {
		j := 0
		if k > 1 {
			j = i * (n - 1) / (k - 1)
		}
		out = append(out, j)
	}
	return out
}

// Median is the median of the layer's gradient norms over the updates read
// (NaN when there are none): the plots are noisy, and the median is the
// level a layer's curve sits at, unmoved by the spikes.
func (l *LayerGradNorms) Median() float64 {
	if len(l.Norms) == 0 {
		return math.NaN()
	}
	xs := slices.Clone(l.Norms)
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// Mean is the mean of the layer's gradient norms over the updates read
// (NaN when there are none): the level the depth profile draws, a mean as
// BlockMeanRatio's is, so that the profile and the ratio read alike.
func (l *LayerGradNorms) Mean() float64 { return meanNorm([]*LayerGradNorms{l}) }

// BlockMeanRatio is the mean gradient norm of the lowest n layers over
// every update read, divided by the same mean of the top n layers: the MSC
// study's read-out of Figure 5 ("the bottom block's mean norm to the top
// block's"), where n is a block of MSC-36 (6 layers) and the same number of
// layers of a plain or DLCL stack. Means, not medians: the read-out was
// fixed as a mean before the runs. NaN when there are fewer than 2n layers.
func BlockMeanRatio(layers []*LayerGradNorms, n int) float64 {
	bottom, top := BlockMeans(layers, n)
	return bottom / top
}

// BlockMeans is the mean gradient norm of the lowest n layers over every
// update read and the same mean of the top n layers, the two terms of
// BlockMeanRatio (NaN when there are fewer than 2n layers): a ratio alone
// hides which end of the stack moved.
func BlockMeans(layers []*LayerGradNorms, n int) (bottom, top float64) {
	if n < 1 || len(layers) < 2*n {
		return math.NaN(), math.NaN()
	}
	return meanNorm(layers[:n]), meanNorm(layers[len(layers)-n:])
}

func meanNorm(layers []*LayerGradNorms) float64 {
	var sum float64
	var k int
	for _, l := range layers {
		for _, v := range l.Norms {
			sum += v
			k++
		}
	}
	if k == 0 {
		return math.NaN()
	}
	return sum / float64(k)
}
