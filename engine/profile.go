package engine

import (
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
)

// OpProfile accumulates the wall time a graph spends in each kind of op,
// forward and backward, to show where a training step goes (the engine
// benchmarks report it; a trainer can print it). Attach one with
// Graph.SetProfile; a nil profile (the default) costs nothing.
//
// An op's forward time is the time since the previous op finished (model
// code between ops is negligible); its backward time is the time its tape
// entry runs. Ops are named after the engine method that records them
// (Linear, Attention, LayerNorm, ...); Add and Sub share "addSub", Scale and
// OneMinus "affine", Sigmoid and Tanh "unary".
type OpProfile struct {
	Forward, Backward map[string]time.Duration
	Calls             map[string]int
}

// NewOpProfile returns an empty profile.
func NewOpProfile() *OpProfile {
	return &OpProfile{Forward: map[string]time.Duration{}, Backward: map[string]time.Duration{}, Calls: map[string]int{}}
}

// SetProfile starts (or, with nil, stops) profiling ops into p.
func (g *Graph) SetProfile(p *OpProfile) {
	g.prof = p
	g.profMark = time.Now()
	g.tapeNames = g.tapeNames[:0]
}

// OpTime is one line of OpProfile.Sorted.
type OpTime struct {
	Op                string
	Forward, Backward time.Duration
	Calls             int
}

// Total is forward plus backward time.
func (o OpTime) Total() time.Duration { return o.Forward + o.Backward }

// Sorted lists ops by total time, largest first.
func (p *OpProfile) Sorted() []OpTime {
	var out []OpTime
	for op, n := range p.Calls {
		out = append(out, OpTime{Op: op, Forward: p.Forward[op], Backward: p.Backward[op], Calls: n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Total() != out[j].Total() {
			return out[i].Total() > out[j].Total()
		}
		return out[i].Op < out[j].Op
	})
	return out
}

// Total is the time of all ops.
func (p *OpProfile) Total() time.Duration {
	var t time.Duration
	for op := range p.Calls {
		t += p.Forward[op] + p.Backward[op]
	}
	return t
}

// opNames caches the op name of each backward closure's code pointer.
var opNames sync.Map

// opName turns a closure's function name, such as
// "github.com/.../engine.(*Graph).Linear.func1", into "Linear".
func opName(fn func()) string {
	pc := reflect.ValueOf(fn).Pointer()
	if n, ok := opNames.Load(pc); ok {
		return n.(string)
	}
	name := "?"
	if f := runtime.FuncForPC(pc); f != nil {
		name = f.Name()
		if i := strings.LastIndex(name, ")."); i >= 0 {
			name = name[i+2:]
		}
		if i := strings.Index(name, "."); i >= 0 {
			name = name[:i]
		}
	}
	opNames.Store(pc, name)
	return name
}

// profileForward charges the time since the last op to the op recording fn.
func (g *Graph) profileForward(fn func()) {
	now := time.Now()
	name := opName(fn)
	g.prof.Forward[name] += now.Sub(g.profMark)
	g.prof.Calls[name]++
	g.profMark = now
	g.tapeNames = append(g.tapeNames, name)
}
