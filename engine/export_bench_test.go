package engine

import (
	"runtime"

	"github.com/strata-nmt/strata/engine/blas"
)

// UseBLASThreads switches between the engine's two matmul threading modes
// for benchmarks: on, OpenBLAS runs every product on its own GOMAXPROCS
// threads; off (the default), OpenBLAS is single-threaded and the engine
// splits products over goroutines. It returns a function restoring the
// default.
func UseBLASThreads(on bool) (restore func()) {
	initBLAS()
	if !on {
		return func() {}
	}
	was := splitRows
	blas.SetThreads(runtime.GOMAXPROCS(0))
	splitRows = false
	return func() {
		if was {
			blas.SetThreads(1)
		}
		splitRows = was
	}
}
