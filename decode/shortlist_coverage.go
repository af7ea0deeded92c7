package decode

// ShortlistCoverage is what a shortlist costs and keeps on a test set at one
// batch size (docs/decoding.md, "Vocabulary shortlists").
type ShortlistCoverage struct {
	// Batch is the number of consecutive sentences sharing a union.
	Batch int
	// MeanRows is the mean size of a batch's union: the output-layer rows
	// a decoding step computes.
	MeanRows float64
	// RefTokens is the share of reference tokens inside their batch's
	// union, RefLines the share of references entirely inside it.
	RefTokens, RefLines float64
}

// Coverage splits srcs (encoder inputs) into batches of batch consecutive
// sentences, as the union is formed at decode time, and measures each
// batch's union against the references refs (target tokens, no EOS).
// Decoding sorts by length and serve batches concurrent requests, so batch
// 1 (one request at a time) is the tightest case a shortlist must serve.
func (s *Shortlist) Coverage(srcs, refs [][]int32, batch int) ShortlistCoverage {
	c := ShortlistCoverage{Batch: batch}
	if len(srcs) == 0 || batch < 1 {
		return c
	}
	in := make([]bool, s.Header.Vocab)
	var rows, batches, tokIn, tokAll, linesIn int
	for lo := 0; lo < len(srcs); lo += batch {
		hi := min(len(srcs), lo+batch)
		u := s.Rows(srcs[lo:hi])
		for _, t := range u {
			in[t] = true
		}
		rows += len(u)
		batches++
		for _, ref := range refs[lo:hi] {
			all := true
			for _, t := range ref {
				if int(t) < len(in) && in[t] {
					tokIn++
				} else {
					all = false
				}
			}
			tokAll += len(ref)
			if all {
				linesIn++
			}
		}
		for _, t := range u {
			in[t] = false
		}
	}
	c.MeanRows = float64(rows) / float64(batches)
	if tokAll > 0 {
		c.RefTokens = float64(tokIn) / float64(tokAll)
	}
	c.RefLines = float64(linesIn) / float64(len(refs))
	return c
}
