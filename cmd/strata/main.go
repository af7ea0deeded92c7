// Command strata is the single binary of the strata NMT toolkit: it prepares
// data, trains, translates, evaluates and analyses Transformer models.
//
// Each subcommand lives in its own file in this directory and registers itself
// with rootCmd from an init function, so adding a command touches one file.
package main

import (
	"errors"
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
		code := 1
		var ec exitCoder
		if errors.As(err, &ec) {
			code = ec.ExitCode()
		}
		os.Exit(code)
	}
}

// exitCoder is an error that asks for a particular exit status.
type exitCoder interface{ ExitCode() int }

// interruptedError reports work stopped by a signal after saving what it
// had: the status is 130, as a shell reports a process ended by SIGINT, so
// that scripts do not take an interrupted run for a finished one.
type interruptedError struct{ what string }

func (e interruptedError) Error() string { return e.what }
func (e interruptedError) ExitCode() int { return 130 }
