package subword

import (
	"cmp"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"
)

// Options control learning. Set exactly one of NumMerges and NumPieces.
type Options struct {
	// NumMerges is the number of merges to learn.
	NumMerges int
	// NumPieces is the wanted model size: 256 byte pieces + alphabet +
	// merges. The number of merges follows once the alphabet is known.
	NumPieces int
	// CharacterCoverage is the share of character occurrences the alphabet
	// must cover (SentencePiece's character_coverage); the rarest characters
	// beyond it fall back to bytes. 0 means 1.0 (every character seen).
	CharacterCoverage float64
	// MinFrequency stops learning when the best pair is rarer (0 means 2:
	// a pair seen once compresses nothing).
	MinFrequency int64
	// MaxPieceRunes bounds piece length in characters (0 means 16).
	MaxPieceRunes int
	// Progress, if set, is called after every 100 merges.
	Progress func(done, total int)
}

// LearnStats describes a learning run.
type LearnStats struct {
	Words, Lines         int64 // distinct words and lines counted
	CharsSeen, Alphabet  int   // distinct characters, and those kept
	UncoveredOccurrences int64 // character occurrences left to byte fallback
	Merges               int
	StoppedEarly         bool // the best pair fell under MinFrequency
	LastFrequency        int64
	Duration             time.Duration
}

// learner holds the merge state: words as symbol sequences, pair counts, an
// index pair -> words, and a lazy heap over pair counts.
//
// pairState keeps a pair's count and the words that contain it together, so
// updating a pair costs one map lookup.
type learner struct {
	words   [][]int32
	freq    []int64
	runes   []int32          // rune length of every symbol
	index   map[uint64]int32 // pair -> its entry in pairs
	pairs   []pairState
	heap    pairHeap
	visited []int32
	stamp   int32
	maxLen  int32
	touched []uint64 // pairs whose count grew in this merge, once each
}

type pairState struct {
	count   int64
	words   []int32 // may repeat a word, or list one that lost the pair
	touched int32   // stamp of the last merge that raised the count
}

// Learn learns a BPE model from word counts.
func Learn(wc *WordCounts, opt Options) (*Model, LearnStats, error) {
	start := time.Now()
	if (opt.NumMerges > 0) == (opt.NumPieces > 0) {
		return nil, LearnStats{}, fmt.Errorf("subword: set exactly one of NumMerges (%d) and NumPieces (%d)", opt.NumMerges, opt.NumPieces)
	}
	if opt.CharacterCoverage == 0 {
		opt.CharacterCoverage = 1
	}
	if opt.CharacterCoverage < 0 || opt.CharacterCoverage > 1 {
		return nil, LearnStats{}, fmt.Errorf("subword: character coverage %g is outside (0, 1]", opt.CharacterCoverage)
	}
	if opt.MinFrequency == 0 {
		opt.MinFrequency = 2
	}
	if opt.MaxPieceRunes == 0 {
		opt.MaxPieceRunes = DefaultMaxPieceRunes
	}
	st := LearnStats{Words: int64(wc.Len()), Lines: wc.lines}
	alphabet, uncovered, seen := chooseAlphabet(wc, opt.CharacterCoverage)
	st.CharsSeen, st.Alphabet, st.UncoveredOccurrences = seen, len(alphabet), uncovered
	target := opt.NumMerges
	if opt.NumPieces > 0 {
		target = opt.NumPieces - NumBytePieces - len(alphabet)
		if target < 0 {
			return nil, st, fmt.Errorf("subword: %d pieces cannot hold 256 bytes and an alphabet of %d characters", opt.NumPieces, len(alphabet))
		}
	}
	l := newLearner(wc, alphabet, int32(opt.MaxPieceRunes))
	merges := make([][2]int32, 0, target)
	next := int32(NumBytePieces + len(alphabet))
	for len(merges) < target {
		pair, count, ok := l.best()
		if !ok || count < opt.MinFrequency {
			st.StoppedEarly = true
			break
		}
		a, b := int32(pair>>32), int32(uint32(pair))
		l.merge(pair, a, b, next)
		merges = append(merges, [2]int32{a, b})
		st.LastFrequency = count
		next++
		if opt.Progress != nil && len(merges)%100 == 0 {
			opt.Progress(len(merges), target)
		}
	}
	st.Merges = len(merges)
	m, err := NewModel(alphabet, merges, opt.MaxPieceRunes)
	st.Duration = time.Since(start)
	return m, st, err
}

// invalidByte stands for an invalid UTF-8 byte in character counts (a valid
// U+FFFD is an ordinary character).
const invalidByte = -2

// chooseAlphabet keeps the most frequent characters until they cover the
// wanted share of occurrences; ties and order are by frequency, then rune.
func chooseAlphabet(wc *WordCounts, coverage float64) (alphabet []string, uncovered int64, seen int) {
	freq := map[rune]int64{markerRune: 0}
	var total int64
	for w, i := range wc.m {
		n := wc.n[i]
		freq[markerRune] += n
		total += n
		for k := 0; k < len(w); {
			r, size := utf8.DecodeRuneInString(w[k:])
			if size == 1 && r == utf8.RuneError {
				r = invalidByte
			}
			freq[r] += n
			total += n
			k += size
		}
	}
	type rc struct {
		r rune
		n int64
	}
	all := make([]rc, 0, len(freq))
	for r, n := range freq {
		all = append(all, rc{r, n})
	}
	slices.SortFunc(all, func(x, y rc) int {
		if c := cmp.Compare(y.n, x.n); c != 0 {
			return c
		}
		return cmp.Compare(x.r, y.r)
	})
	var covered int64
	for _, c := range all {
		invalid := c.r == invalidByte // always byte fallback
		keep := c.r == markerRune || (!invalid && float64(covered) < coverage*float64(total))
		if !keep {
			uncovered += c.n
			continue
		}
		covered += c.n
		alphabet = append(alphabet, string(c.r))
	}
	return alphabet, uncovered, len(all)
}
