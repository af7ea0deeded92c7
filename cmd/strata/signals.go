package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/strata-nmt/strata/internal/atomicfile"
)

// Signals. Every command runs under a context that SIGINT or SIGTERM
// cancels (cmd.Context()). Commands annotated stopsOnCancel (train, serve,
// quickstart, eval-matrix, analyze llr) stop cleanly on it and save what
// they can; for every other command the first signal removes the
// temporary files of unfinished writes at once and exits. Either way the
// exit status is 128 + the signal (130 for SIGINT, 143 for SIGTERM), as a
// shell reports a process a signal ended, so that a script's `strata ...
// && touch .done` does not take an interrupted command for a finished one,
// and one line says what was kept. A second signal always exits at once.

// stopsOnCancel marks commands that handle cancellation themselves.
const stopsOnCancel = "strata/stops-on-cancel"

func cancelsCleanly(cmd *cobra.Command) *cobra.Command {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[stopsOnCancel] = "yes"
	return cmd
}

// interrupt records the signal that cancelled the command.
var interrupt struct {
	sync.Mutex
	sig     os.Signal
	running *cobra.Command
}

func init() {
	rootCmd.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		interrupt.Lock()
		interrupt.running = cmd
		interrupt.Unlock()
		return startCPUProfile()
	}
}

// signalContext returns the context commands run under and starts the
// goroutine that handles SIGINT and SIGTERM.
func signalContext() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		for n := 0; ; n++ {
			s := <-ch
			interrupt.Lock()
			interrupt.sig = s
			cmd := interrupt.running
			interrupt.Unlock()
			cancel()
			if n == 0 && cmd != nil && cmd.Annotations[stopsOnCancel] != "" {
				continue // it saves its work and returns
			}
			name := "strata"
			if cmd != nil {
				name = cmd.CommandPath()
			}
			stopCPUProfile()
			fmt.Fprintf(os.Stderr, "%s: interrupted by %s; %s\n", name, signalName(s), keptLine())
			os.Exit(signalStatus(s))
		}
	}()
	return ctx
}

// interruptedBy returns the signal that cancelled the command, or nil.
func interruptedBy() os.Signal {
	interrupt.Lock()
	defer interrupt.Unlock()
	return interrupt.sig
}

func signalStatus(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 130
}

func signalName(s os.Signal) string {
	if s == syscall.SIGTERM {
		return "SIGTERM"
	}
	return "SIGINT"
}

// keptLine removes the temporary files of unfinished writes and says what
// was kept.
func keptLine() string {
	unfinished, finished := atomicfile.RemovePending()
	var parts []string
	if len(unfinished) > 0 {
		parts = append(parts, "removed the unfinished "+names(unfinished)+" (no partial file left)")
	}
	if len(finished) > 0 {
		parts = append(parts, "kept the finished "+names(finished))
	}
	if len(parts) == 0 {
		return "no file was written"
	}
	return strings.Join(parts, "; ")
}

func names(paths []string) string {
	const show = 3
	var out []string
	for i, p := range paths {
		if i == show {
			out = append(out, fmt.Sprintf("and %d more", len(paths)-show))
			break
		}
		out = append(out, filepath.Clean(p))
	}
	return strings.Join(out, ", ")
}
