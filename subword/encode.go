package subword

import (
	"runtime"
	"strings"
	"sync"
	"unicode/utf8"
)

// maxCacheWords bounds an Encoder's word cache; it is emptied when full.
const maxCacheWords = 1 << 20

// Encoder segments text with a Model. It caches the segmentation of each
// word, so it is not safe for concurrent use: use one per goroutine (they
// are cheap), or EncodeLines.
type Encoder struct {
	m     *Model
	cache map[string][]int32
	syms  []int32

	// Fallbacks counts the characters (or invalid bytes) written as byte
	// pieces since the Encoder was made; FallbackBytes the byte pieces.
	Fallbacks, FallbackBytes int64
	// FallbackChars counts each character that fell back (InvalidByte
	// stands for invalid UTF-8 bytes); nil until the first fallback.
	FallbackChars map[rune]int64
}

// InvalidByte is the key of FallbackChars for invalid UTF-8 bytes.
const InvalidByte rune = -1

// NewEncoder returns an Encoder for m.
func (m *Model) NewEncoder() *Encoder {
	return &Encoder{m: m, cache: make(map[string][]int32)}
}

// Encode appends the piece indices of text to dst.
func (e *Encoder) Encode(dst []int32, text string) []int32 {
	for {
		i := strings.IndexByte(text, ' ')
		if i < 0 {
			return e.word(dst, text)
		}
		dst = e.word(dst, text[:i])
		text = text[i+1:]
	}
}

// word appends the pieces of the word ▁seg.
func (e *Encoder) word(dst []int32, seg string) []int32 {
	if ids, ok := e.cache[seg]; ok {
		// The last two entries hold the fallback counts (stored below).
		n := len(ids) - 2
		if ids[n] > 0 {
			e.Fallbacks += int64(ids[n])
			e.FallbackBytes += int64(ids[n+1])
			fb, fbBytes := 0, 0
			e.symbols(seg, &fb, &fbBytes) // to count which characters
		}
		return append(dst, ids[:n]...)
	}
	start := len(dst)
	fb, fbBytes := 0, 0
	syms := e.symbols(seg, &fb, &fbBytes)
	syms = e.m.applyMerges(syms)
	e.Fallbacks += int64(fb)
	e.FallbackBytes += int64(fbBytes)
	dst = append(dst, syms...)
	if len(e.cache) >= maxCacheWords {
		clear(e.cache)
	}
	stored := make([]int32, 0, len(dst)-start+2)
	stored = append(stored, dst[start:]...)
	e.cache[strings.Clone(seg)] = append(stored, int32(fb), int32(fbBytes))
	return dst
}

// symbols splits ▁seg into initial symbols: alphabet characters, or byte
// pieces for anything else, which it counts in fb, fbBytes and
// FallbackChars.
func (e *Encoder) symbols(seg string, fb, fbBytes *int) []int32 {
	m := e.m
	syms := append(e.syms[:0], m.charID[markerRune])
	for i := 0; i < len(seg); {
		c := seg[i]
		if c < utf8.RuneSelf {
			if id := m.ascii[c]; id >= 0 {
				syms = append(syms, id)
				i++
				continue
			}
			syms = append(syms, int32(c))
			*fb++
			*fbBytes++
			e.countChar(rune(c))
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(seg[i:])
		id, ok := m.charID[r]
		if !ok || r == markerRune || (r == utf8.RuneError && size == 1) {
			for k := 0; k < size; k++ {
				syms = append(syms, int32(seg[i+k]))
			}
			*fb++
			*fbBytes += size
			if r == utf8.RuneError && size == 1 {
				r = InvalidByte
			}
			e.countChar(r)
		} else {
			syms = append(syms, id)
		}
		i += size
	}
	e.syms = syms
	return syms
}

func (e *Encoder) countChar(r rune) {
	if e.FallbackChars == nil {
		e.FallbackChars = make(map[rune]int64)
	}
	e.FallbackChars[r]++
}

// applyMerges merges, in rank order, the adjacent pairs of syms that form a
// learned merge. Byte pieces never merge.
func (m *Model) applyMerges(syms []int32) []int32 {
	for len(syms) > 1 {
		best, bestRank := -1, int32(len(m.merges))
		for i := 0; i+1 < len(syms); i++ {
			if syms[i] < NumBytePieces || syms[i+1] < NumBytePieces {
				continue
			}
			if r, ok := m.ranks[pairKey(syms[i], syms[i+1])]; ok && r < bestRank {
				best, bestRank = i, r
			}
		}
		if best < 0 {
			break
		}
		a, b := syms[best], syms[best+1]
		c := int32(NumBytePieces+len(m.alphabet)) + bestRank
		w := best
		for r := best; r < len(syms); {
			if r+1 < len(syms) && syms[r] == a && syms[r+1] == b {
				syms[w] = c
				r += 2
			} else {
				syms[w] = syms[r]
				r++
			}
			w++
		}
		syms = syms[:w]
	}
	return syms
}

// Encode is a convenience for one string with a fresh Encoder (no cache
// reuse); use an Encoder or EncodeLines for many.
func (m *Model) Encode(text string) []int32 {
	return m.NewEncoder().Encode(nil, text)
}

// EncodeStats sums the fallbacks of EncodeLines.
type EncodeStats struct {
	Lines, Pieces            int64
	Fallbacks, FallbackBytes int64
	FallbackChars            map[rune]int64 // see Encoder.FallbackChars
}

// add sums the fallbacks of an Encoder into st.
func (st *EncodeStats) add(e *Encoder) {
	st.Fallbacks += e.Fallbacks
	st.FallbackBytes += e.FallbackBytes
	for r, n := range e.FallbackChars {
		if st.FallbackChars == nil {
			st.FallbackChars = make(map[rune]int64)
		}
		st.FallbackChars[r] += n
	}
}

// EncodeLines encodes lines on up to workers goroutines (GOMAXPROCS if
// workers <= 0); out[i] holds the pieces of lines[i]. progress, if not nil,
// is called with the number of lines done from time to time (from several
// goroutines).
func (m *Model) EncodeLines(lines []string, workers int, progress func(done int)) ([][]int32, EncodeStats) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	out := make([][]int32, len(lines))
	const chunk = 4096
	var next int64
	var mu sync.Mutex
	var st EncodeStats
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := m.NewEncoder()
			var pieces int64
			// One backing array per chunk keeps allocations few.
			for {
				mu.Lock()
				lo := int(next)
				next += chunk
				mu.Unlock()
				if lo >= len(lines) {
					break
				}
				hi := min(lo+chunk, len(lines))
				var buf []int32
				ends := make([]int, hi-lo)
				for i := lo; i < hi; i++ {
					buf = e.Encode(buf, lines[i])
					ends[i-lo] = len(buf)
				}
				s := 0
				for i := lo; i < hi; i++ {
					out[i] = buf[s:ends[i-lo]:ends[i-lo]]
					s = ends[i-lo]
				}
				pieces += int64(len(buf))
				if progress != nil {
					progress(hi - lo)
				}
			}
			mu.Lock()
			st.Pieces += pieces
			st.add(e)
			mu.Unlock()
		}()
	}
	wg.Wait()
	st.Lines = int64(len(lines))
	return out, st
}
