package placeholder

import "fmt"

// MaskPair masks a source string and a translation of it the same way, for
// training data: the source as Mask does, and in the translation each
// placeholder by the sentinel of the same placeholder in the source (the
// k-th occurrence of a text by the source's k-th span of that text), so a
// model learns to carry {N} to wherever the translation puts it. It
// refuses a pair whose translation would fail Unmask: different
// placeholders (Check), swapped argument-order directives or a closing tag
// before its opening tag, since translate would refuse such an output
// too. The source must hold at least one placeholder.
func MaskPair(src, tgt string, o Options) (Masked, string, error) {
	o.Accelerator = 0 // a training pair's accelerators are the corpus's business
	m := Mask(src, o)
	if len(m.Spans) == 0 {
		return Masked{}, "", fmt.Errorf("no placeholder in the source")
	}
	if err := Check(src, tgt, o); err != nil {
		return Masked{}, "", err
	}
	next := map[string][]int{} // span text -> its source indices not used yet
	for i, sp := range m.Spans {
		next[sp.Text] = append(next[sp.Text], i)
	}
	var b []byte
	for i := 0; i < len(tgt); {
		n, _ := o.match(tgt[i:])
		if n == 0 {
			b = append(b, tgt[i])
			i++
			continue
		}
		text := tgt[i : i+n]
		idx := next[text] // Check guarantees one is left
		b = append(b, Sentinel(idx[0])...)
		next[text] = idx[1:]
		i += n
	}
	out := string(b)
	if back, err := m.Unmask(out); err != nil {
		return Masked{}, "", err
	} else if back != tgt {
		return Masked{}, "", fmt.Errorf("the translation does not restore to itself: %q", back)
	}
	return m, out, nil
}

// Kept counts the translations that are not empty and hold their source's
// placeholders (Check): the share of a test set's strings a pre-translation
// would write.
func Kept(srcs, hyps []string, o Options) int {
	n := 0
	for i := range srcs {
		if i < len(hyps) && hyps[i] != "" && Check(srcs[i], hyps[i], o) == nil {
			n++
		}
	}
	return n
}
