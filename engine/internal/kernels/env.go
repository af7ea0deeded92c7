package kernels

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

// LegacyISAEnv reads an older per-family override (STRATA_SGEMM,
// STRATA_INT8). Its instruction-set values (isaValues) still force that
// family's kernel as they did, with a notice on stderr naming STRATA_ISA,
// which caps every family at once; other values (STRATA_SGEMM=blas, which
// names a library) pass without one.
func LegacyISAEnv(name string, isaValues ...string) string {
	v := os.Getenv(name)
	if slices.Contains(isaValues, v) {
		fmt.Fprintf(os.Stderr, "strata: %s=%s still works but is deprecated: STRATA_ISA=%s caps every kernel family at once\n",
			name, v, strings.TrimSuffix(strings.ReplaceAll(v, "-", ""), "+fma"))
	}
	return v
}
