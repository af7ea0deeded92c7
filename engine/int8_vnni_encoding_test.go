//go:build linux && amd64 && !purego

package engine

import (
	"debug/elf"
	"debug/gosym"
	"fmt"
	"os"
	"slices"
	"testing"
)

// The VNNI kernel cannot run on a CPU without AVX-512 (QEMU's TCG does not
// emulate it either), so this test checks its machine code, which every
// amd64 machine can read: the test binary's own bytes of kernels.TileInt8VNNI,
// decoded by the Intel SDM's definition of VPDPBUSD (EVEX.256.66.0F38.W0
// 50 /r: ModRM.reg accumulates, EVEX.vvvv is the unsigned source, ModRM.rm
// the signed one). Its inner loop must hold exactly the 8 products
// acc(row r, half h) = Y(2r+h) += u8(Y10, the broadcast activations) ·
// s8(Y8+h, the weight half-panel), unmasked. On a VNNI machine
// TestInt8KernelsMatchIntegerReference runs it as well.
func TestVNNIKernelEncoding(t *testing.T) {
	code := ownFunctionCode(t, "github.com/strata-nmt/strata/engine/internal/kernels.TileInt8VNNI")
	var got []string
	for i := 0; i+6 <= len(code); i++ {
		if d, ok := decodeVPDPBUSD(code[i : i+6]); ok {
			got = append(got, d)
		}
	}
	var want []string
	for acc := 0; acc < 8; acc++ {
		want = append(want, fmt.Sprintf("vpdpbusd ymm%d, ymm10(u8), ymm%d(s8)", acc, 8+acc%2))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("TileInt8VNNI's vpdpbusd instructions:\n%q\nwant\n%q", got, want)
	}
}

// decodeVPDPBUSD decodes a register-form VPDPBUSD at the start of b (6
// bytes: 62, P0, P1, P2, opcode, ModRM) in Intel operand order, or reports
// false for anything else (other opcodes, a memory operand, another
// vector length).
func decodeVPDPBUSD(b []byte) (string, bool) {
	p0, p1, p2, op, modrm := b[1], b[2], b[3], b[4], b[5]
	if b[0] != 0x62 || p0&0x0f != 0x02 || // map 0F38 (mm = 10; bits 3:2 reserved 0)
		p1&0x87 != 0x05 || // W0, fixed bit 2 set, pp = 01 (66)
		op != 0x50 || modrm>>6 != 3 { // opcode 50, register operand
		return "", false
	}
	// R, X, B, R', vvvv and V' are stored inverted
	r := int(^p0>>7&1)<<3 | int(^p0>>4&1)<<4 | int(modrm>>3&7)
	rm := int(^p0>>5&1)<<3 | int(^p0>>6&1)<<4 | int(modrm&7)
	v := int(^p1>>3&15) | int(^p2>>3&1)<<4
	z, ll, bcst, mask := p2>>7, p2>>5&3, p2>>4&1, p2&7
	if ll != 1 || z != 0 || bcst != 0 || mask != 0 {
		return fmt.Sprintf("vpdpbusd with L'L=%d z=%d b=%d k%d", ll, z, bcst, mask), true
	}
	return fmt.Sprintf("vpdpbusd ymm%d, ymm%d(u8), ymm%d(s8)", r, v, rm), true
}

// ownFunctionCode returns the machine code of the named function (all
// functions of that name, in case of an ABI wrapper) in the running test
// binary, found through the Go line table, which stripped binaries keep.
func ownFunctionCode(t *testing.T, name string) []byte {
	exe, err := os.Executable()
	if err != nil {
		t.Skipf("cannot find the test binary: %v", err)
	}
	f, err := elf.Open(exe)
	if err != nil {
		t.Skipf("cannot read the test binary: %v", err)
	}
	defer f.Close()
	pcln, text := f.Section(".gopclntab"), f.Section(".text")
	if pcln == nil || text == nil {
		t.Skip("test binary without .gopclntab or .text")
	}
	data, err := pcln.Data()
	if err != nil {
		t.Fatal(err)
	}
	tab, err := gosym.NewTable(nil, gosym.NewLineTable(data, text.Addr))
	if err != nil {
		t.Fatal(err)
	}
	var code []byte
	for _, fn := range tab.Funcs {
		if fn.Name == name {
			b := make([]byte, fn.End-fn.Entry)
			if _, err := text.ReadAt(b, int64(fn.Entry-text.Addr)); err != nil {
				t.Fatalf("reading %s: %v", name, err)
			}
			code = append(code, b...)
		}
	}
	if code == nil {
		t.Fatalf("no function %s in the test binary", name)
	}
	return code
}
