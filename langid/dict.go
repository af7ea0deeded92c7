package langid

// entry types stored in the dictionary (fastText's entry_type).
const (
	typeWord  = 0
	typeLabel = 1
)

// eos is the token fastText substitutes for a newline.
const eos = "</s>"

// labelPrefix marks labels. fastText does not store it in the model: the
// CLI default "__label__" is what every released model uses.
const labelPrefix = "__label__"

// dictionary holds what prediction needs of fastText's Dictionary: the word
// and label vocabulary, the precomputed subword ids of each word, and the
// pruning map of quantised models (pruneidx).
type dictionary struct {
	nwords, nlabels int32
	words           []string // all entries, words first, then labels
	counts          []int64
	types           []byte
	word2id         map[string]int32

	// subwords of word i are subAll[subOff[i]:subOff[i+1]]: the word id
	// followed by its character n-gram rows (Dictionary::initNgrams).
	subOff []int32
	subAll []int32

	bucket, minn, maxn, wordNgrams int32

	// pruneSize is fastText's pruneidx_size_: -1 when the model was never
	// pruned (hash ids map to nwords+id), 0 when every n-gram was pruned,
	// otherwise the number of kept n-gram rows.
	pruneSize int64
	prune     *pruneTable // when pruneSize > 0
}

// hashBytes is fastText's FNV-1a variant: each byte is sign-extended from
// int8 before the xor, because the released models were trained on
// platforms where char is signed.
func hashBytes(s []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range s {
		h ^= uint32(int32(int8(c)))
		h *= 16777619
	}
	return h
}

// pushHash appends the input row of hash bucket id, honouring pruning
// (Dictionary::pushHash).
func (d *dictionary) pushHash(ids []int32, id int32) []int32 {
	if d.pruneSize == 0 || id < 0 {
		return ids
	}
	if d.pruneSize > 0 {
		var ok bool
		if id, ok = d.prunedRow(id); !ok {
			return ids
		}
	}
	return append(ids, d.nwords+id)
}

func (d *dictionary) prunedRow(id int32) (int32, bool) { return d.prune.get(id) }

// charNgrams appends the rows of the character n-grams of word, which must
// already carry the "<" and ">" markers (Dictionary::computeSubwords).
// n counts UTF-8 characters, not bytes; single characters at the word
// boundary (the markers themselves) are skipped. The FNV hash of a prefix is
// extended byte by byte, so each start position costs one pass.
func (d *dictionary) charNgrams(ids []int32, word []byte) []int32 {
	if d.maxn <= 0 || d.bucket <= 0 {
		return ids
	}
	bucket := uint32(d.bucket)
	for i := 0; i < len(word); i++ {
		if word[i]&0xC0 == 0x80 {
			continue
		}
		h := uint32(2166136261)
		j := i
		for n := int32(1); j < len(word) && n <= d.maxn; n++ {
			h = (h ^ uint32(int32(int8(word[j])))) * 16777619
			j++
			for j < len(word) && word[j]&0xC0 == 0x80 {
				h = (h ^ uint32(int32(int8(word[j])))) * 16777619
				j++
			}
			if n >= d.minn && !(n == 1 && (i == 0 || j == len(word))) {
				ids = d.pushHash(ids, int32(h%bucket))
			}
		}
	}
	return ids
}

// wordNgrams appends the rows of the word n-grams built from the token
// hashes (Dictionary::addWordNgrams). The hashes are stored as int32 and
// widened to uint64 with sign extension, exactly as the C++ does.
func (d *dictionary) wordNgramIDs(ids []int32, hashes []int32) []int32 {
	if d.bucket <= 0 {
		return ids
	}
	bucket := uint64(d.bucket)
	n := int(d.wordNgrams)
	for i := range hashes {
		h := uint64(int64(hashes[i]))
		for j := i + 1; j < len(hashes) && j < i+n; j++ {
			h = h*116049371 + uint64(int64(hashes[j]))
			ids = d.pushHash(ids, int32(h%bucket))
		}
	}
	return ids
}

// initSubwords precomputes the subword rows of every word
// (Dictionary::initNgrams); EOS gets no character n-grams.
func (d *dictionary) initSubwords() {
	d.subOff = make([]int32, d.nwords+1)
	var buf []byte
	for i := int32(0); i < d.nwords; i++ {
		d.subOff[i] = int32(len(d.subAll))
		d.subAll = append(d.subAll, i)
		if w := d.words[i]; w != eos {
			buf = append(append(append(buf[:0], '<'), w...), '>')
			d.subAll = d.charNgrams(d.subAll, buf)
		}
	}
	d.subOff[d.nwords] = int32(len(d.subAll))
}

// label returns the name of label lid, prefix included.
func (d *dictionary) label(lid int32) string { return d.words[d.nwords+lid] }

// labelCounts returns the counts of the labels in order
// (Dictionary::getCounts(label)); they shape the hierarchical softmax tree.
func (d *dictionary) labelCounts() []int64 {
	var c []int64
	for i, t := range d.types {
		if t == typeLabel {
			c = append(c, d.counts[i])
		}
	}
	return c
}
