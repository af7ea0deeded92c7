package main

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/strata-nmt/strata/decode"
	"github.com/strata-nmt/strata/engine"
)

// computeFlags registers --compute-type, --int8-bits, --cache-type and --shortlist, shared by
// translate, eval-matrix, serve and analyze llr.
func computeFlags(fl *pflag.FlagSet, o *decode.Options) {
	fl.StringVar(&o.ComputeType, "compute-type", "", "matrix products in "+strings.Join(decode.ComputeTypes, " or ")+" (int8: weights and activations quantized per row, see docs/decoding.md; default: the model file's, int8 after strata quantize, float32 otherwise)")
	fl.IntVar(&o.Int8Bits, "int8-bits", engine.DefaultInt8Bits, "with --compute-type int8, the activation width: 8, or 7 for the faster AVX2 kernel (docs/decoding.md)")
	fl.StringVar(&o.CacheType, "cache-type", "", "decoder self-attention cache in "+strings.Join(decode.CacheTypes, " or ")+" (default: float16 with --compute-type int8, float32 otherwise)")
	fl.StringVar(&o.Shortlist, "shortlist", "", "decode each batch over the target tokens this shortlist allows its sources (strata shortlist)")
}
