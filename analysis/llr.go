package analysis

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"time"

	"github.com/strata-nmt/strata/decode"
	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/internal/textio"
)

// LLROptions configure layer-wise language recognition.
type LLROptions struct {
	Epochs         int     // training epochs of the probes (paper: 3)
	LR             float64 // Adam learning rate (paper: 1e-3)
	BatchSentences int     // sentences per probe batch (paper: 64)
	Seed           uint64  // probe initialisation and batch order
	// IncludeTags counts the language-tag position of the encoder input
	// and the forced decoder prefix as tokens (off by default: their
	// states trivially carry the tag's embedding).
	IncludeTags bool
	// MaxTokens bounds decoding batches (source positions).
	MaxTokens int
	Threads   int
	Log       io.Writer
}

// LLRDefaults are the paper's settings.
func LLRDefaults() LLROptions {
	return LLROptions{Epochs: 3, LR: 1e-3, BatchSentences: 64, Seed: 1, MaxTokens: 4096}
}

// LLRSplit is a set of directions of an n-way set to probe on.
type LLRSplit struct {
	Name       string
	Set        *TestSet
	Directions []Direction
}

// Ratio is an accuracy that may be undefined (no tokens); it is null in
// JSON and NaN in Go.
type Ratio float64

// MarshalJSON writes NaN as null.
func (r Ratio) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(r)) {
		return []byte("null"), nil
	}
	return json.Marshal(math.Round(float64(r)*1e6) / 1e6)
}

// UnmarshalJSON reads null as NaN.
func (r *Ratio) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*r = Ratio(math.NaN())
		return nil
	}
	var f float64
	err := json.Unmarshal(b, &f)
	*r = Ratio(f)
	return err
}

// LLRDirection is the per-layer accuracy on one direction.
type LLRDirection struct {
	Direction
	Sentences int     `json:"sentences"`
	EncTokens int     `json:"encoder_tokens"`
	DecTokens int     `json:"decoder_tokens"`
	Source    []Ratio `json:"source_accuracy"` // per layer L1..L(E+D)
	Target    []Ratio `json:"target_accuracy"`
	// SentenceTokens (encoder, decoder) and SentenceCorrect (per probe:
	// 2l source, 2l+1 target language of layer l) count each sentence's
	// tokens and right answers, in the order of the test lines: what a
	// bootstrap over sentences resamples (CompareLLR). Absent in files
	// written before they were recorded.
	SentenceTokens  [][2]int `json:"sentence_tokens,omitempty"`
	SentenceCorrect [][]int  `json:"sentence_correct,omitempty"`
}

// LLRSplitResult is the mean over a split's directions (directions
// without tokens at a layer are left out of that layer's mean).
type LLRSplitResult struct {
	Name   string  `json:"name"`
	Source []Ratio `json:"source_accuracy"`
	Target []Ratio `json:"target_accuracy"`
	// SourceMajority and TargetMajority are the majority-class baselines
	// per layer (llr_majority.go): the most frequent label's share,
	// directions weighted equally as in Source and Target; the *Tokens
	// variants weight every token equally. The *Lang fields name the label.
	SourceMajority       []Ratio        `json:"source_majority"`
	TargetMajority       []Ratio        `json:"target_majority"`
	SourceMajorityTokens []Ratio        `json:"source_majority_tokens"`
	TargetMajorityTokens []Ratio        `json:"target_majority_tokens"`
	SourceMajorityLang   string         `json:"source_majority_label"`
	TargetMajorityLang   string         `json:"target_majority_label"`
	Directions           []LLRDirection `json:"directions"`
}

// LLRResult is the output of LLR.
type LLRResult struct {
	Model         string           `json:"model"`
	EncoderLayers int              `json:"encoder_layers"`
	DecoderLayers int              `json:"decoder_layers"`
	Languages     []string         `json:"languages"`
	TrainSet      string           `json:"train_set"`
	TrainDirs     []Direction      `json:"train_directions"`
	TrainTokens   [2]int           `json:"train_tokens"` // encoder, decoder tokens per epoch
	Epochs        int              `json:"epochs"`
	LR            float64          `json:"lr"`
	Batch         int              `json:"batch_sentences"`
	Seed          uint64           `json:"seed"`
	IncludeTags   bool             `json:"include_tags"`
	TrainLoss     [][]float64      `json:"train_loss"` // per epoch, per probe (2l: source, 2l+1: target)
	Splits        []LLRSplitResult `json:"splits"`
}

