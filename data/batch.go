package data

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Batch is a padded batch, row-major. Src is B×S, TgtIn and TgtOut are B×T,
// all right-padded with PadID; sequences follow the Sequencer.
type Batch struct {
	B, S, T       int
	Src           []int32
	TgtIn, TgtOut []int32
	// NTokens counts the non-pad TgtOut tokens (the loss's denominator);
	// SrcTokens the non-pad Src tokens.
	NTokens, SrcTokens int
	// SrcLang and TgtLang are per sentence, as indices of Vocab.Languages().
	SrcLang, TgtLang []int
	// Index is each sentence's example index in the split (Split.Line maps
	// it to the input line), or its line index for InferenceBatches.
	Index []int
}

// BatcherOptions configure a Batcher.
type BatcherOptions struct {
	// MaxTokens bounds a batch: sentences × the longest sequence (source
	// or target, tags and </s> included), i.e. padding counts, as fairseq's
	// --max-tokens.
	MaxTokens int
	// MaxSentences bounds the sentences of a batch (0: no bound).
	MaxSentences int
	// Seed fixes shuffling and sampling: epoch e is the same for the same
	// seed, data and options.
	Seed uint64
	// Temperature samples language pairs with probability ∝ n^(1/T): 1 (or
	// 0) uses every example once per epoch, as the zero-shot paper; T > 1
	// up-samples small pairs and down-samples large ones, keeping the epoch
	// size.
	Temperature float64
	// Fixed disables shuffling and sampling (for validation): batches keep
	// the length-sorted order and are the same every epoch.
	Fixed bool
}

// maxExamples bounds a split so that an epoch (which temperature sampling
// keeps at about the split's size) fits the 28 position bits of sort keys.
const maxExamples = 1 << 27

// Position is where a Batcher stands: the next batch it returns is batch
// Batch (0-based) of epoch Epoch (1-based). Save it in checkpoints.
type Position struct {
	Epoch int `json:"epoch"`
	Batch int `json:"batch"`
}

// Batcher yields the batches of a split, epoch after epoch. Each epoch's
// plan depends only on (seed, epoch, options), so Seek resumes exactly.
type Batcher struct {
	split  *Split
	seq    Sequencer
	opt    BatcherOptions
	srcLen []int32 // sequence lengths with tags and </s>, per example
	tgtLen []int32
	tags   [][2]int32 // per part: source-side and target-side tag ids
	pos    Position
	plan   [][]int // batches of the current plan
	planOf int     // epoch of plan (0: none)
}

// NewBatcher makes a batcher over a split.
func NewBatcher(split *Split, seq Sequencer, opt BatcherOptions) (*Batcher, error) {
	if split == nil || split.Len() == 0 {
		return nil, fmt.Errorf("batcher: empty split")
	}
	if split.Len() >= maxExamples {
		return nil, fmt.Errorf("batcher: split %s has %d examples; the batcher handles fewer than %d", split.Name, split.Len(), maxExamples)
	}
	if opt.MaxTokens <= 0 {
		return nil, fmt.Errorf("batcher: max tokens %d must be positive", opt.MaxTokens)
	}
	if opt.Temperature == 0 {
		opt.Temperature = 1
	}
	if opt.Temperature < 1 && !opt.Fixed {
		return nil, fmt.Errorf("batcher: temperature %g below 1", opt.Temperature)
	}
	b := &Batcher{split: split, seq: seq, opt: opt, pos: Position{1, 0}}
	for _, p := range split.Parts {
		st, tt, err := seq.tags(p.SrcLang, p.TgtLang)
		if err != nil {
			return nil, err
		}
		b.tags = append(b.tags, [2]int32{st, tt})
	}
	b.srcLen = make([]int32, split.Len())
	b.tgtLen = make([]int32, split.Len())
	es, et := int32(seq.extraSrc()), int32(seq.extraTgt())
	i := 0
	for _, p := range split.Parts {
		for j := 0; j < p.Len(); j++ {
			s, t := p.Pair(j)
			b.srcLen[i], b.tgtLen[i] = int32(len(s))+es, int32(len(t))+et
			if n := max(b.srcLen[i], b.tgtLen[i]); int(n) > opt.MaxTokens {
				return nil, fmt.Errorf("batcher: split %s example %d (%s line %d) is %d tokens long, more than max tokens %d",
					split.Name, i, p.Corpus.Name, p.Corpus.Line[j], n, opt.MaxTokens)
			}
			i++
		}
	}
	return b, nil
}

