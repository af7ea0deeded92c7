package langid

// matrix is fastText's Matrix: the input (embedding) and output matrices are
// either dense or product-quantised (.ftz). Only the two operations that
// prediction needs are implemented.
//
// All arithmetic is float32 in fastText's order of operations. The explicit
// float32(...) conversions around products stop the Go compiler from fusing
// a multiply and an add into one FMA instruction (allowed by the Go spec on
// some architectures), which would round differently from the C++ build.
type matrix interface {
	rows() int64
	cols() int64
	// addRowTo adds row i to x (Vector::addRow).
	addRowTo(x []float32, i int32)
	// dotRow returns the dot product of row i with x (Matrix::dotRow).
	dotRow(x []float32, i int64) float32
}

// denseMatrix is fastText's DenseMatrix: m rows of n float32, row-major.
type denseMatrix struct {
	m, n int64
	data []float32
}

func (d *denseMatrix) rows() int64 { return d.m }
func (d *denseMatrix) cols() int64 { return d.n }

func (d *denseMatrix) addRowTo(x []float32, i int32) {
	row := d.data[int64(i)*d.n : (int64(i)+1)*d.n]
	x = x[:len(row)]
	for j, v := range row {
		x[j] += v
	}
}

func (d *denseMatrix) dotRow(x []float32, i int64) float32 {
	row := d.data[i*d.n : (i+1)*d.n]
	x = x[:len(row)]
	var s float32
	for j, v := range row {
		s += float32(v * x[j])
	}
	return s
}

// ksub is the number of centroids per sub-quantiser (8-bit codes).
const ksub = 256

// productQuantizer is fastText's ProductQuantizer: the row is cut into nsubq
// pieces of dsub values (the last one lastdsub values), and each piece is
// replaced by one of 256 centroids.
type productQuantizer struct {
	dim, nsubq, dsub, lastdsub int32
	centroids                  []float32 // dim*ksub values
}

// centroid returns the centroid for sub-quantiser m and code c
// (ProductQuantizer::get_centroids): the last sub-quantiser's centroids are
// packed with stride lastdsub.
func (pq *productQuantizer) centroid(m int32, c byte) []float32 {
	if m == pq.nsubq-1 {
		off := int(m)*ksub*int(pq.dsub) + int(c)*int(pq.lastdsub)
		return pq.centroids[off : off+int(pq.lastdsub)]
	}
	off := (int(m)*ksub + int(c)) * int(pq.dsub)
	return pq.centroids[off : off+int(pq.dsub)]
}

// addCode adds alpha times the decoded row to x (ProductQuantizer::addcode).
func (pq *productQuantizer) addCode(x []float32, code []byte, alpha float32) {
	for m := int32(0); m < pq.nsubq; m++ {
		c := pq.centroid(m, code[m])
		xs := x[int(m)*int(pq.dsub):]
		xs = xs[:len(c)]
		for j, v := range c {
			xs[j] += float32(alpha * v)
		}
	}
}

// mulCode returns alpha times the dot product of x with the decoded row
// (ProductQuantizer::mulcode).
func (pq *productQuantizer) mulCode(x []float32, code []byte, alpha float32) float32 {
	var s float32
	for m := int32(0); m < pq.nsubq; m++ {
		c := pq.centroid(m, code[m])
		xs := x[int(m)*int(pq.dsub):]
		xs = xs[:len(c)]
		for j, v := range c {
			s += float32(xs[j] * v)
		}
	}
	return s * alpha
}

// quantMatrix is fastText's QuantMatrix: PQ codes per row and, with qnorm,
// a separately quantised row norm.
type quantMatrix struct {
	m, n      int64
	qnorm     bool
	codes     []byte // m*nsubq
	pq        *productQuantizer
	normCodes []byte // m, when qnorm
	npq       *productQuantizer
}

func (q *quantMatrix) rows() int64 { return q.m }
func (q *quantMatrix) cols() int64 { return q.n }

func (q *quantMatrix) norm(i int64) float32 {
	if !q.qnorm {
		return 1
	}
	return q.npq.centroid(0, q.normCodes[i])[0]
}

func (q *quantMatrix) code(i int64) []byte {
	ns := int64(q.pq.nsubq)
	return q.codes[i*ns : (i+1)*ns]
}

func (q *quantMatrix) addRowTo(x []float32, i int32) {
	q.pq.addCode(x, q.code(int64(i)), q.norm(int64(i)))
}

func (q *quantMatrix) dotRow(x []float32, i int64) float32 {
	return q.pq.mulCode(x, q.code(i), q.norm(i))
}
