package main

import (
	"fmt"
	"math/rand"
	"time"

	"github.com/spf13/cobra"

	"github.com/strata-nmt/strata/engine/blas"
)

// quickstart is the README's first command. Until training lands it shows the
// environment and measures the matmul backend on a Transformer-sized product.
func init() {
	rootCmd.AddCommand(&cobra.Command{
		Use:   "quickstart",
		Short: "Run the main job on an embedded default (no downloads)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			envCmd, _, _ := rootCmd.Find([]string{"env"})
			envCmd.Run(envCmd, nil)
			m, n, k := 2048, 1024, 256
			a, b, c := make([]float32, m*k), make([]float32, k*n), make([]float32, m*n)
			for i := range a {
				a[i] = rand.Float32()
			}
			for i := range b {
				b[i] = rand.Float32()
			}
			be := blas.Default()
			start, reps := time.Now(), 20
			for i := 0; i < reps; i++ {
				be.Sgemm(false, false, m, n, k, 1, a, k, b, n, 0, c, n)
			}
			sec := time.Since(start).Seconds()
			fmt.Fprintf(cmd.OutOrStdout(), "sgemm %dx%dx%d: %.1f GFLOP/s\n", m, n, k, float64(2*m*n*k*reps)/sec/1e9)
			return nil
		},
	})
}