// Position is the position of the next batch.
func (b *Batcher) Position() Position { return b.pos }

// Seek moves to a position saved from Position.
func (b *Batcher) Seek(p Position) error {
	if p.Epoch < 1 || p.Batch < 0 {
		return fmt.Errorf("batcher: bad position %+v", p)
	}
	if n := len(b.Plan(p.Epoch)); p.Batch > n {
		return fmt.Errorf("batcher: position %+v beyond the %d batches of the epoch", p, n)
	}
	b.pos = p
	return nil
}

// NumBatches is the number of batches of an epoch.
func (b *Batcher) NumBatches(epoch int) int { return len(b.Plan(epoch)) }

// Next returns the next batch; at the end of an epoch it returns false once
// and moves to the start of the next epoch.
func (b *Batcher) Next() (*Batch, bool) {
	plan := b.Plan(b.pos.Epoch)
	if b.pos.Batch >= len(plan) {
		b.pos = Position{b.pos.Epoch + 1, 0}
		return nil, false
	}
	batch := b.Make(plan[b.pos.Batch])
	b.pos.Batch++
	return batch, true
}

// Plan returns the example indices of every batch of an epoch (shared: do
// not modify).
func (b *Batcher) Plan(epoch int) [][]int {
	if b.planOf != epoch {
		b.plan, b.planOf = b.makePlan(epoch), epoch
	}
	return b.plan
}

// makePlan samples the epoch's examples, sorts them by length (random ties),
// cuts batches greedily and shuffles their order.
func (b *Batcher) makePlan(epoch int) [][]int {
	rng := rand.New(rand.NewPCG(b.opt.Seed, uint64(epoch)))
	var idx []int
	if b.opt.Fixed {
		idx = make([]int, b.split.Len())
		for i := range idx {
			idx[i] = i
		}
	} else {
		idx = b.sample(rng)
		rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
	}
	// Sort keys pack (longest side, source, target, position) into one
	// uint64 so a plain integer sort does it: 12 bits per length (longer
	// ones share the last bucket, which only costs padding), 28 bits of
	// position, which also makes ties follow the shuffle.
	keys := make([]uint64, len(idx))
	for k, i := range idx {
		s, t := min(b.srcLen[i], 4095), min(b.tgtLen[i], 4095)
		keys[k] = uint64(max(s, t))<<52 | uint64(s)<<40 | uint64(t)<<28 | uint64(k)
	}
	slices.Sort(keys)
	sorted := make([]int, len(idx))
	for k, key := range keys {
		sorted[k] = idx[key&(1<<28-1)]
	}
	plan := b.cut(sorted)
	if !b.opt.Fixed {
		rng.Shuffle(len(plan), func(i, j int) { plan[i], plan[j] = plan[j], plan[i] })
	}
	return plan
}

// cut groups length-sorted examples greedily into batches within the
// limits.
func (b *Batcher) cut(sorted []int) [][]int {
	var plan [][]int
	start, longest := 0, int32(0)
	for k, i := range sorted {
		l := max(b.srcLen[i], b.tgtLen[i], longest)
		n := k - start + 1
		if n > 1 && (int(l)*n > b.opt.MaxTokens || (b.opt.MaxSentences > 0 && n > b.opt.MaxSentences)) {
			plan = append(plan, sorted[start:k:k])
			start, l = k, max(b.srcLen[i], b.tgtLen[i])
		}
		longest = l
	}
	return append(plan, sorted[start:])
}