// LayerNames returns L1..L(E+D), the paper's names.
func (r *LLRResult) LayerNames() []string {
	var out []string
	for i := 1; i <= r.EncoderLayers+r.DecoderLayers; i++ {
		out = append(out, fmt.Sprintf("L%d", i))
	}
	return out
}

// ReadLLR reads an llr.json (or its gzipped copy, llr.json.gz).
func ReadLLR(path string) (*LLRResult, error) {
	b, err := textio.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r LLRResult
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: not an LLR result: %w", path, err)
	}
	if len(r.Splits) == 0 {
		return nil, fmt.Errorf("%s: LLR result without test splits", path)
	}
	for i := range r.Splits {
		if sp := &r.Splits[i]; sp.SourceMajority == nil && len(sp.Directions) > 0 {
			// written before the baselines were recorded: derive them
			sp.setMajority(r.EncoderLayers+r.DecoderLayers, r.EncoderLayers)
		}
	}
	return &r, nil
}

// LLR trains the probes on train (the supervised directions of a dev set)
// and measures them on every test split.
func LLR(ctx context.Context, sys *decode.Bundle, gen Generator, train LLRSplit, tests []LLRSplit, opt LLROptions) (*LLRResult, error) {
	if opt.Epochs < 1 || opt.BatchSentences < 1 || opt.LR <= 0 {
		return nil, fmt.Errorf("llr: epochs, batch size and learning rate must be positive")
	}
	logf := func(format string, args ...any) {
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, format, args...)
		}
	}
	rule := tokenRule{includeTags: opt.IncludeTags}
	logf("llr: decoding the training split %s (%d directions)\n", train.Name, len(train.Directions))
	trainEx, err := collectExamples(ctx, sys, gen, train.Set, train.Directions, opt.MaxTokens, opt.Log)
	if err != nil {
		return nil, err
	}
	if len(trainEx) == 0 {
		return nil, fmt.Errorf("llr: the training split is empty")
	}
	g := engine.NewInference()
	if opt.Threads > 0 {
		g.SetThreads(opt.Threads)
	}
	ls := statesOf(g, sys.Model, trainEx, []int{0}, rule)
	ne, nd, d := len(ls.enc), len(ls.dec), ls.enc[0].Cols()
	g.Reset()
	res := &LLRResult{Model: sys.ModelPath, EncoderLayers: ne, DecoderLayers: nd, Languages: sys.Seq.Vocab.Languages(),
		TrainSet: train.Set.Dir, TrainDirs: train.Directions, Epochs: opt.Epochs, LR: opt.LR,
		Batch: opt.BatchSentences, Seed: opt.Seed, IncludeTags: opt.IncludeTags}
	probes, err := NewProbes(2*(ne+nd), d, len(res.Languages), opt.LR, opt.Seed)
	if err != nil {
		return nil, err
	}
	if err := trainProbes(ctx, g, sys, probes, trainEx, rule, opt, res, logf); err != nil {
		return nil, err
	}
	for _, sp := range tests {
		logf("llr: decoding the test split %s (%d directions)\n", sp.Name, len(sp.Directions))
		ex, err := collectExamples(ctx, sys, gen, sp.Set, sp.Directions, opt.MaxTokens, opt.Log)
		if err != nil {
			return nil, err
		}
		res.Splits = append(res.Splits, evalProbes(g, sys, probes, ex, sp, rule, opt.BatchSentences, ne))
	}
	return res, nil
}

// trainProbes runs the epochs: examples are shuffled each epoch (seeded)
// and cut into batches of BatchSentences sentences; every token of a batch
// is a training example of every probe.
func trainProbes(ctx context.Context, g *engine.Graph, sys *decode.Bundle, p *Probes, ex []llrExample, rule tokenRule,
	opt LLROptions, res *LLRResult, logf func(string, ...any)) error {
	rng := rand.New(rand.NewPCG(opt.Seed, 0x11a))
	order := make([]int, len(ex))
	for i := range order {
		order[i] = i
	}
	for epoch := 1; epoch <= opt.Epochs; epoch++ {
		t0 := time.Now()
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		sum := make([]float64, p.Len())
		cnt := make([]int, p.Len())
		encTok, decTok := 0, 0
		for lo := 0; lo < len(order); lo += opt.BatchSentences {
			if err := ctx.Err(); err != nil {
				return err
			}
			ls := statesOf(g, sys.Model, ex, order[lo:min(lo+opt.BatchSentences, len(order))], rule)
			encTok, decTok = encTok+len(ls.encRows), decTok+len(ls.decRows)
			for i, l := range p.Step(ls.probeInputs(ex)) {
				if !math.IsNaN(l) {
					sum[i] += l
					cnt[i]++
				}
			}
			g.Reset()
		}
		mean := make([]float64, p.Len())
		for i := range mean {
			mean[i] = math.Round(sum[i]/float64(max(cnt[i], 1))*1e4) / 1e4
		}
		res.TrainLoss = append(res.TrainLoss, mean)
		res.TrainTokens = [2]int{encTok, decTok}
		logf("llr: epoch %d/%d: %d sentences, %d encoder and %d decoder tokens, mean probe loss %.4f, %s\n",
			epoch, opt.Epochs, len(ex), encTok, decTok, meanOf(mean), time.Since(t0).Round(time.Second/10))
	}
	return nil
}

