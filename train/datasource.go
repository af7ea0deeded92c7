package train

import (
	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/model"
)

// DataSource adapts a data.Batcher (a prepared data directory) to Source.
type DataSource struct{ B *data.Batcher }

// Epoch implements Source.
func (s DataSource) Epoch(e int) (int, func(int) model.Batch) {
	plan := s.B.Plan(e)
	return len(plan), func(i int) model.Batch { return ModelBatch(s.B.Make(plan[i])) }
}

// ModelBatch converts a data batch to the model's.
func ModelBatch(b *data.Batch) model.Batch {
	return model.Batch{Src: b.Src, TgtIn: b.TgtIn, TgtOut: b.TgtOut, B: b.B, S: b.S, T: b.T}
}

// ValidBatches returns the fixed batches of a split.
func ValidBatches(ds *data.Dataset, split string, maxTokens int) ([]model.Batch, error) {
	sp, err := ds.Split(split)
	if err != nil {
		return nil, err
	}
	b, err := data.NewBatcher(sp, ds.Sequencer(), data.BatcherOptions{MaxTokens: maxTokens, Fixed: true})
	if err != nil {
		return nil, err
	}
	var out []model.Batch
	for _, idx := range b.Plan(1) {
		out = append(out, ModelBatch(b.Make(idx)))
	}
	return out, nil
}
