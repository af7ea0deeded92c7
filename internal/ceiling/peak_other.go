//go:build !amd64 || purego

package ceiling

// Without assembly there is no loop that runs at the core's peak: every
// ceiling is unknown (0 operations), never a guess.

func FMAPeak(n int) float64 { return 0 }

func Int8Peak(n int) float64 { return 0 }

func FMAKernel() string { return "none" }

func Int8Kernel() string { return "none" }
