package decode

import (
	"bufio"
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/data"
)

// Each target piece links to the source piece it attends to most, tags
// and </s> left out, and word pairs are reported once.
func TestHardLinks(t *testing.T) {
	// source: <2de> w0 w0 w1 </s>; decoder queries: </s> <2de> then the
	// output pieces t0 t1 t1 </s> (first = 1: the query after the prefix)
	srcWord := []int{-1, 0, 0, 1, -1}
	tgtWord := []int{0, 1, 1, -1}
	w := [][]float32{
		{0.9, 0.1, 0, 0, 0},     // prefix query: not an output piece
		{0.5, 0.1, 0.3, 0.1, 0}, // t0 → piece 2 (word 0); the tag's 0.5 does not count
		{0, 0, 0, 0.2, 0.8},     // t1 → piece 3 (word 1); </s> does not count
		{0, 0.6, 0.1, 0.3, 0},   // t1's second piece → word 0
		{0, 0, 0, 0, 1},         // the query that predicted </s>
	}
	got := FormatLinks(hardLinks(w, srcWord, tgtWord, 1))
	if want := "0-0 0-1 1-1"; got != want {
		t.Fatalf("links %q, want %q", got, want)
	}
	if got := hardLinks(w, []int{-1, -1, -1, -1, -1}, tgtWord, 1); len(got) != 0 {
		t.Fatalf("a source without words gave links %v", got)
	}
}

var linkRE = regexp.MustCompile(`^(\d+)-(\d+)$`)

// translate with alignment: every output line carries " ||| " and links
// whose indices are words of the source line and of the output line, every
// output word linked; empty lines stay empty before the separator.
func TestStreamWithAlignment(t *testing.T) {
	b := testBundle(t, data.TagSENCTDEC)
	o := testOptions(3)
	o.NBest = 1
	tr := testTranslator(t, b, o)
	tr.Align, tr.AlignLayer = true, -1
	in := []string{"the cat sat on the mat", "", "a dog and a cat"}
	var out bytes.Buffer
	if err := tr.Stream(strings.NewReader(strings.Join(in, "\n")+"\n"), &out, StreamOptions{Src: "en", Tgt: "de"}); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(&out)
	for i := 0; sc.Scan(); i++ {
		text, links, ok := strings.Cut(sc.Text(), " ||| ")
		if !ok {
			t.Fatalf("line %d %q has no \" ||| \"", i+1, sc.Text())
		}
		srcN, tgtN := len(spaceWords(in[i])), len(spaceWords(text))
		covered := map[int]bool{}
		for _, l := range strings.Fields(links) {
			m := linkRE.FindStringSubmatch(l)
			if m == nil {
				t.Fatalf("line %d: link %q is not s-t", i+1, l)
			}
			s, _ := strconv.Atoi(m[1])
			tw, _ := strconv.Atoi(m[2])
			if s >= srcN || tw >= tgtN {
				t.Fatalf("line %d: link %s outside %d source and %d output words (%q)", i+1, l, srcN, tgtN, sc.Text())
			}
			covered[tw] = true
		}
		if len(covered) != tgtN {
			t.Fatalf("line %d: %d of %d output words linked (%q)", i+1, len(covered), tgtN, sc.Text())
		}
	}
	if _, err := tr.Lines([]string{"a cat"}, "en", "de", "fr"); err == nil {
		t.Fatal("alignment with a pivot was accepted")
	}
}

// spaceWords splits at ASCII spaces, as data.Vocab.WordIndex counts words.
func spaceWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ' ' })
}
