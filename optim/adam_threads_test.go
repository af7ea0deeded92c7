package optim

import (
	"math/rand/v2"
	"testing"

	"github.com/strata-nmt/strata/engine"
)

// An update split over goroutines changes every element exactly as the
// serial update does, across parameter boundaries and with L2 and decay.
func TestAdamThreadsMatchSerial(t *testing.T) {
	mk := func() []*engine.Tensor {
		r := rand.New(rand.NewPCG(3, 4))
		var ps []*engine.Tensor
		for i, n := range []int{70000, 3, 150001, 65536} {
			p := engine.NewTensor(n)
			p.Name = []string{"encoder.a", "decoder.b", "encoder.c", "decoder.d"}[i]
			p.Grad = make([]float32, n)
			for j := range p.Data {
				p.Data[j] = float32(r.NormFloat64())
				p.Grad[j] = float32(r.NormFloat64())
			}
			ps = append(ps, p)
		}
		return ps
	}
	cfg := AdamConfig{Beta1: 0.9, Beta2: 0.98, Eps: 1e-8, WeightDecay: 0.01, L2: map[string]float64{"encoder": 1e-3}}
	run := func(threads int) []*engine.Tensor {
		ps := mk()
		a, err := NewAdam(ps, cfg)
		if err != nil {
			t.Fatal(err)
		}
		a.Threads = threads
		for s := 0; s < 3; s++ {
			a.Update(1e-3)
		}
		return ps
	}
	want := run(1)
	for _, th := range []int{2, 3} {
		got := run(th)
		for i := range want {
			for j := range want[i].Data {
				if got[i].Data[j] != want[i].Data[j] {
					t.Fatalf("threads %d: %s[%d] = %v, serial %v", th, want[i].Name, j, got[i].Data[j], want[i].Data[j])
				}
			}
		}
	}
}
