// Package floors records strata's package layering: every package stands
// on a floor, and a package imports only packages on lower floors, or on
// its own floor within its own top-level directory (engine/blas beside
// engine/mpi, catalog/po beside catalog/placeholder). The rule keeps the
// engine free of models, models free of training, and decoding and the
// analyses free of the trainer, so that each layer can be read, tested
// and replaced on its own. docs/architecture.md explains the floors; the
// test of this package checks the whole module against them.
package floors

import (
	"fmt"
	"strings"
)

// Module is the module path that Of strips from import paths.
const Module = "github.com/strata-nmt/strata"

// Floors lists the package patterns of each floor, lowest first. A
// pattern ending in "/..." covers the directory and everything below it.
var Floors = [][]string{
	// 0: helpers that know nothing of translation.
	{"internal/...", "engine/blas", "engine/mpi", "engine/internal/..."},
	// 1: tensors and kernels, scores, language ID, charts, catalogue formats.
	{"engine", "metrics", "langid", "plot", "catalog/..."},
	// 2: models, subwords, corpus building, the backends' conformance suite.
	{"model", "subword", "corpus", "engine/backendtest"},
	// 3: the optimiser, data directories, run directories.
	{"optim", "data", "rundir"},
	// 4: training and decoding (neither imports the other).
	{"train", "decode"},
	// 5: analyses, the server, the quickstart pipeline.
	{"analysis", "serve", "quickstart"},
	// 6: commands, benchmarks and recipes.
	{"cmd/...", "bench/...", "experiments/..."},
}

// Apart lists imports that the floors would allow but the design does
// not: the analyses and the server read runs through rundir and decode, so
// they run where the trainer is not built and change with it only through
// the run directory's format.
var Apart = map[string][]string{
	"analysis": {"train/..."},
	"serve":    {"train/..."},
}

// Of returns the floor of a package (its import path, with or without the
// module prefix); ok is false for a package outside the module or on no
// floor.
func Of(path string) (floor int, ok bool) {
	rel, inModule := relative(path)
	if !inModule {
		return 0, false
	}
	for f, patterns := range Floors {
		for _, p := range patterns {
			if matches(p, rel) {
				return f, true
			}
		}
	}
	return 0, false
}

// Check says why pkg may not import imp (both import paths), or returns
// nil. Imports from outside the module are not its business.
func Check(pkg, imp string) error {
	if _, inModule := relative(imp); !inModule {
		return nil
	}
	pf, ok := Of(pkg)
	if !ok {
		return fmt.Errorf("%s stands on no floor: add it to internal/floors.Floors and docs/architecture.md", pkg)
	}
	imf, ok := Of(imp)
	if !ok {
		return fmt.Errorf("%s imports %s, which stands on no floor: add it to internal/floors.Floors and docs/architecture.md", pkg, imp)
	}
	rel, _ := relative(pkg)
	impRel, _ := relative(imp)
	for _, p := range Apart[rel] {
		if matches(p, impRel) {
			return fmt.Errorf("%s imports %s, which it must stay apart from (internal/floors.Apart)", pkg, imp)
		}
	}
	switch {
	case imf < pf:
		return nil
	case imf == pf && top(pkg) == top(imp):
		return nil
	case imf == pf:
		return fmt.Errorf("%s (floor %d) imports %s, on the same floor outside its directory", pkg, pf, imp)
	default:
		return fmt.Errorf("%s (floor %d) imports %s, on floor %d above it", pkg, pf, imp, imf)
	}
}

func relative(path string) (string, bool) {
	if path == Module {
		return "", true
	}
	if rel, ok := strings.CutPrefix(path, Module+"/"); ok {
		return rel, true
	}
	return "", false
}

func matches(pattern, rel string) bool {
	if dir, ok := strings.CutSuffix(pattern, "/..."); ok {
		return rel == dir || strings.HasPrefix(rel, dir+"/")
	}
	return rel == pattern
}

// top is a package's top-level directory in the module.
func top(path string) string {
	rel, _ := relative(path)
	first, _, _ := strings.Cut(rel, "/")
	return first
}
