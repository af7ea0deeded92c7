// Package ceiling measures the arithmetic peak of the cores a benchmark
// runs on, the ceiling its throughput is read against: float32 fused
// multiply-adds (FMAPeak) and int8 multiply-adds (Int8Peak) on the widest
// vectors the CPU has, timed on every thread at once (Measure), and a
// guard (Share) that refuses a share of the ceiling above 100%, which can
// only mean that the work counted or the ceiling is wrong.
//
// The loops are assembly on amd64; built with the purego tag or on other
// architectures they run nothing and report 0 operations, and every
// ceiling is then unknown rather than wrong.
package ceiling
