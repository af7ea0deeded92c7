package engine

import (
	"fmt"
	"slices"

	"github.com/strata-nmt/strata/engine/internal/format"
)

// ComputeType is how an inference graph computes: the format of its
// matrix products (weights and activations), the format of the decoder
// caches started on it and, with int8 products, the activation width.
// Float32 is the zero value's resolution; recording (training) graphs
// always compute in float32.
type ComputeType struct {
	// Products is FormatF32 or FormatInt8 (FormatAuto: the model file's,
	// ResolveComputeType).
	Products Format
	// Cache is FormatF32 or FormatF16 (FormatAuto: the products' default,
	// float16 with int8 and float32 otherwise).
	Cache Format
	// Int8Bits is the activation width of int8 products, 7 or 8 (0:
	// DefaultInt8Bits); unused with float32 products.
	Int8Bits int
}

// Float32Compute and Int8Compute are the two product formats with their
// defaults resolved.
var (
	Float32Compute = ComputeType{Products: FormatF32, Cache: FormatF32}
	Int8Compute    = ComputeType{Products: FormatInt8, Cache: FormatF16, Int8Bits: DefaultInt8Bits}
)

// ParseComputeType reads the three settings strata translate takes
// (--compute-type, --cache-type, --int8-bits); empty strings and 0 leave
// the defaults to ResolveComputeType.
func ParseComputeType(products, cache string, int8Bits int) (ComputeType, error) {
	p, err := format.Parse(products, "compute", format.Format.Products)
	if err != nil {
		return ComputeType{}, err
	}
	c, err := format.Parse(cache, "cache", format.Format.Cache)
	if err != nil {
		return ComputeType{}, err
	}
	if int8Bits != 0 && !slices.Contains(Int8Bits, int8Bits) {
		return ComputeType{}, fmt.Errorf("int8 activation width %d bits: must be one of %v", int8Bits, Int8Bits)
	}
	return ComputeType{Products: Format(p), Cache: Format(c), Int8Bits: int8Bits}, nil
}

// ResolveComputeType fills what requested leaves open from the model
// file's weight format (FileFormat; FormatAuto where there is no file):
// products in the file's format, so that a model stored in int8 (strata
// quantize) keeps decoding in int8 unless asked otherwise, as
// CTranslate2's "default" keeps a converted model's type; then the cache
// and activation width the products default to.
func ResolveComputeType(requested ComputeType, file Format) ComputeType {
	return requested.resolve(file)
}

func (c ComputeType) resolve(file Format) ComputeType {
	if c.Products == FormatAuto {
		c.Products = FormatF32
		if file.in().Products() {
			c.Products = file
		}
	}
	if c.Cache == FormatAuto {
		c.Cache = Format(c.Products.in().DefaultCache())
	}
	if c.Products == FormatInt8 && c.Int8Bits == 0 {
		c.Int8Bits = DefaultInt8Bits
	}
	if c.Products != FormatInt8 {
		c.Int8Bits = 0
	}
	return c
}

// String names the type as `strata translate` reports it, e.g. "int8
// (float16 cache, 7-bit activations)".
func (c ComputeType) String() string {
	r := c.resolve(FormatAuto)
	if r.Products == FormatInt8 {
		return fmt.Sprintf("%s (%s cache, %d-bit activations)", r.Products, r.Cache, r.Int8Bits)
	}
	return fmt.Sprintf("%s (%s cache)", r.Products, r.Cache)
}

// SetCompute sets how this inference graph computes (defaults resolved as
// for a float32 file); recording graphs ignore the products' format.
func (g *Graph) SetCompute(c ComputeType) {
	c = c.resolve(FormatAuto)
	if !c.Products.in().Products() || !c.Cache.in().Cache() {
		panic(fmt.Sprintf("engine.SetCompute: %s products with a %s cache", c.Products, c.Cache))
	}
	if c.Products == FormatInt8 && !slices.Contains(Int8Bits, c.Int8Bits) {
		panic(fmt.Sprintf("engine.SetCompute: %d-bit activations (want 7 or 8)", c.Int8Bits))
	}
	g.compute = c
}

// Compute reports how the graph computes (float32 until SetCompute).
func (g *Graph) Compute() ComputeType { return g.compute.resolve(FormatAuto) }
