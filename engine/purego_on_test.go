//go:build purego

package engine

// puregoBuild: this test binary was built with -tags purego (no assembly).
const puregoBuild = true
