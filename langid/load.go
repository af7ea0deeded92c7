package langid

import (
	"fmt"
	"os"
	"sync"
	"unicode/utf8"
)

// File format constants (fastText's FASTTEXT_FILEFORMAT_MAGIC_INT32 and
// FASTTEXT_VERSION).
const (
	fileMagic  = 793712314
	maxVersion = 12
)

// Load reads a supervised fastText model: a .bin (dense matrices) or a
// quantised .ftz (product-quantised matrices, optionally pruned).
func Load(path string) (*Model, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("langid: %w", err)
	}
	return Parse(path, data)
}

// args is the part of fastText's Args block that is saved with a model.
type args struct {
	dim, ws, epoch, minCount, neg, wordNgrams int32
	loss, model, bucket, minn, maxn           int32
	lrUpdateRate                              int32
	t                                         float64
}

// Parse decodes a model held in memory; name is used in error messages.
// The returned Model keeps references into data (quantisation codes).
func Parse(name string, data []byte) (*Model, error) {
	r := &binReader{name: name, buf: data}
	magic, err := r.int32("magic number")
	if err != nil {
		return nil, fmt.Errorf("%s: not a fastText model: file is shorter than its 4-byte header", name)
	}
	if magic != fileMagic {
		return nil, fmt.Errorf("%s: not a fastText model: magic number is %d, want %d", name, magic, fileMagic)
	}
	version, err := r.int32("version")
	if err != nil {
		return nil, err
	}
	if version > maxVersion || version < 0 {
		return nil, fmt.Errorf("%s: fastText model format version %d is not supported (this reader knows versions up to %d)",
			name, version, maxVersion)
	}
	a, err := readArgs(r)
	if err != nil {
		return nil, err
	}
	if version == 11 && a.model == modelSup {
		// fastText: supervised models of format 11 used no character n-grams.
		a.maxn = 0
	}
	if err := a.check(r); err != nil {
		return nil, err
	}
	m := &Model{name: name, version: version, args: a}
	if m.dict, err = readDictionary(r, a); err != nil {
		return nil, err
	}
	if err := m.readMatrices(r); err != nil {
		return nil, err
	}
	if err := m.check(r); err != nil {
		return nil, err
	}
	if m.args.loss == lossHS {
		m.tree = buildHSTree(m.dict.labelCounts())
	}
	m.pool = sync.Pool{New: func() any { return m.newScratch() }}
	return m, nil
}

func readArgs(r *binReader) (args, error) {
	var a args
	fields := []struct {
		name string
		p    *int32
	}{
		{"args.dim", &a.dim}, {"args.ws", &a.ws}, {"args.epoch", &a.epoch},
		{"args.minCount", &a.minCount}, {"args.neg", &a.neg},
		{"args.wordNgrams", &a.wordNgrams}, {"args.loss", &a.loss},
		{"args.model", &a.model}, {"args.bucket", &a.bucket},
		{"args.minn", &a.minn}, {"args.maxn", &a.maxn},
		{"args.lrUpdateRate", &a.lrUpdateRate},
	}
	for _, f := range fields {
		v, err := r.int32(f.name)
		if err != nil {
			return a, err
		}
		*f.p = v
	}
	t, err := r.float64("args.t")
	a.t = t
	return a, err
}

func (a args) check(r *binReader) error {
	switch {
	case a.dim <= 0 || a.dim > 1<<16:
		return r.corrupt("dimension %d out of range", a.dim)
	case a.loss < lossHS || a.loss > lossOVA:
		return r.corrupt("unknown loss %d (want 1=hs, 2=ns, 3=softmax, 4=ova)", a.loss)
	case a.model < modelCBOW || a.model > modelSup:
		return r.corrupt("unknown model type %d", a.model)
	case a.model != modelSup:
		return fmt.Errorf("%s: fastText model is a word-vector model (%s), not a supervised classifier: it cannot predict labels",
			r.name, map[int32]string{modelCBOW: "cbow", modelSG: "skipgram"}[a.model])
	case a.bucket < 0 || a.minn < 0 || a.maxn < 0 || a.wordNgrams < 0:
		return r.corrupt("negative bucket/minn/maxn/wordNgrams (%d/%d/%d/%d)", a.bucket, a.minn, a.maxn, a.wordNgrams)
	}
	return nil
}

