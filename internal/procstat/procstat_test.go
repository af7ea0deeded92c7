package procstat

import (
	"runtime"
	"testing"
)

// The peak grows when the process touches more memory, and CPU time when
// it computes: the numbers are the process's own, in bytes and seconds.
func TestPeakAndCPUFollowTheProcess(t *testing.T) {
	if PeakRSS() <= 0 {
		t.Skipf("no getrusage on %s", runtime.GOOS)
	}
	before, cpu := PeakRSS(), CPUSeconds()
	buf := make([]byte, 256<<20)
	for i := range buf {
		buf[i] = byte(i)
	}
	if grew := PeakRSS() - before; grew < 200<<20 {
		t.Errorf("peak grew by %d bytes after touching 256 MiB", grew)
	}
	if CPUSeconds() <= cpu {
		t.Errorf("CPU time did not advance: %v then %v", cpu, CPUSeconds())
	}
	runtime.KeepAlive(buf)
}
