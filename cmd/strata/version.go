package main

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/strata-nmt/strata/internal/buildinfo"
)

func init() {
	// strata --version, as every tool has, besides strata version
	rootCmd.Version = buildinfo.Version()
	rootCmd.SetVersionTemplate("strata {{.Version}}\n")
	rootCmd.AddCommand(&cobra.Command{
		Use:   "version",
		Short: "Print strata's version",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, args []string) {
			fmt.Fprintln(cmd.OutOrStdout(), "strata", buildinfo.Version())
		},
	})
}
