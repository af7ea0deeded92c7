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

// After a run of large steps, the arena gives back their buffers within
// two windows of small steps instead of keeping them for good.
func TestArenaTrimsAfterLargeSteps(t *testing.T) {
	a := newArena()
	for step := 0; step < 10; step++ {
		arenaStep(a, 100) // attention buffers of 4096·4·100 floats
	}
	large := a.held
	for step := 0; step < 2*arenaWindow+1; step++ {
		arenaStep(a, 10)
	}
	if a.held > a.peak+a.peak/2 || a.held > large/2 {
		t.Fatalf("arena holds %d MB after small steps (%d MB after the large ones, %d MB in use at the peak of the small ones)",
			a.held>>20, large>>20, a.peak>>20)
	}
}

// ReleaseSince frees what was produced after the mark, keeps the buffer of
// a kept tensor even when the tensor is a view into it, and refuses a
// recording graph.
func TestReleaseSince(t *testing.T) {
	g := NewInference()
	before := g.Zeros(4, 16)
	mark := g.Mark()
	a := g.Zeros(4, 16)
	b := g.Zeros(8, 16)
	Fill(b, 3)
	view := FromData(b.Data[16:32], 16) // a view into b's buffer
	g.ReleaseSince(mark, view)
	if g.arena.inUseBytes != 4*(sizeClass(64)+sizeClass(128)) {
		t.Fatalf("%d bytes in use, want before's and b's only", g.arena.inUseBytes)
	}
	c := g.Zeros(4, 16) // takes a's buffer back
	if &c.Data[0] != &a.Data[0] || &before.Data[0] == &c.Data[0] {
		t.Fatal("the released buffer was not reused, or a kept one was")
	}
	Fill(c, 1)
	if view.Data[0] != 3 {
		t.Fatal("the buffer of a kept view was released")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("ReleaseSince on a recording graph did not panic")
		}
	}()
	NewGraph(1).ReleaseSince(0)
}

// ResetAndDrop must leave the arena holding nothing (a decoding searcher
// moves from its encoder's buffers to its steps' and back), and the graph
// must work as before afterwards.
func TestResetAndDrop(t *testing.T) {
	g := NewInference()
	x := NewTensor(64, 32)
	for i := range x.Data {
		x.Data[i] = float32(i%7) - 3
	}
	w := NewTensor(16, 32)
	for i := range w.Data {
		w.Data[i] = float32(i%5) / 5
	}
	want := append([]float32(nil), g.Linear(x, w, nil).Data...)
	g.Reset()
	if g.HeldBytes() == 0 {
		t.Fatal("the arena holds nothing after a product and a Reset: the test shows nothing")
	}
	held := g.HeldBytes()
	if dropped := g.ResetAndDrop(); dropped != held || g.HeldBytes() != 0 {
		t.Fatalf("ResetAndDrop dropped %d bytes of %d, holds %d", dropped, held, g.HeldBytes())
	}
	got := g.Linear(x, w, nil).Data
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("after ResetAndDrop element %d is %v, was %v", i, got[i], want[i])
		}
	}
}
