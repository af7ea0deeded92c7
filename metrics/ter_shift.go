package metrics

import (
	"iter"
	"math"
	"slices"
)

// This file is TER's edit computation, following SacreBLEU 2.x's
// metrics/lib_ter.py (translation_edit_rate, _shift, _find_shifted_pairs,
// _perform_shift, trace_to_alignment, BeamEditDistance), which re-implements
// tercom. Its limits and tie-breaking are kept exactly, since they decide
// which shifts are found and so the score.

// Limits of lib_ter.py. The first three come from tercom; the others are
// SacreBLEU's own.
const (
	terMaxShiftSize       = 10    // longest block one shift moves
	terMaxShiftDist       = 50    // largest distance between a block's hypothesis and reference starts
	terBeamWidth          = 25    // half-width of the edit distance's band around the diagonal
	terMaxShiftCandidates = 1000  // shifts evaluated per hypothesis-reference pair, all rounds together
	terMaxCacheSize       = 10000 // matrix rows kept per reference

	// terInfinity marks cells outside the beam. SacreBLEU uses 1e16; any
	// value above every real cost, with room to add 1, behaves the same.
	terInfinity = math.MaxInt32 / 2
)

// terWord is a word as an id: the position of its first occurrence in the
// reference, or terOOV for a word the reference lacks. Such words match
// nothing, so they give the same matrix rows and no blocks whichever they
// are, and sharing one id changes no result; ids make the comparisons in
// the inner loops cheap.
type terWord int32

const terOOV terWord = -1

// terWordIDs maps hyp and ref to ids.
func terWordIDs(hyp, ref []string) (h, r []terWord) {
	ids := make(map[string]terWord, len(ref))
	r = make([]terWord, len(ref))
	for j, w := range ref {
		id, ok := ids[w]
		if !ok {
			id = terWord(j)
			ids[w] = id
		}
		r[j] = id
	}
	h = make([]terWord, len(hyp))
	for i, w := range hyp {
		id, ok := ids[w]
		if !ok {
			id = terOOV
		}
		h[i] = id
	}
	return h, r
}

// terOp is the operation that reached a cell of the edit-distance matrix,
// rewriting the hypothesis (rows) into the reference (columns).
type terOp uint8

const (
	terUndef terOp = iota // outside the beam, never computed
	terMatch
	terSub
	terDel // a hypothesis word is dropped (moves down a row)
	terIns // a reference word is added (moves right a column)
)

type terCell struct {
	cost int32
	op   terOp
}

// terEdits is lib_ter.py's translation_edit_rate: greedily apply the best
// shift while it lowers the edit distance, then count one edit per shift
// plus the remaining distance. It returns the edits and the reference
// length. An empty reference costs one edit per hypothesis word.
func terEdits(hypWords, refWords []string) (edits, refLen int) {
	if len(refWords) == 0 {
		return len(hypWords), 0
	}
	hyp, ref := terWordIDs(hypWords, refWords)
	ed := newTerEditDistance(ref)
	shifts, checked := 0, 0
	for {
		gain, shifted, n := ed.bestShift(hyp, checked)
		checked = n
		// As in the reference, running out of candidates discards the
		// round's best shift even when it would have helped.
		if checked >= terMaxShiftCandidates || gain <= 0 {
			break
		}
		shifts++
		hyp = shifted
	}
	return shifts + ed.distance(hyp), len(ref)
}

// terShift is a candidate shift. Candidates are ranked as lib_ter.py's
// tuples are: largest gain, then longest block, then earliest block, then
// earliest target; a later candidate must rank strictly higher to win.
type terShift struct {
	gain, length, start, target int
	words                       []terWord // the hypothesis after the shift
}

func (c *terShift) beats(b *terShift) bool {
	switch {
	case c.gain != b.gain:
		return c.gain > b.gain
	case c.length != b.length:
		return c.length > b.length
	case c.start != b.start:
		return c.start < b.start
	}
	return c.target < b.target
}

