package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/decode"
	"github.com/strata-nmt/strata/model"
	"github.com/strata-nmt/strata/rundir"
)

// finetuneModel builds the model to fine-tune (fairseq's
// --finetune-from-model): the architecture and weights of a trained model,
// with --set overrides of fields that do not change parameter shapes
// (dropout, for instance), and a fresh optimiser and schedule. The data
// must use the model's vocabulary (prepared with its BPE model).
func finetuneModel(cmd *cobra.Command, f trainFlags, ds *data.Dataset, seed uint64) (model.Model, error) {
	for _, name := range []string{"preset", "model-config"} {
		if cmd.Flags().Changed(name) {
			return nil, fmt.Errorf("train: --%s and --finetune-from exclude each other: the architecture is the fine-tuned model's", name)
		}
	}
	path, err := rundir.ModelPath(f.finetuneFrom)
	if err != nil {
		return nil, err
	}
	from, err := model.Load(path)
	if err != nil {
		return nil, err
	}
	c := from.Config()
	if err := decode.CheckVocab(path, c, f.dataDir, ds.Vocab); err != nil {
		return nil, fmt.Errorf("train: %w; prepare the fine-tuning data with the model's BPE model and languages", err)
	}
	c.VocabHash = ds.Vocab.Hash()
	if err := c.Override(f.sets); err != nil {
		return nil, err
	}
	m, err := model.New(c, seed)
	if err != nil {
		return nil, err
	}
	if err := model.SetParams(m, from.Params().List()); err != nil {
		return nil, fmt.Errorf("train: --set changed the shape of %s: %w", path, err)
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "fine-tuning %s (%s)\n", path, c.Summary())
	return m, nil
}
