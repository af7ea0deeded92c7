package engine

import (
	"fmt"
	"strings"
	"sync/atomic"
)

// MaxDims is the largest rank a Tensor can have.
const MaxDims = 4

// Tensor is a contiguous row-major float32 array. Data and Grad may come from
// a Graph's arena (intermediates, valid until Graph.Reset) or be owned by the
// tensor (parameters, constants).
type Tensor struct {
	Data []float32
	// Grad holds ∂loss/∂tensor once backward has run; nil for tensors that
	// do not need gradients. Parameters own theirs; intermediates get one
	// from the arena on first use.
	Grad []float32
	// Name is set for parameters ("encoder.layers.3.self_attn.q_proj.weight").
	Name string

	shape    [MaxDims]int
	ndim     int
	needGrad bool
	// arenaGrad: Grad came from the graph's arena for this tensor (an
	// intermediate), so backward may recycle it once consumed
	arenaGrad bool
	// int8w is the quantized form int8 inference graphs multiply with
	// (int8.go), nil until needed; atomic, as concurrent decoders share
	// a model's weights.
	int8w atomic.Pointer[Int8Weights]
	// f32p is the packed copy float32 inference products multiply with
	// (sgemm_packed.go), nil until needed.
	f32p atomic.Pointer[PackedF32]
}

// NewTensor allocates a zeroed tensor that owns its data.
func NewTensor(shape ...int) *Tensor {
	t := &Tensor{}
	t.setShape(shape)
	t.Data = make([]float32, t.Size())
	return t
}

// FromData wraps data (not copied) in a tensor of the given shape.
func FromData(data []float32, shape ...int) *Tensor {
	t := &Tensor{Data: data}
	t.setShape(shape)
	if len(data) != t.Size() {
		panic(fmt.Sprintf("engine: %d values for shape %v", len(data), shape))
	}
	return t
}

func (t *Tensor) setShape(shape []int) {
	if len(shape) == 0 || len(shape) > MaxDims {
		panic(fmt.Sprintf("engine: rank %d not supported", len(shape)))
	}
	t.ndim = len(shape)
	for i, s := range shape {
		if s < 0 {
			panic(fmt.Sprintf("engine: negative dimension in %v", shape))
		}
		t.shape[i] = s
	}
}

// Shape returns the dimensions (a view; do not modify).
func (t *Tensor) Shape() []int { return t.shape[:t.ndim] }

// Dim returns dimension i; negative i counts from the end.
func (t *Tensor) Dim(i int) int {
	if i < 0 {
		i += t.ndim
	}
	return t.shape[i]
}

// Size is the number of elements.
func (t *Tensor) Size() int {
	n := 1
	for _, s := range t.shape[:t.ndim] {
		n *= s
	}
	return n
}

// Cols is the last dimension; Rows the product of the others.
func (t *Tensor) Cols() int { return t.shape[t.ndim-1] }

// Rows is Size()/Cols().
func (t *Tensor) Rows() int {
	if t.Cols() == 0 {
		return 0
	}
	return t.Size() / t.Cols()
}

// RequiresGrad reports whether gradients flow into this tensor.
func (t *Tensor) RequiresGrad() bool { return t.needGrad }

// SetRequiresGrad marks a leaf tensor (a parameter) as trainable and gives
// it a gradient buffer.
func (t *Tensor) SetRequiresGrad(on bool) {
	t.needGrad = on
	if on && t.Grad == nil {
		t.Grad = make([]float32, len(t.Data))
	}
}

// ZeroGrad clears an owned gradient.
func (t *Tensor) ZeroGrad() {
	clear(t.Grad)
}

// Item returns the single value of a one-element tensor.
func (t *Tensor) Item() float32 {
	if len(t.Data) != 1 {
		panic(fmt.Sprintf("engine: Item on tensor of shape %v", t.Shape()))
	}
	return t.Data[0]
}

func (t *Tensor) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Tensor%v", t.Shape())
	if t.Name != "" {
		fmt.Fprintf(&b, "(%s)", t.Name)
	}
	return b.String()
}

func sameShape(a, b *Tensor) bool {
	if a.ndim != b.ndim {
		return false
	}
	return a.shape == b.shape
}

func mustSameShape(op string, a, b *Tensor) {
	if !sameShape(a, b) {
		panic(fmt.Sprintf("engine.%s: shapes %v and %v differ", op, a.Shape(), b.Shape()))
	}
}
