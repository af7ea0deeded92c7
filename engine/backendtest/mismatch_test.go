package backendtest

import (
	"math"
	"testing"
)

// TestMismatch: the comparison catches an error just over an op's
// tolerance, a wrong length and a NaN, and passes values within it.
func TestMismatch(t *testing.T) {
	want := []float32{1, -2, 0.5, 0}
	near := []float32{1 + 1e-7, -2, 0.5, 5e-7}
	if msg, _ := mismatch(near, want, TolElem); msg != "" {
		t.Errorf("values within TolElem rejected: %s", msg)
	}
	far := []float32{1, -2, 0.5 + 1e-5, 0}
	if msg, _ := mismatch(far, want, TolElem); msg == "" {
		t.Error("an error of 1e-5 at scale 2 passed TolElem")
	}
	if msg, _ := mismatch(want[:3], want, TolElem); msg == "" {
		t.Error("a short output passed")
	}
	nan := []float32{1, -2, float32(math.NaN()), 0}
	if msg, _ := mismatch(nan, want, TolRow); msg == "" {
		t.Error("a NaN passed")
	}
}
