package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"sync"

	"github.com/strata-nmt/strata/internal/atomicfile"
)

// --cpuprofile: a Go CPU profile of any command (go tool pprof FILE), for
// a user who wants to see where a training step or a decode goes on their
// machine and model rather than on the benchmarks' shapes. The profile is
// an atomic write: it appears, complete, when the command ends, also when
// a signal or an error ends it.
var cpuProfile struct {
	sync.Mutex
	path string
	f    *atomicfile.File
}

func init() {
	rootCmd.PersistentFlags().StringVar(&cpuProfile.path, "cpuprofile", "",
		"write a CPU profile of the command to this file (read it with go tool pprof)")
}

// startCPUProfile starts the profile when --cpuprofile names a file.
func startCPUProfile() error {
	cpuProfile.Lock()
	defer cpuProfile.Unlock()
	if cpuProfile.path == "" || cpuProfile.f != nil {
		return nil
	}
	f, err := atomicfile.Create(cpuProfile.path)
	if err != nil {
		return fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Abort()
		return fmt.Errorf("--cpuprofile %s: %w", cpuProfile.path, err)
	}
	cpuProfile.f = f
	return nil
}

// stopCPUProfile ends a running profile and writes its file; every exit
// path of main calls it.
func stopCPUProfile() {
	cpuProfile.Lock()
	defer cpuProfile.Unlock()
	if cpuProfile.f == nil {
		return
	}
	pprof.StopCPUProfile()
	if err := cpuProfile.f.Commit(); err != nil {
		fmt.Fprintln(os.Stderr, "strata: --cpuprofile:", err)
	}
	cpuProfile.f = nil
}
