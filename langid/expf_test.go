package langid

import (
	"math"
	"math/rand"
	"runtime"
	"testing"

	"github.com/ebitengine/purego"
)

// TestExpfMatchesLibm compares expf with the C library's expf, which is
// what the fasttext CLI calls, on random and special inputs.
func TestExpfMatchesLibm(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("libm.so.6 comparison only on Linux")
	}
	lib, err := purego.Dlopen("libm.so.6", purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		t.Skipf("cannot load libm.so.6: %v", err)
	}
	var cExpf func(float32) float32
	purego.RegisterLibFunc(&cExpf, lib, "expf")
	r := rand.New(rand.NewSource(11))
	inputs := []float32{0, -0, 1, -1, 88, -88, 88.72, 89, -103, -104, -150, 1e-9, -1e-30,
		float32(math.Inf(1)), float32(math.Inf(-1))}
	for range 200000 {
		inputs = append(inputs, float32(r.Float64()*200-110), float32(r.NormFloat64()*3))
	}
	bad := 0
	for _, x := range inputs {
		if got, want := expf(x), cExpf(x); math.Float32bits(got) != math.Float32bits(want) {
			if bad++; bad < 5 {
				t.Errorf("expf(%g) = %g, libm gives %g", x, got, want)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d inputs differ from libm", bad, len(inputs))
	}
	// Tests that cannot see libm still pin the algorithm's character.
	if got := expf(1); got != float32(math.E) {
		t.Errorf("expf(1) = %g", got)
	}
}
