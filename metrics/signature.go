package metrics

import (
	"fmt"
	"strings"
)

// SacreBLEUVersion is the SacreBLEU release whose algorithms this package
// follows. The version field of signatures reads SacreBLEUVersion+"+strata"
// so that a signature says both which SacreBLEU behaviour the number
// reproduces and that strata, not SacreBLEU, computed it.
const SacreBLEUVersion = "2.6.0"

// signatureVersion is the value of the version field in every signature.
var signatureVersion = SacreBLEUVersion + "+strata"

// sigField is one key:value pair of a signature.
type sigField struct{ key, value string }

// signature is an ordered list of fields formatted like SacreBLEU's
// Signature.format(): "key:value" pairs joined by "|", version last.
type signature []sigField

func (s signature) String() string {
	parts := make([]string, 0, len(s)+1)
	for _, f := range s {
		parts = append(parts, f.key+":"+f.value)
	}
	parts = append(parts, "version:"+signatureVersion)
	return strings.Join(parts, "|")
}

// withBootstrap inserts SacreBLEU's bs and seed fields after nrefs, where
// its paired bootstrap test puts them.
func (s signature) withBootstrap(samples int, seed uint64) signature {
	out := make(signature, 0, len(s)+2)
	for _, f := range s {
		out = append(out, f)
		if f.key == "nrefs" {
			out = append(out, sigField{"bs", fmt.Sprint(samples)},
				sigField{"seed", fmt.Sprint(seed)})
		}
	}
	return out
}

// nrefsValue renders the nrefs field: the count, or "var" when segments
// have different numbers of non-empty references.
func nrefsValue(n int) string {
	if n < 0 {
		return "var"
	}
	return fmt.Sprint(n)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func caseValue(lower bool) string {
	if lower {
		return "lc"
	}
	return "mixed"
}
