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
	err := rootCmd.ExecuteContext(signalContext())
	stopCPUProfile()
	if sig := interruptedBy(); sig != nil && err != nil {
		// a command that stopped on the signal: its own message if it
		// says what it saved, else what is left on disk
		var ie interruptedError
		if errors.As(err, &ie) {
			fmt.Fprintln(os.Stderr, "strata:", err)
		} else {
			fmt.Fprintf(os.Stderr, "strata: interrupted by %s; %s\n", signalName(sig), keptLine())
		}
		os.Exit(signalStatus(sig))
	}
	if err != nil {
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
// had, and says what was saved: main exits with 128 + the signal
// (signals.go), 130 when no signal is known.
type interruptedError struct{ what string }

func (e interruptedError) Error() string { return e.what }
func (e interruptedError) ExitCode() int { return 130 }