// bestShift is lib_ter.py's _shift: it tries moving every matching block of
// the hypothesis next to the hypothesis words aligned with the reference
// words around the block's reference position, and returns the best gain in
// edit distance (0 and hyp when there is no candidate) with the shifted
// words, and the running count of candidates evaluated.
func (e *terEditDistance) bestShift(hyp []terWord, checked int) (int, []terWord, int) {
	rows := e.matrix(hyp)
	before := int(rows[len(hyp)].at(len(e.ref)).cost)
	al := terAlign(rows, len(hyp), len(e.ref))
	var best *terShift
	for b := range terMatchingBlocks(hyp, e.ref) {
		if !al.worthShifting(b) {
			continue
		}
		prev := -1
		for off := -1; off < b.length; off++ {
			target := 0 // before the first word, when the block starts the reference
			if r := b.refStart + off; r >= 0 {
				if r >= len(al.refToHyp) {
					break
				}
				// Right after the aligned hypothesis word: tercom says
				// "after index k", SacreBLEU "before index k+1".
				target = al.refToHyp[r] + 1
			}
			if target == prev {
				continue
			}
			prev = target
			shifted := terPerformShift(hyp, b.hypStart, b.length, target)
			c := &terShift{before - e.distance(shifted), b.length, b.hypStart, target, shifted}
			checked++
			if best == nil || c.beats(best) {
				best = c
			}
		}
		if checked >= terMaxShiftCandidates {
			break
		}
	}
	if best == nil {
		return 0, hyp, checked
	}
	return best.gain, best.words, checked
}

// terBlock is a run of words equal in the hypothesis and the reference.
type terBlock struct{ hypStart, refStart, length int }

// terMatchingBlocks is lib_ter.py's _find_shifted_pairs: for each pair of
// start positions at most terMaxShiftDist apart, every common run of 1 to
// terMaxShiftSize words, shortest first.
func terMatchingBlocks(hyp, ref []terWord) iter.Seq[terBlock] {
	return func(yield func(terBlock) bool) {
		for h := range hyp {
			// only reference starts within terMaxShiftDist, in order
			for r := max(0, h-terMaxShiftDist); r < min(len(ref), h+terMaxShiftDist+1); r++ {
				for n := 1; n <= terMaxShiftSize && h+n <= len(hyp) && r+n <= len(ref) &&
					hyp[h+n-1] == ref[r+n-1]; n++ {
					if !yield(terBlock{h, r, n}) {
						return
					}
				}
			}
		}
	}
}

// terPerformShift is lib_ter.py's _perform_shift: the block of length
// words at start moves to target. Slices clamp as Python's do, which the
// third case relies on when target+length passes the end.
func terPerformShift(w []terWord, start, length, target int) []terWord {
	sl := func(lo, hi int) []terWord {
		lo, hi = min(lo, len(w)), min(hi, len(w))
		if hi < lo {
			return nil
		}
		return w[lo:hi]
	}
	block := w[start : start+length]
	switch {
	case target < start:
		return slices.Concat(sl(0, target), block, sl(target, start), sl(start+length, len(w)))
	case target > start+length:
		return slices.Concat(sl(0, start), sl(start+length, target), block, sl(target, len(w)))
	default:
		return slices.Concat(sl(0, start), sl(start+length, length+target), block, sl(length+target, len(w)))
	}
}

// terAlignment is lib_ter.py's trace_to_alignment of the flipped trace:
// which hypothesis position each reference word is aligned to (-1 before
// the first word), and which words of each side are errors, as prefix sums.
type terAlignment struct {
	refToHyp  []int
	hypErrSum []int // hypErrSum[k]: erroneous hypothesis words among the first k
	refErrSum []int
}

// worthShifting is _shift's filter: shift a block only if some of its
// hypothesis words and some of its reference words are errors, and if the
// reference start is not aligned inside the block itself.
func (a *terAlignment) worthShifting(b terBlock) bool {
	if a.hypErrSum[b.hypStart+b.length] == a.hypErrSum[b.hypStart] {
		return false
	}
	if a.refErrSum[b.refStart+b.length] == a.refErrSum[b.refStart] {
		return false
	}
	at := a.refToHyp[b.refStart]
	return at < b.hypStart || at >= b.hypStart+b.length
}

