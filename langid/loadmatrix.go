package langid

import "fmt"

// readMatrices reads the input matrix (quantised when the flag before it is
// set), the qout flag, and the output matrix (quantised only when both the
// input and qout are), as FastText::loadModel does.
func (m *Model) readMatrices(r *binReader) error {
	var err error
	if m.quantized, err = r.bool("quantised-input flag"); err != nil {
		return err
	}
	if m.input, err = readMatrix(r, "input matrix", m.quantized); err != nil {
		return err
	}
	if !m.quantized && m.dict.pruneSize >= 0 {
		return r.corrupt("dictionary is pruned but the input matrix is not quantised")
	}
	if m.qout, err = r.bool("quantised-output flag"); err != nil {
		return err
	}
	m.output, err = readMatrix(r, "output matrix", m.quantized && m.qout)
	return err
}

func readMatrix(r *binReader, what string, quant bool) (matrix, error) {
	if quant {
		return readQuantMatrix(r, what)
	}
	return readDenseMatrix(r, what)
}

// readShape reads and checks the int64 rows and columns of a matrix.
func readShape(r *binReader, what string) (rows, cols int64, err error) {
	if rows, err = r.int64(what + " rows"); err != nil {
		return
	}
	if cols, err = r.int64(what + " columns"); err != nil {
		return
	}
	if rows < 0 || cols <= 0 || cols > 1<<16 || rows > 1<<40 {
		err = r.corrupt("%s has implausible shape %d x %d", what, rows, cols)
	}
	return
}

func readDenseMatrix(r *binReader, what string) (matrix, error) {
	rows, cols, err := readShape(r, what)
	if err != nil {
		return nil, err
	}
	data, err := r.float32s(what+" values", rows*cols)
	if err != nil {
		return nil, err
	}
	return &denseMatrix{m: rows, n: cols, data: data}, nil
}

func readQuantMatrix(r *binReader, what string) (matrix, error) {
	q := &quantMatrix{}
	var err error
	if q.qnorm, err = r.bool(what + " qnorm flag"); err != nil {
		return nil, err
	}
	if q.m, q.n, err = readShape(r, what); err != nil {
		return nil, err
	}
	codesize, err := r.int32(what + " code size")
	if err != nil {
		return nil, err
	}
	if q.codes, err = r.bytes(what+" codes", int64(codesize)); err != nil {
		return nil, err
	}
	if q.pq, err = readPQ(r, what+" quantiser"); err != nil {
		return nil, err
	}
	if int64(q.pq.dim) != q.n || int64(codesize) != q.m*int64(q.pq.nsubq) {
		return nil, r.corrupt("%s: quantiser dimension %d and %d codes do not fit a %d x %d matrix with %d sub-quantisers",
			what, q.pq.dim, codesize, q.m, q.n, q.pq.nsubq)
	}
	if !q.qnorm {
		return q, nil
	}
	if q.normCodes, err = r.bytes(what+" norm codes", q.m); err != nil {
		return nil, err
	}
	if q.npq, err = readPQ(r, what+" norm quantiser"); err != nil {
		return nil, err
	}
	if q.npq.dim != 1 {
		return nil, r.corrupt("%s: norm quantiser has dimension %d, want 1", what, q.npq.dim)
	}
	return q, nil
}

// readPQ reads ProductQuantizer::load's layout and checks that the
// sub-quantiser sizes tile the dimension, so no code can index outside the
// centroid table.
func readPQ(r *binReader, what string) (*productQuantizer, error) {
	pq := &productQuantizer{}
	for _, f := range []struct {
		name string
		p    *int32
	}{{"dim", &pq.dim}, {"nsubq", &pq.nsubq}, {"dsub", &pq.dsub}, {"lastdsub", &pq.lastdsub}} {
		v, err := r.int32(what + " " + f.name)
		if err != nil {
			return nil, err
		}
		*f.p = v
	}
	if pq.dim <= 0 || pq.dim > 1<<16 || pq.nsubq <= 0 || pq.dsub <= 0 || pq.lastdsub <= 0 ||
		pq.lastdsub > pq.dsub || int64(pq.nsubq-1)*int64(pq.dsub)+int64(pq.lastdsub) != int64(pq.dim) {
		return nil, r.corrupt("%s: sub-quantisers (nsubq %d, dsub %d, lastdsub %d) do not tile dimension %d",
			what, pq.nsubq, pq.dsub, pq.lastdsub, pq.dim)
	}
	var err error
	pq.centroids, err = r.float32s(what+" centroids", int64(pq.dim)*ksub)
	return pq, err
}

// check verifies that every row the dictionary can produce exists in the
// matrices, so a corrupt model fails here rather than panicking later.
func (m *Model) check(r *binReader) error {
	d := m.dict
	dim := int64(m.args.dim)
	if m.input.cols() != dim || m.output.cols() != dim {
		return fmt.Errorf("%s: corrupt fastText model: matrices are %d and %d wide, model dimension is %d",
			m.name, m.input.cols(), m.output.cols(), dim)
	}
	need := int64(d.nwords)
	switch {
	case d.pruneSize < 0:
		need += int64(d.bucket)
	case d.pruneSize > 0:
		need += int64(d.prune.maxRow()) + 1
	}
	if m.input.rows() < need {
		return fmt.Errorf("%s: corrupt fastText model: input matrix has %d rows, the dictionary needs %d",
			m.name, m.input.rows(), need)
	}
	outNeed := int64(d.nlabels)
	if m.args.loss == lossHS {
		outNeed = int64(d.nlabels) - 1
	}
	if m.output.rows() < outNeed {
		return fmt.Errorf("%s: corrupt fastText model: output matrix has %d rows, %d labels need %d",
			m.name, m.output.rows(), d.nlabels, outNeed)
	}
	return nil
}
