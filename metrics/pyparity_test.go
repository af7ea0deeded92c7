package metrics

import (
	"bufio"
	"bytes"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// pyParityScript prints, for every code point Python knows (category not
// Cn), the facts our Python emulation depends on: whitespace, lower(),
// final-sigma behaviour in three contexts, and the P/S/N general category
// classes the intl tokenizer matches.
const pyParityScript = `
import sys, unicodedata
out = sys.stdout
for c in range(0x110000):
    if 0xd800 <= c <= 0xdfff:
        continue
    ch = chr(c)
    cat = unicodedata.category(ch)
    if cat == 'Cn':
        continue
    low = ch.lower()
    s1 = ('A' + ch + '\u03a3').lower()[-1] == '\u03c2'
    s2 = ('A\u03a3' + ch).lower()[1] == '\u03c2'
    s3 = (ch + '\u03a3').lower()[-1] == '\u03c2'
    out.write('%x %d %s %d%d%d %s\n' % (c, ch.isspace(), ','.join('%x' % ord(x) for x in low) if low != ch else '-', s1, s2, s3, cat[0]))
`

// TestPythonParity checks pyIsSpace, pyLower and the intl tokenizer's
// Unicode classes against the local python3 over all code points. It skips
// when python3 is absent; code points that Python's and Go's Unicode
// versions assign differently are reported, not failed, when fewer than 20.
func TestPythonParity(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found; parity with Python's str methods not checked")
	}
	if testing.Short() {
		t.Skip("skipped in -short mode")
	}
	out, err := exec.Command(py, "-c", pyParityScript).Output()
	if err != nil {
		t.Skipf("python3 failed: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	bad := 0
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		cp, _ := strconv.ParseUint(f[0], 16, 32)
		r := rune(cp)
		s := string(r)
		var why []string
		if pyIsSpace(r) != (f[1] == "1") {
			why = append(why, "isspace")
		}
		want := s
		if f[2] != "-" {
			var b strings.Builder
			for _, h := range strings.Split(f[2], ",") {
				v, _ := strconv.ParseUint(h, 16, 32)
				b.WriteRune(rune(v))
			}
			want = b.String()
		}
		if pyLower(s) != want {
			why = append(why, "lower")
		}
		sig := []bool{
			[]rune(pyLower("A" + s + "Σ"))[len([]rune(pyLower("A"+s)))] == 'ς',
			[]rune(pyLower("AΣ" + s))[1] == 'ς',
			[]rune(pyLower(s + "Σ"))[len([]rune(pyLower(s)))] == 'ς',
		}
		for i, b := range sig {
			if b != (f[3][i] == '1') {
				why = append(why, "final sigma "+strconv.Itoa(i+1))
			}
		}
		if cls := f[4]; (cls == "P") != unicode.IsPunct(r) || (cls == "S") != unicode.IsSymbol(r) || (cls == "N") != unicode.IsNumber(r) {
			why = append(why, "category "+cls)
		}
		if len(why) > 0 {
			bad++
			t.Logf("U+%04X: %s", r, strings.Join(why, ", "))
		}
	}
	if bad >= 20 {
		t.Errorf("%d code points differ from Python", bad)
	}
}
