package decode

import (
	"os"
	"runtime/debug"
)

// DecodeGCPercent is the garbage collector target decoding commands run
// with (GOGC=25): the heap may grow to 1.25x the live data between
// collections instead of Go's default 2x. Decoding allocates little once
// its arenas and caches are warm (a 64-sentence benchmark run allocates
// about 1.5x its live heap in all), so the extra collections cost nothing
// measurable, while the default let the heap, and the peak resident set,
// reach twice the live data (docs/decoding.md: 301 → 260 MB for the int8
// benchmark).
const DecodeGCPercent = 25

// TightGC sets the garbage collector's target to DecodeGCPercent unless
// the GOGC environment variable chooses one.
func TightGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(DecodeGCPercent)
	}
}