// terAlign traces the matrix back from its last cell and reads the
// alignment off the operations in order. SacreBLEU flips insertions and
// deletions first and reads the trace as rewriting the reference into the
// hypothesis; reading terDel as an erroneous hypothesis word and terIns as
// an erroneous reference word is the same thing.
func terAlign(rows []terRow, nHyp, nRef int) terAlignment {
	ops := make([]terOp, 0, nHyp+nRef)
	for i, j := nHyp, nRef; i > 0 || j > 0; {
		op := rows[i].at(j).op
		ops = append(ops, op)
		switch op {
		case terMatch, terSub:
			i, j = i-1, j-1
		case terIns:
			j--
		case terDel:
			i--
		default:
			// Every cell on the path has a finite cost, and only computed
			// cells do; SacreBLEU raises here too.
			panic("metrics: TER trace reached a cell outside the beam")
		}
	}
	a := terAlignment{
		refToHyp:  make([]int, 0, nRef),
		hypErrSum: make([]int, 1, nHyp+1),
		refErrSum: make([]int, 1, nRef+1),
	}
	h := -1
	for k := len(ops) - 1; k >= 0; k-- {
		op := ops[k]
		bad := 0
		if op != terMatch {
			bad = 1
		}
		if op != terIns { // consumes a hypothesis word
			h++
			a.hypErrSum = append(a.hypErrSum, a.hypErrSum[len(a.hypErrSum)-1]+bad)
		}
		if op != terDel { // consumes a reference word
			a.refToHyp = append(a.refToHyp, h)
			a.refErrSum = append(a.refErrSum, a.refErrSum[len(a.refErrSum)-1]+bad)
		}
	}
	return a
}

// terEditDistance is lib_ter.py's BeamEditDistance against one reference:
// a word-level Levenshtein distance (all costs 1) computed only in a band
// around the length-scaled diagonal, with matrix rows cached by hypothesis
// prefix. Every hypothesis it sees for one pair has the same length (shifts
// keep it), so a cached row is exactly the row that would be recomputed;
// the cache only saves time.
//
// Memory stays linear in the line: a row stores only its band (every cell
// outside it is terInfinity, so nothing is lost), the distance of a
// candidate shift rolls two rows once the cache is full, and the cache is
// bounded by cells as well as rows. A full matrix, as SacreBLEU keeps,
// grows with the product of the lengths (2 GB at 5,000 words).
type terEditDistance struct {
	ref        []terWord
	firstRow   terRow
	cache      *terCacheNode
	cacheRows  int
	cacheCells int
	scratch    [2][]terCell // the rolling rows of distance
}

// terRow is one matrix row's band: cells[k] is column lo+k; every other
// column is outside the beam.
type terRow struct {
	lo    int
	cells []terCell
}

// at is the cell in column j.
func (r terRow) at(j int) terCell {
	if j < r.lo || j >= r.lo+len(r.cells) {
		return terCell{terInfinity, terUndef}
	}
	return r.cells[j-r.lo]
}

// terCacheNode is a trie over hypothesis words; each node holds the matrix
// row for the prefix that leads to it.
type terCacheNode struct {
	next map[terWord]*terCacheNode
	row  terRow
}

// terMaxCacheCells bounds the cells the cache holds, whatever the rows'
// width (a band widens when the reference is much longer than the
// hypothesis); it changes no result, only how much is recomputed.
const terMaxCacheCells = 1 << 21

func newTerEditDistance(ref []terWord) *terEditDistance {
	first := make([]terCell, len(ref)+1)
	for j := range first {
		first[j] = terCell{int32(j), terIns}
	}
	return &terEditDistance{ref: ref, firstRow: terRow{0, first},
		cache: &terCacheNode{next: map[terWord]*terCacheNode{}}}
}

// cachedPrefix returns the rows of the longest cached prefix of hyp (row 0
// first) and the trie node it ends at.
func (e *terEditDistance) cachedPrefix(hyp []terWord, keep bool) ([]terRow, terRow, *terCacheNode, int) {
	var rows []terRow
	if keep {
		rows = make([]terRow, 1, len(hyp)+1)
		rows[0] = e.firstRow
	}
	last, node, i := e.firstRow, e.cache, 0
	for ; i < len(hyp); i++ {
		child, ok := node.next[hyp[i]]
		if !ok {
			break
		}
		last, node = child.row, child
		if keep {
			rows = append(rows, last)
		}
	}
	return rows, last, node, i
}

// cacheRoom says whether a row of width cells may still be cached.
func (e *terEditDistance) cacheRoom(width int) bool {
	return e.cacheRows < terMaxCacheSize && e.cacheCells+width <= terMaxCacheCells
}

