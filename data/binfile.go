package data

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
)

// Binarised corpus file (little-endian):
//
//	magic   [8]byte "STRBIN01"
//	n, srcTokens, tgtTokens   uint64
//	line    [n]uint32   1-based line of each pair in the input
//	srcLen  [n]uint32
//	tgtLen  [n]uint32
//	src     [srcTokens]int32   token ids, pieces only (no tag, no </s>)
//	tgt     [tgtTokens]int32
//
// Token ids are vocabulary ids; tags and </s> are added at batching time by
// the Sequencer, so one file serves both directions and every tag scheme.
const binMagic = "STRBIN01"

// Corpus is a binarised parallel corpus in memory.
type Corpus struct {
	Name             string
	SrcLang, TgtLang string   // languages of the two columns
	Line             []uint32 // 1-based input line of each pair
	srcOff, tgtOff   []int64  // n+1 offsets into src and tgt
	src, tgt         []int32
}

// Len is the number of pairs.
func (c *Corpus) Len() int { return len(c.Line) }

// Pair returns the token ids of pair i (pieces only; shared, do not modify).
func (c *Corpus) Pair(i int) (src, tgt []int32) {
	return c.src[c.srcOff[i]:c.srcOff[i+1]], c.tgt[c.tgtOff[i]:c.tgtOff[i+1]]
}

// Tokens is the number of source and target tokens.
func (c *Corpus) Tokens() (src, tgt int64) { return int64(len(c.src)), int64(len(c.tgt)) }

// newCorpus builds a Corpus from per-pair token slices.
func newCorpus(name, srcLang, tgtLang string, line []uint32, src, tgt [][]int32) *Corpus {
	c := &Corpus{Name: name, SrcLang: srcLang, TgtLang: tgtLang, Line: line}
	c.srcOff, c.src = flatten(src)
	c.tgtOff, c.tgt = flatten(tgt)
	return c
}

func flatten(seqs [][]int32) ([]int64, []int32) {
	off := make([]int64, len(seqs)+1)
	for i, s := range seqs {
		off[i+1] = off[i] + int64(len(s))
	}
	flat := make([]int32, 0, off[len(seqs)])
	for _, s := range seqs {
		flat = append(flat, s...)
	}
	return off, flat
}

// writeTo writes c in the binarised format.
func (c *Corpus) writeTo(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	bw.WriteString(binMagic)
	n := c.Len()
	buf := make([]byte, 0, 1<<16)
	put64 := func(v uint64) { buf = binary.LittleEndian.AppendUint64(buf, v) }
	put64(uint64(n))
	put64(uint64(len(c.src)))
	put64(uint64(len(c.tgt)))
	flush := func() error {
		_, err := bw.Write(buf)
		buf = buf[:0]
		return err
	}
	u32 := func(get func(i int) uint32, count int) error {
		for i := 0; i < count; i++ {
			buf = binary.LittleEndian.AppendUint32(buf, get(i))
			if len(buf) >= 1<<16-4 {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		return flush()
	}
	steps := []struct {
		get   func(int) uint32
		count int
	}{
		{func(i int) uint32 { return c.Line[i] }, n},
		{func(i int) uint32 { return uint32(c.srcOff[i+1] - c.srcOff[i]) }, n},
		{func(i int) uint32 { return uint32(c.tgtOff[i+1] - c.tgtOff[i]) }, n},
		{func(i int) uint32 { return uint32(c.src[i]) }, len(c.src)},
		{func(i int) uint32 { return uint32(c.tgt[i]) }, len(c.tgt)},
	}
	for _, s := range steps {
		if err := u32(s.get, s.count); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// readCorpusFile reads a binarised corpus and checks ids against vocabSize.
func readCorpusFile(path string, vocabSize int) (*Corpus, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseCorpus(path, raw, vocabSize)
}

// parseCorpus decodes the bytes of a binarised corpus read from path.
func parseCorpus(path string, raw []byte, vocabSize int) (*Corpus, error) {
	bad := func(what string) error { return fmt.Errorf("%s: not a valid binarised corpus: %s", path, what) }
	if len(raw) < 32 || string(raw[:8]) != binMagic {
		return nil, bad("bad magic")
	}
	n := binary.LittleEndian.Uint64(raw[8:])
	ns := binary.LittleEndian.Uint64(raw[16:])
	nt := binary.LittleEndian.Uint64(raw[24:])
	// Each count alone must fit the file before they are summed, or the
	// sum can wrap around to the file's size.
	words := uint64(len(raw)-32) / 4
	if n > words/3 || ns > words || nt > words || uint64(len(raw)) != 32+4*(3*n+ns+nt) {
		return nil, bad(fmt.Sprintf("size %d does not match its header (%d pairs, %d+%d tokens)", len(raw), n, ns, nt))
	}
	p := raw[32:]
	u32 := func(count uint64) []uint32 {
		out := make([]uint32, count)
		for i := range out {
			out[i] = binary.LittleEndian.Uint32(p[4*i:])
		}
		p = p[4*count:]
		return out
	}
	c := &Corpus{Line: u32(n)}
	srcLen, tgtLen := u32(n), u32(n)
	c.srcOff, c.tgtOff = offsets(srcLen), offsets(tgtLen)
	if uint64(c.srcOff[n]) != ns || uint64(c.tgtOff[n]) != nt {
		return nil, bad("lengths do not add up to the token counts")
	}
	for _, side := range []*[]int32{&c.src, &c.tgt} {
		count := ns
		if side == &c.tgt {
			count = nt
		}
		ids := u32(count)
		s := make([]int32, count)
		// ids are int32 in memory: a vocabulary past 2^31 cannot hold more
		limit := min(uint64(vocabSize), math.MaxInt32+1)
		for i, id := range ids {
			if uint64(id) >= limit {
				return nil, bad(fmt.Sprintf("token id %d outside the vocabulary of %d", id, vocabSize))
			}
			s[i] = int32(id)
		}
		*side = s
	}
	return c, nil
}

func offsets(lens []uint32) []int64 {
	off := make([]int64, len(lens)+1)
	for i, l := range lens {
		off[i+1] = off[i] + int64(l)
	}
	return off
}
