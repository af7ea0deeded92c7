package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/strata-nmt/strata/langid"
)

// The one rule by which langid and eval-matrix find their language-ID
// model, stated in both commands' --help.
const (
	// defaultLidModel is lid.176 where the shared data sits next to the
	// repository.
	defaultLidModel = "../shared/models/lid.176.ftz"
	// lidModelEnv names a model for every command that identifies languages.
	lidModelEnv = "STRATA_LID_MODEL"
	// lidFallback asks for the pure-Go fallback detector explicitly.
	lidFallback = "fallback"

	lidRuleHelp = "fastText language-ID model (.bin or .ftz). Without it: $" + lidModelEnv +
		", else " + defaultLidModel + " from the repository root when present, else the much weaker pure-Go fallback detector, announced on standard error; \"" +
		lidFallback + "\" asks for the fallback"
)

// findLidModel applies the rule: the flag's path, else $STRATA_LID_MODEL,
// else lid.176 next to the repository; "" means the fallback.
func findLidModel(flag string) string {
	switch {
	case flag == lidFallback:
		return ""
	case flag != "":
		return flag
	case os.Getenv(lidModelEnv) != "":
		return os.Getenv(lidModelEnv)
	}
	if root, ok := repoRoot(); ok {
		if p := filepath.Join(root, defaultLidModel); fileExists(p) {
			return p
		}
	}
	return ""
}

// loadIdentifier loads the model the rule finds, or the fallback detector
// with a note on log; fallback reports which.
func loadIdentifier(flag string, log io.Writer) (det langid.Detector, fallback bool, err error) {
	path := findLidModel(flag)
	if path == "" {
		why := "no fastText language-ID model found (--model/--lid-model, $" + lidModelEnv + ", or " + defaultLidModel + " from the repository root)"
		if flag == lidFallback {
			why = "asked for the fallback detector"
		}
		fmt.Fprintf(log, "note: %s; using %s\n", why, langid.FallbackName)
		return langid.NewFallback(), true, nil
	}
	m, err := langid.Load(path)
	if err != nil {
		return nil, false, err
	}
	return m, false, nil
}
