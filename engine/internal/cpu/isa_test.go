package cpu

import (
	"bytes"
	"strings"
	"testing"
)

var all = Features{AVX2FMA: true, F16C: true, AVX512F32: true, VNNI: true}

// TestParseISA: every name round-trips and anything else is an error that
// names the accepted values.
func TestParseISA(t *testing.T) {
	for i := Go; i <= AVX512VNNI; i++ {
		got, err := ParseISA(strings.ToUpper(i.String()))
		if err != nil || got != i {
			t.Errorf("ParseISA(%q) = %v, %v", i.String(), got, err)
		}
	}
	if _, err := ParseISA("sse2"); err == nil || !strings.Contains(err.Error(), "avx512vnni") {
		t.Errorf("ParseISA(sse2): error %v, want one naming the accepted values", err)
	}
}

// TestChooseCaps: a lower level drops exactly the features above it, with
// no notice; no request keeps what was detected.
func TestChooseCaps(t *testing.T) {
	cases := []struct {
		env   string
		want  Features
		level ISA
	}{
		{"", all, AVX512VNNI},
		{"avx512vnni", all, AVX512VNNI},
		{"avx512", Features{AVX2FMA: true, F16C: true, AVX512F32: true}, AVX512},
		{"avx2", Features{AVX2FMA: true, F16C: true}, AVX2},
		{"go", Features{}, Go},
	}
	for _, c := range cases {
		var notes bytes.Buffer
		got, level := Choose(all, c.env, &notes)
		if got != c.want || level != c.level || notes.Len() != 0 {
			t.Errorf("Choose(all, %q) = %+v %v (notes %q), want %+v %v", c.env, got, level, notes.String(), c.want, c.level)
		}
	}
}

// TestChooseRefusesWithNotice: a level above the CPU's, or a name that is
// not one, keeps the detected set and says so on the notices.
func TestChooseRefusesWithNotice(t *testing.T) {
	avx2 := Features{AVX2FMA: true, F16C: true}
	for _, env := range []string{"avx512vnni", "neon"} {
		var notes bytes.Buffer
		got, level := Choose(avx2, env, &notes)
		if got != avx2 || level != AVX2 {
			t.Errorf("Choose(avx2, %q) = %+v %v, want the detected set", env, got, level)
		}
		if !strings.Contains(notes.String(), "using avx2") {
			t.Errorf("Choose(avx2, %q): notice %q, want one naming the level used", env, notes.String())
		}
	}
}

// TestLevel: the level needs every feature of it (F16C included).
func TestLevel(t *testing.T) {
	if l := (Features{AVX2FMA: true}).Level(); l != Go {
		t.Errorf("AVX2 without F16C: level %v, want go", l)
	}
	if l := (Features{AVX2FMA: true, F16C: true, AVX512F32: true}).Level(); l != AVX512 {
		t.Errorf("level %v, want avx512", l)
	}
}