// readDictionary reads Dictionary::load's layout: counts, entries
// (NUL-terminated word, int64 count, int8 type), then the pruning pairs.
func readDictionary(r *binReader, a args) (*dictionary, error) {
	d := &dictionary{bucket: a.bucket, minn: a.minn, maxn: a.maxn, wordNgrams: a.wordNgrams}
	size, err := r.int32("dictionary size")
	if err != nil {
		return nil, err
	}
	if d.nwords, err = r.int32("dictionary nwords"); err != nil {
		return nil, err
	}
	if d.nlabels, err = r.int32("dictionary nlabels"); err != nil {
		return nil, err
	}
	if _, err = r.int64("dictionary ntokens"); err != nil {
		return nil, err
	}
	if d.pruneSize, err = r.int64("dictionary pruneidx size"); err != nil {
		return nil, err
	}
	if size < 0 || d.nwords < 0 || d.nlabels <= 0 || size != d.nwords+d.nlabels {
		return nil, r.corrupt("dictionary sizes do not fit: size %d, nwords %d, nlabels %d (a classifier needs at least one label)",
			size, d.nwords, d.nlabels)
	}
	// Each entry takes at least 10 bytes (NUL, count, type).
	if int64(size) > int64(len(r.buf)-r.off)/10 {
		return nil, r.truncated(fmt.Sprintf("%d dictionary entries", size), int(size)*10)
	}
	if err := d.readEntries(r, size); err != nil {
		return nil, err
	}
	if err := d.readPruneIndex(r); err != nil {
		return nil, err
	}
	if err := d.checkNgramCount(r); err != nil {
		return nil, err
	}
	d.initSubwords()
	return d, nil
}

func (d *dictionary) readEntries(r *binReader, size int32) error {
	d.words = make([]string, size)
	d.counts = make([]int64, size)
	d.types = make([]byte, size)
	d.word2id = make(map[string]int32, size)
	for i := int32(0); i < size; i++ {
		w, err := r.cstring(fmt.Sprintf("dictionary entry %d", i))
		if err != nil {
			return err
		}
		if d.counts[i], err = r.int64(fmt.Sprintf("count of dictionary entry %d", i)); err != nil {
			return err
		}
		t, err := r.byte(fmt.Sprintf("type of dictionary entry %d", i))
		if err != nil {
			return err
		}
		// fastText keeps words before labels; the label and subword
		// indexing relies on it.
		if want := byte(typeWord); i >= d.nwords {
			want = typeLabel
			if t != want {
				return r.corrupt("dictionary entry %d (%q) has type %d, want %d (words come before labels)", i, w, t, want)
			}
		} else if t != want {
			return r.corrupt("dictionary entry %d (%q) has type %d, want %d (words come before labels)", i, w, t, want)
		}
		d.words[i], d.types[i] = w, t
		d.word2id[w] = i
	}
	return nil
}

func (d *dictionary) readPruneIndex(r *binReader) error {
	if d.pruneSize <= 0 {
		return nil
	}
	if d.pruneSize > int64(len(r.buf)-r.off)/8 {
		return r.truncated("dictionary pruneidx", int(min(d.pruneSize*8, 1<<31-1)))
	}
	d.prune = newPruneTable(d.pruneSize)
	for i := int64(0); i < d.pruneSize; i++ {
		from, _ := r.int32("pruneidx key")
		to, _ := r.int32("pruneidx value")
		if from < 0 || from >= d.bucket || to < 0 {
			return r.corrupt("pruneidx pair %d maps bucket %d to row %d (buckets: %d)", i, from, to, d.bucket)
		}
		d.prune.put(from, to)
	}
	return nil
}

// maxNgramsPerByte bounds the character n-gram rows initSubwords
// precomputes, per byte of the model. A word of k characters has at most
// k·min(k, maxn) n-grams, so a long word with a huge maxn would make a
// small file ask for a quadratic table; real models (maxn 3 to 6) stay
// far below this.
const maxNgramsPerByte = 64

func (d *dictionary) checkNgramCount(r *binReader) error {
	if d.maxn <= 0 || d.bucket <= 0 {
		return nil
	}
	var n int64
	for _, w := range d.words[:d.nwords] {
		k := int64(utf8.RuneCountInString(w)) + 2 // with the < > markers
		n += k * min(k, int64(d.maxn))
	}
	if limit := maxNgramsPerByte*int64(len(r.buf)) + 1<<20; n > limit {
		return r.corrupt("maxn %d gives the dictionary up to %d character n-grams, more than %d per byte of the model",
			d.maxn, n, maxNgramsPerByte)
	}
	return nil
}
