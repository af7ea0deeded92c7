package model

import (
	"io"

	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/internal/atomicfile"
)

// SaveInt8 writes the model with every weight matrix (projections and
// embeddings) quantized per row to int8 (engine.WriteTensorsInt8), biases
// and norms in float32: about a quarter of Save's file. Load reads it
// like any model file; its matrices come back dequantized, so float32
// decoding works too, and an int8 graph re-quantizes them to exactly the
// stored integers and scales.
func SaveInt8(path string, m Model, extra map[string]any) error {
	return atomicfile.WriteWith(path, func(w io.Writer) error {
		return engine.WriteTensorsInt8(w, fileMeta{Kind: ModelKind, Config: m.Config(), Extra: extra}, m.Params().List())
	})
}
