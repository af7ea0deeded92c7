// Command strata is the single binary of the strata NMT toolkit: it prepares
// data, trains, translates, evaluates and analyses Transformer models.
//
// Each subcommand lives in its own file in this directory and registers itself
// with rootCmd from an init function, so adding a command touches one file.
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

var rootCmd = &cobra.Command{
	Use:           "strata",
	Short:         "strata: train, translate, evaluate and explain Transformer NMT models",
	SilenceUsage:  true,
	SilenceErrors: true,
}

func main() {
	if err := rootCmd.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "strata:", err)
		os.Exit(1)
	}
}
