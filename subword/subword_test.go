package subword

import (
	"bytes"
	"maps"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

func learnLines(t *testing.T, lines []string, merges int) *Model {
	t.Helper()
	wc := NewWordCounts()
	wc.AddLines(lines, 2)
	m, _, err := Learn(wc, Options{NumMerges: merges})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestClassicMerges(t *testing.T) {
	var lines []string
	for w, n := range map[string]int{"low": 5, "lower": 2, "newest": 6, "widest": 3} {
		for range n {
			lines = append(lines, w)
		}
	}
	m := learnLines(t, lines, 5)
	var got []string
	for i := range m.NumMerges() {
		got = append(got, m.Piece(int32(NumBytePieces+m.AlphabetSize()+i)))
	}
	// (e,s) and (s,t) tie at 9: e is the more frequent character, so it has
	// the smaller index and (e,s) wins; likewise ▁l before lo and ow.
	want := []string{"es", "est", "▁l", "ow", "▁low"}
	if !slices.Equal(got, want) {
		t.Fatalf("merges %q, want %q", got, want)
	}
	if ids := m.Encode("lowest newer"); m.Decode(ids) != "lowest newer" {
		t.Fatalf("round trip of %v", ids)
	}
	var pieces []string
	for _, id := range m.Encode("lowest") {
		pieces = append(pieces, m.Piece(id))
	}
	if want := []string{"▁low", "est"}; !slices.Equal(pieces, want) {
		t.Fatalf("lowest -> %q, want %q", pieces, want)
	}
}

func TestRoundTrip(t *testing.T) {
	m := learnLines(t, []string{"the cat sat on the mat", "der Hund", "猫坐在垫子上", "le chat"}, 30)
	cases := []string{
		"", " ", "  ", "the cat", " the  cat ", "\tthe\tcat\t", "a\u00a0b",
		"猫坐在垫子上。", "emoji 🐈 unseen", "literal ▁ marker ▁▁", "▁", "invalid \xff\xfe bytes", "\xe2\x96",
		"mixed 中文 and Latin", "trailing\r",
	}
	for _, c := range cases {
		ids := m.Encode(c)
		if got := m.Decode(ids); got != c {
			t.Errorf("Decode(Encode(%q)) = %q (ids %v)", c, got, ids)
		}
	}
}

func TestReplacementCharIsACharacter(t *testing.T) {
	// A valid U+FFFD in text is a character like any other; an invalid byte
	// (which Go also decodes as U+FFFD) is not, and falls back.
	m := learnLines(t, []string{"a\uFFFDb a\uFFFDb", "c\xffd"}, 5)
	e := m.NewEncoder()
	e.Encode(nil, "a\uFFFDb")
	if e.Fallbacks != 0 {
		t.Fatalf("U+FFFD fell back (alphabet %d)", m.AlphabetSize())
	}
	e.Encode(nil, "c\xffd")
	if e.Fallbacks != 1 || e.FallbackBytes != 1 {
		t.Fatalf("invalid byte: %d fallbacks", e.Fallbacks)
	}
	if _, ok := m.PieceID("\uFFFD"); !ok {
		t.Fatal("U+FFFD not in the alphabet")
	}
}

func TestFallbackCounts(t *testing.T) {
	m := learnLines(t, []string{"abc abc"}, 3)
	e := m.NewEncoder()
	ids := e.Encode(nil, "ab ▁ 🐈 \xff")
	// ▁ (3 bytes), 🐈 (4 bytes) and the invalid byte fall back: 3 characters, 8 bytes.
	if e.Fallbacks != 3 || e.FallbackBytes != 8 {
		t.Fatalf("fallbacks %d (%d bytes), want 3 (8 bytes); ids %v", e.Fallbacks, e.FallbackBytes, ids)
	}
	// Cached words count again.
	e.Encode(nil, "🐈")
	if e.Fallbacks != 4 || e.FallbackBytes != 12 {
		t.Fatalf("after cached word: %d (%d bytes)", e.Fallbacks, e.FallbackBytes)
	}
	want := map[rune]int64{'▁': 1, '🐈': 2, InvalidByte: 1}
	if !maps.Equal(e.FallbackChars, want) {
		t.Fatalf("fallback characters %v, want %v", e.FallbackChars, want)
	}
	_, st := m.EncodeLines([]string{"🐈 🐈", "x"}, 2, nil)
	if st.Fallbacks != 3 || st.FallbackChars['🐈'] != 2 || st.FallbackChars['x'] != 1 {
		t.Fatalf("EncodeLines stats %+v", st)
	}
	for _, id := range ids {
		if id < 0 || int(id) >= m.NumPieces() {
			t.Fatalf("id %d out of range", id)
		}
	}
}

// naiveLearn is the textbook algorithm: recount every pair before each
// merge. The incremental learner must choose exactly the same merges.
func naiveLearn(wc *WordCounts, alphabet []string, merges int, maxLen int32) [][2]int32 {
	l := newLearner(wc, alphabet, maxLen)
	var out [][2]int32
	next := int32(NumBytePieces + len(alphabet))
	for len(out) < merges {
		counts := map[uint64]int64{}
		for w, syms := range l.words {
			for i := 0; i+1 < len(syms); i++ {
				if l.countable(syms[i], syms[i+1]) {
					counts[pairKey(syms[i], syms[i+1])] += l.freq[w]
				}
			}
		}
		var best uint64
		var bestN int64
		for p, n := range counts {
			if n > bestN || (n == bestN && p < best) {
				best, bestN = p, n
			}
		}
		if bestN < 2 {
			break
		}
		a, b := int32(best>>32), int32(uint32(best))
		l.runes = append(l.runes, l.runes[a]+l.runes[b])
		for w, syms := range l.words {
			var o []int32
			for i := 0; i < len(syms); i++ {
				if i+1 < len(syms) && syms[i] == a && syms[i+1] == b {
					o = append(o, next)
					i++
				} else {
					o = append(o, syms[i])
				}
			}
			l.words[w] = o
		}
		out = append(out, [2]int32{a, b})
		next++
	}
	return out
}

func randomLines(r *rand.Rand, n int) []string {
	alpha := []string{"a", "b", "c", "ab", "aa", "é", "中", "▁"}
	lines := make([]string, n)
	for i := range lines {
		var sb strings.Builder
		for k := r.Intn(12); k > 0; k-- {
			if r.Intn(4) == 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(alpha[r.Intn(len(alpha))])
		}
		lines[i] = sb.String()
	}
	return lines
}

func TestIncrementalMatchesNaive(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for trial := 0; trial < 20; trial++ {
		wc := NewWordCounts()
		lines := randomLines(r, 200)
		wc.AddLines(lines, 1)
		maxLen := int32(3 + trial%6)
		m, _, err := Learn(wc, Options{NumMerges: 60, MaxPieceRunes: int(maxLen), CharacterCoverage: 0.98})
		if err != nil {
			t.Fatal(err)
		}
		want := naiveLearn(wc, m.alphabet, 60, maxLen)
		if !slices.Equal(m.merges, want) {
			t.Fatalf("trial %d: incremental merges %v\nnaive %v", trial, m.merges, want)
		}
		// Encoding a training line reproduces the learner's segmentation.
		l := newLearner(wc, m.alphabet, maxLen)
		for i, mg := range m.merges {
			l.merge(pairKey(mg[0], mg[1]), mg[0], mg[1], int32(NumBytePieces+len(m.alphabet)+i))
		}
		e := m.NewEncoder()
		for wi, syms := range l.words {
			if slices.Contains(syms, noSymbol) {
				continue
			}
			word := m.Decode(syms) // the dummy marker decodes to nothing
			if got := e.Encode(nil, word); !slices.Equal(got, syms) {
				t.Fatalf("trial %d word %d %q: encoder %v, learner %v", trial, wi, word, got, syms)
			}
		}
		for _, line := range lines {
			if got := m.Decode(m.Encode(line)); got != line {
				t.Fatalf("round trip %q -> %q", line, got)
			}
		}
	}
}

func TestDeterministicAndSaveLoad(t *testing.T) {
	lines := randomLines(rand.New(rand.NewSource(2)), 3000)
	m1 := learnLines(t, lines, 100)
	m2 := learnLines(t, lines, 100)
	var b1, b2 bytes.Buffer
	if err := m1.Write(&b1); err != nil {
		t.Fatal(err)
	}
	m2.Write(&b2)
	if !bytes.Equal(b1.Bytes(), b2.Bytes()) {
		t.Fatal("two learning runs differ")
	}
	m3, err := Read(bytes.NewReader(b1.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines[:100] {
		if !slices.Equal(m1.Encode(l), m3.Encode(l)) {
			t.Fatalf("loaded model encodes %q differently", l)
		}
	}
	if _, err := Read(strings.NewReader(`{"format":"strata-bpe","version":1,"marker":"▁","alphabet":["a"],"merges":[]}`)); err == nil {
		t.Fatal("model without the marker accepted")
	}
	if _, err := Read(strings.NewReader(`{"format":"strata-bpe","version":1,"marker":"▁","alphabet":["▁","a"],"merges":[[256,300]]}`)); err == nil {
		t.Fatal("merge of a later piece accepted")
	}
}

func TestNumPieces(t *testing.T) {
	wc := NewWordCounts()
	wc.AddLines(randomLines(rand.New(rand.NewSource(3)), 2000), 2)
	m, st, err := Learn(wc, Options{NumPieces: 300})
	if err != nil {
		t.Fatal(err)
	}
	// The alphabet is ▁ a b c é 中 (the literal ▁ counts as the marker).
	if m.NumPieces() != 300 || st.Alphabet != 6 || st.Merges != 300-256-6 {
		t.Fatalf("%d pieces, %d merges, alphabet %d; want 300, 38, 6", m.NumPieces(), st.Merges, st.Alphabet)
	}
	if _, _, err := Learn(wc, Options{NumPieces: 10}); err == nil {
		t.Fatal("too small a vocabulary accepted")
	}
	if _, _, err := Learn(wc, Options{}); err == nil {
		t.Fatal("neither merges nor pieces accepted")
	}
}

func TestEncodeLinesMatchesEncoder(t *testing.T) {
	lines := randomLines(rand.New(rand.NewSource(4)), 20000)
	m := learnLines(t, lines, 50)
	out, st := m.EncodeLines(lines, 2, nil)
	var pieces int64
	for i, l := range lines {
		if !slices.Equal(out[i], m.Encode(l)) {
			t.Fatalf("line %d differs", i)
		}
		pieces += int64(len(out[i]))
	}
	if st.Pieces != pieces || st.Lines != int64(len(lines)) {
		t.Fatalf("stats %+v, want %d pieces", st, pieces)
	}
}
