package engine

import "testing"

// DropGrads frees the gradients of registered parameters and of the
// tensors adopted views share (a fused projection's buffer).
func TestDropGrads(t *testing.T) {
	p := NewParams()
	a := p.New("a", 3, 2)
	whole := NewTensor(4, 2)
	whole.SetRequiresGrad(true)
	v := p.Adopt("v", whole, 2, 1, 2)
	p.DropGrads()
	for _, x := range []*Tensor{a, whole, v} {
		if x.Grad != nil || x.needGrad {
			t.Fatalf("%q keeps a gradient of %d values (needGrad %v)", x.Name, len(x.Grad), x.needGrad)
		}
	}
	if len(p.wholes) != 1 {
		t.Fatalf("%d adopted wholes recorded, want 1", len(p.wholes))
	}
}
