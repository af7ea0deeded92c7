package decode

import (
	"fmt"
	"os"
	"strings"

	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/model"
)

// checkpointHeader is the part of a model or checkpoint file's metadata
// averaging needs.
type checkpointHeader struct {
	Kind   string       `json:"kind"`
	Config model.Config `json:"config"`
}

// Average returns the element-wise mean of the parameters of the given
// model or checkpoint files (fairseq's average_checkpoints; optimiser state
// is dropped). Files must share the architecture and the parameter set.
// Sums are taken in float64, so the mean is the correctly rounded float32
// of the exact mean (fairseq sums in float32; the two differ in the last
// bit at most).
func Average(paths []string) (model.Model, error) {
	if len(paths) == 0 {
		return nil, fmt.Errorf("average: no checkpoints given")
	}
	var first checkpointHeader
	var sums map[string][]float64
	var names []string
	var shapes map[string][]int
	for k, p := range paths {
		h, ts, err := readCheckpoint(p)
		if err != nil {
			return nil, err
		}
		if k == 0 {
			first, sums, shapes = h, map[string][]float64{}, map[string][]int{}
			for _, t := range ts {
				sums[t.Name] = make([]float64, len(t.Data))
				shapes[t.Name] = t.Shape()
				names = append(names, t.Name)
			}
		} else if err := first.Config.SameArchitecture(h.Config); err != nil {
			return nil, fmt.Errorf("average: %s and %s have %w", paths[0], p, err)
		} else if first.Config.VocabHash != h.Config.VocabHash {
			return nil, fmt.Errorf("average: %s has vocabulary %q, %s has %q: trained on different data", paths[0], first.Config.VocabHash, p, h.Config.VocabHash)
		}
		if len(ts) != len(sums) {
			return nil, fmt.Errorf("average: %s has %d parameters, %s has %d", p, len(ts), paths[0], len(sums))
		}
		for _, t := range ts {
			s, ok := sums[t.Name]
			if !ok {
				return nil, fmt.Errorf("average: %s has parameter %s that %s lacks", p, t.Name, paths[0])
			}
			if fmt.Sprint(t.Shape()) != fmt.Sprint(shapes[t.Name]) {
				return nil, fmt.Errorf("average: parameter %s is %v in %s but %v in %s", t.Name, t.Shape(), p, shapes[t.Name], paths[0])
			}
			for i, x := range t.Data {
				s[i] += float64(x)
			}
		}
	}
	avg := make([]*engine.Tensor, 0, len(names))
	for _, n := range names {
		t := engine.NewTensor(shapes[n]...)
		t.Name = n
		for i, s := range sums[n] {
			t.Data[i] = float32(s / float64(len(paths)))
		}
		avg = append(avg, t)
	}
	m, err := model.New(first.Config, 0)
	if err != nil {
		return nil, fmt.Errorf("average: %s: %w", paths[0], err)
	}
	if err := model.SetParams(m, avg); err != nil {
		return nil, fmt.Errorf("average: %w", err)
	}
	return m, nil
}

// readCheckpoint reads a model or checkpoint file's config and parameters
// (optimiser tensors left out).
func readCheckpoint(path string) (checkpointHeader, []*engine.Tensor, error) {
	var h checkpointHeader
	f, err := os.Open(path)
	if err != nil {
		return h, nil, err
	}
	defer f.Close()
	ts, err := engine.ReadTensors(f, &h)
	if err != nil {
		return h, nil, fmt.Errorf("%s: %w", path, err)
	}
	if h.Kind != model.ModelKind && h.Kind != model.CheckpointKind {
		return h, nil, fmt.Errorf("%s: not a strata model or checkpoint (kind %q)", path, h.Kind)
	}
	params := ts[:0]
	for _, t := range ts {
		if !strings.HasPrefix(t.Name, "optimizer.") {
			params = append(params, t)
		}
	}
	return h, params, nil
}
