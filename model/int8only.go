package model

import (
	"reflect"

	"github.com/strata-nmt/strata/engine"
)

// ReleaseFloat32 prepares m to decode in int8 only: the weight of every
// Linear it holds is quantized and its float32 values dropped
// (engine.Params.ReleaseFloat32), unless the model also holds that tensor
// outside a Linear (an embedding table tied to a projection is looked up in
// float32). A 6+6-layer d=256 model then holds its projections as 1 byte per
// weight instead of 5. Afterwards m decodes (every inference graph
// multiplies in int8) but cannot be trained or saved. It returns the bytes
// released.
func ReleaseFloat32(m Model) int {
	w := &weightWalk{seen: map[uintptr]bool{}, linear: map[*engine.Tensor]bool{}, other: map[*engine.Tensor]bool{}}
	w.visit(reflect.ValueOf(m))
	var only []*engine.Tensor
	for _, t := range w.order {
		if !w.other[t] {
			only = append(only, t)
		}
	}
	return m.Params().ReleaseFloat32(only)
}

// weightWalk finds the Linear weights of a model by walking its structs.
// Reflection instead of a method per architecture: the architectures nest
// their Linears in layers, blocks, context cells and fusions, and a list
// kept by hand would silently miss one added later (costing only memory),
// while the walk also sees every place a tensor is held outside a Linear,
// which a hand list could not check.
type weightWalk struct {
	seen   map[uintptr]bool
	linear map[*engine.Tensor]bool
	other  map[*engine.Tensor]bool
	order  []*engine.Tensor // linear weights in the order found
}

var (
	linearType = reflect.TypeOf(Linear{})
	tensorType = reflect.TypeOf((*engine.Tensor)(nil))
	engineType = reflect.TypeOf(engine.Params{}).PkgPath()
)

func (w *weightWalk) visit(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if v.Type() == tensorType {
			w.other[(*engine.Tensor)(v.UnsafePointer())] = true
			return
		}
		if w.seen[v.Pointer()] {
			return
		}
		w.seen[v.Pointer()] = true
		w.visit(v.Elem())
	case reflect.Interface:
		w.visit(v.Elem())
	case reflect.Struct:
		w.visitStruct(v)
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			w.visit(v.Index(i))
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			w.visit(it.Value())
		}
	}
}

func (w *weightWalk) visitStruct(v reflect.Value) {
	t := v.Type()
	if t.PkgPath() == engineType {
		// the parameter registry holds every tensor; the engine's own
		// structs are not the model's layout
		return
	}
	if t == linearType {
		if p := v.FieldByName("W"); !p.IsNil() {
			lw := (*engine.Tensor)(p.UnsafePointer())
			if !w.linear[lw] {
				w.linear[lw] = true
				w.order = append(w.order, lw)
			}
		}
		w.visit(v.FieldByName("B")) // the bias is read in float32
		return
	}
	for i := 0; i < v.NumField(); i++ {
		w.visit(v.Field(i))
	}
}
