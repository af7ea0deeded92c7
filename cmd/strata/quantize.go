package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/strata-nmt/strata/model"
	"github.com/strata-nmt/strata/rundir"
)

func init() {
	var modelPath, output string
	cmd := &cobra.Command{
		Use:   "quantize --model RUN_OR_FILE --output DIR",
		Short: "Write a model with int8 weights (about 4x smaller), decoded in int8 by default",
		Long: `Writes DIR/model.bin with every weight matrix quantized per row to int8
(biases and norms stay float32) and, when the model comes from a run
directory, DIR/run.json naming the same data directory, so that
"strata translate --model DIR" decodes it in int8 directly. The file
loads like any model file (--compute-type float32 dequantizes it). Training is
not affected. See docs/decoding.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if modelPath == "" || output == "" {
				return fmt.Errorf("quantize: --model and --output are required")
			}
			path, err := rundir.ModelPath(modelPath)
			if err != nil {
				return err
			}
			m, err := model.Load(path)
			if err != nil {
				return err
			}
			if err := os.MkdirAll(output, 0o755); err != nil {
				return err
			}
			out := filepath.Join(output, rundir.ModelFile)
			if err := model.SaveInt8(out, m, map[string]any{"quantized": "int8", "from": path}); err != nil {
				return err
			}
			if info, err := rundir.ReadInfo(filepath.Dir(path)); err == nil {
				if err := rundir.WriteInfo(output, info); err != nil {
					return err
				}
			} else {
				fmt.Fprintf(os.Stderr, "quantize: no run.json next to %s; translate will need --data\n", path)
			}
			st, _ := os.Stat(out)
			fmt.Fprintf(os.Stderr, "quantized %s (%.1f MB of float32 weights) into %s (%.1f MB)\n",
				path, float64(4*m.Params().Count())/1e6, out, float64(st.Size())/1e6)
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&modelPath, "model", "m", "", "run directory or model/checkpoint file")
	fl.StringVarP(&output, "output", "o", "", "directory to write model.bin (and run.json) into")
	rootCmd.AddCommand(cmd)
}