func meanOf(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// evalProbes measures every probe on every direction of a split; ne is the
// number of encoder layers (probes 0..2ne-1 read encoder states).
func evalProbes(g *engine.Graph, sys *decode.Bundle, p *Probes, ex []llrExample, sp LLRSplit, rule tokenRule, batch, ne int) LLRSplitResult {
	nd := len(sp.Directions)
	correct := make([][]int, nd)
	encTok, decTok, sents := make([]int, nd), make([]int, nd), make([]int, nd)
	for k := range correct {
		correct[k] = make([]int, p.Len())
	}
	for _, e := range ex {
		sents[e.dir]++
	}
	exTokens, exCorrect := make([][2]int, len(ex)), make([][]int, len(ex))
	for i := range exCorrect {
		exCorrect[i] = make([]int, p.Len())
	}
	// Examples come grouped by direction and batches never mix
	// directions, so each batch's counts go to one direction.
	for lo := 0; lo < len(ex); {
		hi := lo
		for hi < len(ex) && hi-lo < batch && ex[hi].dir == ex[lo].dir {
			hi++
		}
		idx := make([]int, hi-lo)
		for k := range idx {
			idx[k] = lo + k
		}
		ls := statesOf(g, sys.Model, ex, idx, rule)
		di := ex[lo].dir
		encTok[di] += len(ls.encRows)
		decTok[di] += len(ls.decRows)
		for _, i := range ls.encEx {
			exTokens[i][0]++
		}
		for _, i := range ls.decEx {
			exTokens[i][1]++
		}
		for pi, rows := range p.CorrectRows(ls.probeInputs(ex)) {
			exOf := ls.encEx
			if pi >= 2*ne {
				exOf = ls.decEx
			}
			for r, ok := range rows {
				if ok {
					correct[di][pi]++
					exCorrect[exOf[r]][pi]++
				}
			}
		}
		g.Reset()
		lo = hi
	}
	out := LLRSplitResult{Name: sp.Name}
	layers := p.Len() / 2
	for k, d := range sp.Directions {
		dr := LLRDirection{Direction: d, Sentences: sents[k], EncTokens: encTok[k], DecTokens: decTok[k]}
		// batches run sorted by length: put each sentence back at its line
		dr.SentenceTokens, dr.SentenceCorrect = make([][2]int, sents[k]), make([][]int, sents[k])
		for i, e := range ex {
			if e.dir == k {
				dr.SentenceTokens[e.line], dr.SentenceCorrect[e.line] = exTokens[i], exCorrect[i]
			}
		}
		for l := 0; l < layers; l++ {
			n := encTok[k]
			if l >= ne {
				n = decTok[k]
			}
			dr.Source = append(dr.Source, ratio(correct[k][2*l], n))
			dr.Target = append(dr.Target, ratio(correct[k][2*l+1], n))
		}
		out.Directions = append(out.Directions, dr)
	}
	out.Source = meanLayers(out.Directions, layers, func(d LLRDirection) []Ratio { return d.Source })
	out.Target = meanLayers(out.Directions, layers, func(d LLRDirection) []Ratio { return d.Target })
	out.setMajority(layers, ne)
	return out
}

func ratio(c, n int) Ratio {
	if n == 0 {
		return Ratio(math.NaN())
	}
	return Ratio(float64(c) / float64(n))
}

// meanLayers averages per layer over the directions that have a value.
func meanLayers(ds []LLRDirection, layers int, get func(LLRDirection) []Ratio) []Ratio {
	out := make([]Ratio, layers)
	for l := range out {
		s, n := 0.0, 0
		for _, d := range ds {
			if v := float64(get(d)[l]); !math.IsNaN(v) {
				s += v
				n++
			}
		}
		out[l] = ratio(0, 0)
		if n > 0 {
			out[l] = Ratio(s / float64(n))
		}
	}
	return out
}
