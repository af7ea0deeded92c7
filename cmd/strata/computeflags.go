package main

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/strata-nmt/strata/decode"
)

// computeFlags registers --compute-type, --cache-type and --shortlist, shared by
// translate, eval-matrix and serve.
func computeFlags(fl *pflag.FlagSet, o *decode.Options) {
	fl.StringVar(&o.ComputeType, "compute-type", "float32", "matrix products in "+strings.Join(decode.ComputeTypes, " or ")+" (int8: weights and activations quantized per row, see docs/decoding.md)")
	fl.StringVar(&o.CacheType, "cache-type", "", "decoder self-attention cache in "+strings.Join(decode.CacheTypes, " or ")+" (default: float16 with --compute-type int8, float32 otherwise)")
	fl.StringVar(&o.Shortlist, "shortlist", "", "decode each batch over the target tokens this shortlist allows its sources (strata shortlist)")
}
