package langid

import "math"

// fastText's loss_name values as stored in the model's args block.
const (
	lossHS      = 1
	lossNS      = 2
	lossSoftmax = 3
	lossOVA     = 4
)

// model_name values; only supervised models can predict.
const (
	modelCBOW = 1
	modelSG   = 2
	modelSup  = 3
)

// stdLog is fastText's std_log: log(x + 1e-5) in double, stored as float.
// The 1e-5 is why a certain prediction prints as 1.00001.
func stdLog(x float32) float32 { return float32(math.Log(float64(x) + 1e-5)) }

// Sigmoid lookup table of fastText's Loss, used by the ns and ova losses
// (BinaryLogisticLoss::computeOutput); hs prediction uses the exact sigmoid.
const (
	sigmoidTableSize = 512
	maxSigmoid       = 8
)

var sigmoidTable = func() []float32 {
	t := make([]float32, sigmoidTableSize+1)
	for i := range t {
		x := float32(i*2*maxSigmoid)/sigmoidTableSize - maxSigmoid
		t[i] = float32(1.0 / (1.0 + float64(expf(-x))))
	}
	return t
}()

func tableSigmoid(x float32) float32 {
	switch {
	case x < -maxSigmoid:
		return 0
	case x > maxSigmoid:
		return 1
	}
	return sigmoidTable[int64((x+maxSigmoid)*sigmoidTableSize/maxSigmoid/2)]
}

// hsTree is the Huffman tree of HierarchicalSoftmaxLoss: leaves 0..osz-1 are
// the labels, inner node i uses output row i-osz.
type hsTree struct {
	osz         int32
	left, right []int32
}

// buildHSTree reproduces HierarchicalSoftmaxLoss::buildTree. The labels are
// sorted by decreasing count in the dictionary, so the two-queue merge
// yields the same tree, ties included, as at training time.
func buildHSTree(counts []int64) *hsTree {
	osz := int32(len(counts))
	n := 2*osz - 1
	t := &hsTree{osz: osz, left: make([]int32, n), right: make([]int32, n)}
	cnt := make([]int64, n)
	for i := range cnt {
		t.left[i], t.right[i], cnt[i] = -1, -1, 1e15
	}
	copy(cnt, counts)
	leaf, node := osz-1, osz
	for i := osz; i < n; i++ {
		var mini [2]int32
		for j := range mini {
			if leaf >= 0 && cnt[leaf] < cnt[node] {
				mini[j] = leaf
				leaf--
			} else {
				mini[j] = node
				node++
			}
		}
		t.left[i], t.right[i] = mini[0], mini[1]
		cnt[i] = cnt[mini[0]] + cnt[mini[1]]
	}
	return t
}

// predictOutput fills s.heap with the k best labels for the hidden vector
// in s.hidden, in descending order (Loss::predict and its overrides).
func (m *Model) predictOutput(s *scratch, k int, threshold float32) {
	s.heap = s.heap[:0]
	if m.args.loss == lossHS {
		m.dfs(s, k, stdLog(threshold), 2*m.tree.osz-2, 0)
	} else {
		m.computeOutput(s)
		m.findKBest(s, k, threshold)
	}
	sortHeap(s.heap)
}

// computeOutput is SoftmaxLoss::computeOutput or
// BinaryLogisticLoss::computeOutput.
func (m *Model) computeOutput(s *scratch) {
	out := s.output
	for i := range out {
		out[i] = m.output.dotRow(s.hidden, int64(i))
	}
	if m.args.loss != lossSoftmax {
		for i, v := range out {
			out[i] = tableSigmoid(v)
		}
		return
	}
	mx := out[0]
	for _, v := range out {
		mx = max(mx, v)
	}
	var z float32
	for i, v := range out {
		// fastText calls the unqualified exp here, which resolves to the
		// double-precision C function (unlike std::exp(float) elsewhere);
		// the synthetic softmax tests are byte-identical only this way.
		out[i] = float32(math.Exp(float64(v - mx)))
		z += out[i]
	}
	for i := range out {
		out[i] /= z
	}
}

// findKBest is Loss::findKBest.
func (m *Model) findKBest(s *scratch, k int, threshold float32) {
	h := s.heap
	for i, p := range s.output {
		if p < threshold {
			continue
		}
		lp := stdLog(p)
		if len(h) == k && lp < h[0].score {
			continue
		}
		h = pushTopK(h, scored{lp, int32(i)}, k)
	}
	s.heap = h
}

// dfs is HierarchicalSoftmaxLoss::dfs: a branch is abandoned as soon as its
// score falls below the threshold or the worst of k kept leaves.
func (m *Model) dfs(s *scratch, k int, logThreshold float32, node int32, score float32) {
	if score < logThreshold {
		return
	}
	if len(s.heap) == k && score < s.heap[0].score {
		return
	}
	t := m.tree
	if t.left[node] == -1 && t.right[node] == -1 {
		s.heap = pushTopK(s.heap, scored{score, node}, k)
		return
	}
	f := m.output.dotRow(s.hidden, int64(node-t.osz))
	f = float32(1.0 / float64(1+expf(-f)))
	m.dfs(s, k, logThreshold, t.left[node], score+stdLog(float32(1.0-float64(f))))
	m.dfs(s, k, logThreshold, t.right[node], score+stdLog(f))
}