// remember caches row under node for word w and returns the new node.
func (e *terEditDistance) remember(node *terCacheNode, w terWord, row terRow) *terCacheNode {
	child := &terCacheNode{next: map[terWord]*terCacheNode{}, row: row}
	node.next[w] = child
	e.cacheRows++
	e.cacheCells += len(row.cells)
	return child
}

// distance is the edit distance between hyp and the reference: the rows
// after the cached prefix are computed and cached while the cache has
// room, then in two alternating rows.
func (e *terEditDistance) distance(hyp []terWord) int {
	_, prev, node, i := e.cachedPrefix(hyp, false)
	g := newTerBand(len(hyp), len(e.ref))
	for k := 0; i < len(hyp); i, k = i+1, k+1 {
		lo, hi := g.cols(i + 1)
		var cells []terCell
		caching := node != nil && e.cacheRoom(hi-lo)
		if caching {
			cells = make([]terCell, hi-lo)
		} else {
			if cap(e.scratch[k%2]) < len(e.ref)+1 {
				e.scratch[k%2] = make([]terCell, len(e.ref)+1)
			}
			cells = e.scratch[k%2][:hi-lo]
			node = nil
		}
		row := terRow{lo, cells}
		e.fillRow(row, hyp[i], prev)
		if caching {
			node = e.remember(node, hyp[i], row)
		}
		prev = row
	}
	return int(prev.at(len(e.ref)).cost)
}

// matrix returns the len(hyp)+1 banded rows, for tracing the alignment
// back, reusing cached rows for the longest cached prefix of hyp and
// caching the new ones while there is room.
func (e *terEditDistance) matrix(hyp []terWord) []terRow {
	rows, _, node, start := e.cachedPrefix(hyp, true)
	g := newTerBand(len(hyp), len(e.ref))
	for i := start; i < len(hyp); i++ {
		lo, hi := g.cols(i + 1)
		row := terRow{lo, make([]terCell, hi-lo)}
		e.fillRow(row, hyp[i], rows[i])
		rows = append(rows, row)
		if node != nil && e.cacheRoom(hi-lo) {
			node = e.remember(node, hyp[i], row)
		} else {
			node = nil
		}
	}
	return rows
}

// terBand is BeamEditDistance._edit_distance's band: row i covers the
// columns within the beam of floor(i*ratio), the last row covers all of
// them, and the beam widens when the reference is more than
// 2*terBeamWidth times longer than the hypothesis, so that consecutive
// bands overlap.
type terBand struct {
	nHyp, nRef, beam int
	ratio            float64
}

func newTerBand(nHyp, nRef int) terBand {
	ratio := 1.0
	if nHyp > 0 {
		ratio = float64(nRef) / float64(nHyp)
	}
	beam := terBeamWidth
	if float64(terBeamWidth) < ratio/2 {
		beam = int(math.Ceil(ratio/2 + terBeamWidth))
	}
	return terBand{nHyp, nRef, beam, ratio}
}

// cols is row i's band [lo, hi).
func (g terBand) cols(i int) (lo, hi int) {
	diag := int(math.Floor(float64(i) * g.ratio))
	lo, hi = max(0, diag-g.beam), min(g.nRef+1, diag+g.beam)
	if i == g.nHyp {
		lo, hi = 0, g.nRef+1
	}
	return lo, hi
}

// fillRow computes a matrix row's band for hypothesis word w from the
// previous row. Ties go to a match or substitution, then a deletion, then
// an insertion: SacreBLEU's order, which its flipped trace turns into
// tercom's preference.
func (e *terEditDistance) fillRow(row terRow, w terWord, prev terRow) {
	left := terCell{terInfinity, terUndef}
	for k := range row.cells {
		j := row.lo + k
		if j == 0 {
			left = terCell{prev.at(0).cost + 1, terDel}
			row.cells[k] = left
			continue
		}
		best := terCell{terInfinity, terUndef}
		if w == e.ref[j-1] {
			best.pick(prev.at(j-1).cost, terMatch)
		} else {
			best.pick(prev.at(j-1).cost+1, terSub)
		}
		best.pick(prev.at(j).cost+1, terDel)
		best.pick(left.cost+1, terIns)
		row.cells[k] = best
		left = best
	}
}

// pick replaces the cell's operation when cost is strictly lower.
func (c *terCell) pick(cost int32, op terOp) {
	if cost < c.cost {
		c.cost, c.op = cost, op
	}
}
