//go:build !amd64 || purego

package cpu

// detect finds nothing: off amd64, or in a purego build, every kernel
// runs its pure-Go reference.
func detect() Features { return Features{} }
