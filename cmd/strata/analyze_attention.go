package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/decode"
	"github.com/strata-nmt/strata/plot"
)

type attnFlags struct {
	model, dataDir, srcLang, tgtLang, source, target, kind, out string
	layer, head                                                 int
}

func init() {
	var f attnFlags
	cmd := &cobra.Command{
		Use:   "attention --model RUN --source TEXT [--target TEXT] --kind cross --layer N --output PNG",
		Short: "Plot one layer's attention weights for a sentence (heads averaged, or one head)",
		Long: `Runs the model teacher-forced on one sentence pair and plots a layer's
attention as a heat map with the tokens on both axes. Without --target the
model's own beam-search translation is used. --kind is encoder (source ×
source), decoder (target × target) or cross (target × source); --layer is
0-based; --head -1 averages the heads.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runAttention(cmd, f) },
	}
	fl := cmd.Flags()
	modelFlags(cmd, &f.model, &f.dataDir, nil)
	fl.StringVar(&f.srcLang, "src-lang", "", "source language (multilingual models)")
	fl.StringVar(&f.tgtLang, "tgt-lang", "", "target language (multilingual models)")
	fl.StringVar(&f.source, "source", "", "source sentence")
	fl.StringVar(&f.target, "target", "", "target sentence (default: the model's translation)")
	fl.StringVar(&f.kind, "kind", decode.AttnCross, "encoder, decoder or cross")
	fl.IntVar(&f.layer, "layer", 0, "layer (0-based)")
	fl.IntVar(&f.head, "head", -1, "head (-1: mean over heads)")
	fl.StringVarP(&f.out, "output", "o", "attention.png", "PNG file to write")
	analyzeCmd.AddCommand(aliases(cmd, map[string]string{"out": "output"}))
}

func runAttention(cmd *cobra.Command, f attnFlags) error {
	if f.model == "" || f.source == "" {
		return fmt.Errorf("attention: --model and --source are required")
	}
	b, err := decode.Load(f.model, f.dataDir)
	if err != nil {
		return err
	}
	if f.target == "" {
		s, err := decode.NewSearcher(b.Model, decode.Defaults())
		if err != nil {
			return err
		}
		res, err := decode.NewTranslator(b, s).Lines([]string{f.source}, f.srcLang, f.tgtLang, "")
		if err != nil {
			return err
		}
		f.target = res[0].Best()
		fmt.Fprintf(cmd.OutOrStdout(), "translation: %s\n", f.target)
	}
	enc := b.Vocab.NewEncoder()
	src, err := b.Seq.EncoderInput(nil, enc.Encode(nil, f.source), f.srcLang, f.tgtLang)
	if err != nil {
		return err
	}
	prefix, err := b.Seq.DecoderPrefix(f.tgtLang)
	if err != nil {
		return err
	}
	tgt := append(enc.Encode(nil, f.target), data.EOSID)
	a, err := decode.Attention(b.Model, src, prefix, tgt, f.kind, f.layer)
	if err != nil {
		return err
	}
	w := a.Mean()
	what := "mean of heads"
	if f.head >= 0 {
		if f.head >= len(a.Weights) {
			return fmt.Errorf("attention: head %d of %d", f.head, len(a.Weights))
		}
		w, what = a.Weights[f.head], fmt.Sprintf("head %d", f.head)
	}
	values := make([][]float64, len(w))
	for i, row := range w {
		values[i] = make([]float64, len(row))
		for j, x := range row {
			values[i][j] = float64(x)
		}
	}
	title := fmt.Sprintf("%s attention, layer %d, %s", f.kind, f.layer, what)
	if err := plot.Heatmap(f.out, title, b.Vocab.Tokens(a.Queries), b.Vocab.Tokens(a.Keys), values,
		plot.AxisLabels("key", "query"), plot.ColorRange(0, 1)); err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "wrote %s\n", f.out)
	return nil
}
