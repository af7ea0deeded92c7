package main

import (
	"math"
	"testing"

	"github.com/strata-nmt/strata/bench/internal/gemmfloor"
	"github.com/strata-nmt/strata/engine"
)

// The formula must count exactly the products the engine makes in a step
// (traced), on a small model with unequal source and target lengths.
func TestStepFLOPMatchesTrace(t *testing.T) {
	o := options{steps: 1, batch: 3, srcLen: 7, tgtLen: 5, vocab: 50, dim: 16, ffn: 24, heads: 2, layers: 2,
		norm: "post", dropout: 0.1, smoothing: 0.1, lr: 1e-3, lrWarmup: 10, threads: 1, seed: 1}
	m, g := newModel(o)
	stop := engine.TraceGemms()
	forwardBackward(o, m, g, randomBatches(o)[0])
	traced := gemmfloor.TotalFlops(stop())
	if got := stepFLOP(o); math.Abs(got-traced) > 1e-9*traced {
		t.Fatalf("stepFLOP %.0f, traced products %.0f", got, traced)
	}
	if err := checkStepFLOP(o, traced); err != nil {
		t.Fatal(err)
	}
	if err := checkStepFLOP(o, traced*1.01); err == nil {
		t.Fatal("a traced step 1% off the count passed the run's check")
	}
}
