// Package buildinfo reports strata's version, taken from the module build
// information so that `go install` and `go build` in a checkout both say
// something useful without a linker flag.
package buildinfo

import "runtime/debug"

// Release is the version of this source tree.
const Release = "0.1.0-dev"

// Version returns the release plus the VCS revision when the binary was built
// from a git checkout.
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return Release
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return Release
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return Release + " (" + rev + ")"
}
