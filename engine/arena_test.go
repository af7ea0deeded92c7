package engine

import "testing"

// A step of the shape token batching produces: B·T ≈ 4096 tokens, buffers
// proportional to the tokens and to B·T² (attention probabilities).
func arenaStep(a *arena, t int) {
	b := 4096 / t
	for layer := 0; layer < 6; layer++ {
		a.get(b * t * 128)
		a.recycle(a.get(b * t * 512))
		a.get(b * 4 * t * t)
	}
	a.release()
}

// Batches of varying length must not make the arena keep a buffer for
// every size class it ever saw (it held 6.7 GB training a d=128 model),
// and a repeated shape must allocate nothing new.
func TestArenaBoundedOverShapes(t *testing.T) {
	a := newArena()
	r := NewRNG(3)
	for step := 0; step < 400; step++ {
		arenaStep(a, 5+int(r.Float64()*96))
		if a.held > 2*a.peak+4*a.peak/10 {
			t.Fatalf("step %d: arena holds %d MB for a.peak in use of %d MB", step, a.held>>20, a.peak>>20)
		}
	}
	t.Logf("holds %d MB, peak in use %d MB", a.held>>20, a.peak>>20)
	arenaStep(a, 40)
	held := a.held
	for step := 0; step < 5; step++ {
		arenaStep(a, 40)
	}
	if a.held != held {
		t.Fatalf("a repeated shape grew the arena from %d to %d bytes", held, a.held)
	}
}