// sample draws an epoch's examples: all of them at temperature 1, else
// round(p_k·N) from part k with p_k ∝ n_k^(1/T): whole copies of the part,
// then a random subset without replacement for the remainder.
func (b *Batcher) sample(rng *rand.Rand) []int {
	n := b.split.Len()
	if b.opt.Temperature == 1 || len(b.split.Parts) == 1 {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	quota := b.Quotas()
	idx := make([]int, 0, n)
	for k, p := range b.split.Parts {
		base, size := b.split.start[k], p.Len()
		for q := quota[k]; q > 0; {
			if q >= size {
				for j := 0; j < size; j++ {
					idx = append(idx, base+j)
				}
				q -= size
				continue
			}
			for _, j := range rng.Perm(size)[:q] {
				idx = append(idx, base+j)
			}
			q = 0
		}
	}
	return idx
}

// Quotas returns the examples each part gives an epoch.
func (b *Batcher) Quotas() []int {
	parts := b.split.Parts
	q := make([]int, len(parts))
	if b.opt.Temperature == 1 || b.opt.Fixed {
		for k, p := range parts {
			q[k] = p.Len()
		}
		return q
	}
	var z float64
	w := make([]float64, len(parts))
	for k, p := range parts {
		w[k] = math.Pow(float64(p.Len()), 1/b.opt.Temperature)
		z += w[k]
	}
	for k := range parts {
		q[k] = int(math.Round(w[k] / z * float64(b.split.Len())))
	}
	return q
}

// Make builds the batch of the given example indices.
func (b *Batcher) Make(indices []int) *Batch {
	bt := &Batch{B: len(indices), Index: append([]int(nil), indices...)}
	for _, i := range indices {
		bt.S, bt.T = max(bt.S, int(b.srcLen[i])), max(bt.T, int(b.tgtLen[i]))
	}
	bt.Src = make([]int32, bt.B*bt.S)
	bt.TgtIn = make([]int32, bt.B*bt.T)
	bt.TgtOut = make([]int32, bt.B*bt.T)
	bt.SrcLang, bt.TgtLang = make([]int, bt.B), make([]int, bt.B)
	for r, i := range indices {
		k := b.partOf(i)
		p := b.split.Parts[k]
		src, tgt := p.Pair(i - b.split.start[k])
		row := b.seq.encoderInput(bt.Src[r*bt.S:r*bt.S], src, b.tags[k][0], b.tags[k][1])
		_, out := b.seq.decoder(bt.TgtIn[r*bt.T:r*bt.T], bt.TgtOut[r*bt.T:r*bt.T], tgt, b.tags[k][1])
		bt.SrcTokens += len(row)
		for _, id := range out {
			if id != PadID {
				bt.NTokens++
			}
		}
		bt.SrcLang[r], bt.TgtLang[r] = p.SrcLangID, p.TgtLangID
	}
	return bt
}

func (b *Batcher) partOf(i int) int {
	k, _ := slices.BinarySearch(b.split.start, i+1)
	return k - 1
}

// EpochStats describe the batches of an epoch.
type EpochStats struct {
	MaxTokens  int     `json:"max_tokens"`
	Batches    int     `json:"batches"`
	Sentences  int     `json:"sentences"`
	SrcTokens  int64   `json:"src_tokens"` // with tags and </s>
	TgtTokens  int64   `json:"tgt_tokens"`
	SrcPadding float64 `json:"src_padding"` // share of Src positions that are padding
	TgtPadding float64 `json:"tgt_padding"`
}

// EpochStats computes the padding of an epoch's batches.
func (b *Batcher) EpochStats(epoch int) EpochStats {
	st := EpochStats{MaxTokens: b.opt.MaxTokens}
	var srcSlots, tgtSlots int64
	for _, batch := range b.Plan(epoch) {
		var s, t int32
		for _, i := range batch {
			s, t = max(s, b.srcLen[i]), max(t, b.tgtLen[i])
			st.SrcTokens += int64(b.srcLen[i])
			st.TgtTokens += int64(b.tgtLen[i])
		}
		srcSlots += int64(s) * int64(len(batch))
		tgtSlots += int64(t) * int64(len(batch))
		st.Batches++
		st.Sentences += len(batch)
	}
	st.SrcPadding = 1 - float64(st.SrcTokens)/float64(srcSlots)
	st.TgtPadding = 1 - float64(st.TgtTokens)/float64(tgtSlots)
	return st
}
