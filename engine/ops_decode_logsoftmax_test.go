package engine

import (
	"math"
	"math/rand/v2"
	"testing"
)

// LogSoftmaxInPlace must give LogSoftmax's bits (decoding's outputs may not
// change with it), for widths on and off the vector kernel's multiple of 8
// and with -Inf logits (a shortlist's excluded tokens).
func TestLogSoftmaxInPlaceMatchesLogSoftmax(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, shape := range [][2]int{{1, 1}, {3, 7}, {5, 8}, {17, 1003}, {160, 8000}} {
		n, v := shape[0], shape[1]
		x := NewTensor(n, v)
		for i := range x.Data {
			x.Data[i] = float32(r.NormFloat64() * 4)
			if v > 8 && r.IntN(5) == 0 {
				x.Data[i] = float32(math.Inf(-1))
			}
		}
		g := NewInference()
		want := g.LogSoftmax(x)
		got := g.LogSoftmaxInPlace(x)
		if &got.Data[0] != &x.Data[0] {
			t.Fatalf("%dx%d: result not in x's buffer", n, v)
		}
		for i := range want.Data {
			if math.Float32bits(got.Data[i]) != math.Float32bits(want.Data[i]) {
				t.Fatalf("%dx%d: element %d is %v, LogSoftmax gives %v", n, v, i, got.Data[i], want.Data[i])
			}
		}
	}
}
