package train

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"time"

	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/engine/mpi"
)

// Data-parallel training (docs/distributed.md). Every rank holds the whole
// model and optimiser. An update's batches are the UpdateFreq·Size next
// batches of the epoch's global order; rank r trains on the r-th run of
// UpdateFreq of them, so N ranks at --update-freq k see exactly what one
// process sees at --update-freq N·k. The gradient sums (not yet divided by
// the token count) and the loss sums are all-reduced, after which every rank
// normalises, clips and applies Adam to identical numbers.

// bucketFloats bounds the gradient bytes packed into one MPI_Allreduce
// (16 MiB, of the order of PyTorch DDP's 25 MB buckets): few calls for
// small tensors, and no copy of tensors larger than a bucket, which are
// reduced in place.
const bucketFloats = 4 << 20

type dist struct {
	comm   mpi.Comm
	bucket []float32
	// commTime is the time spent in gradient all-reduces this invocation.
	// It is mostly transfer: the all-reduce of the loss and token sums
	// just before absorbs the wait for the slowest rank.
	commTime time.Duration
}

func newDist(c mpi.Comm) *dist {
	if c == nil {
		c = mpi.Local{}
	}
	return &dist{comm: c}
}

func (d *dist) multi() bool { return d.comm.Size() > 1 }
func (d *dist) root() bool  { return d.comm.Rank() == 0 }

// share returns the part of an update's global group of batch indices
// [first, first+n) that this rank trains on.
func (d *dist) share(first, n, perRank int) (lo, hi int) {
	r := d.comm.Rank()
	lo = min(first+r*perRank, first+n)
	hi = min(lo+perRank, first+n)
	return lo, hi
}

// reduceGrads sums every parameter's gradient over the ranks.
func (d *dist) reduceGrads(ps []*engine.Tensor) error {
	if !d.multi() {
		return nil
	}
	start := time.Now()
	defer func() { d.commTime += time.Since(start) }()
	if d.bucket == nil {
		d.bucket = make([]float32, bucketFloats)
	}
	var pending []*engine.Tensor
	n := 0
	flush := func() error {
		if n == 0 {
			return nil
		}
		if err := d.comm.AllreduceSum(d.bucket[:n]); err != nil {
			return err
		}
		off := 0
		for _, p := range pending {
			off += copy(p.Grad, d.bucket[off:off+len(p.Grad)])
		}
		pending, n = pending[:0], 0
		return nil
	}
	for _, p := range ps {
		if len(p.Grad) >= bucketFloats {
			if err := d.comm.AllreduceSum(p.Grad); err != nil {
				return err
			}
			continue
		}
		if n+len(p.Grad) > bucketFloats {
			if err := flush(); err != nil {
				return err
			}
		}
		copy(d.bucket[n:], p.Grad)
		n += len(p.Grad)
		pending = append(pending, p)
	}
	return flush()
}

// sum64 all-reduces a few float64 sums (loss, NLL, tokens).
func (d *dist) sum64(xs ...*float64) error {
	if !d.multi() {
		return nil
	}
	buf := make([]float64, len(xs))
	for i, x := range xs {
		buf[i] = *x
	}
	if err := d.comm.AllreduceSum64(buf); err != nil {
		return err
	}
	for i, x := range xs {
		*x = buf[i]
	}
	return nil
}

// any reports whether flag is true on any rank (collective).
func (d *dist) any(flag bool) (bool, error) {
	v := 0.0
	if flag {
		v = 1
	}
	err := d.sum64(&v)
	return v > 0, err
}

// bcastJSON sends root's *v to every rank (v is overwritten elsewhere).
func (d *dist) bcastJSON(v any) error {
	if !d.multi() {
		return nil
	}
	var b []byte
	if d.root() {
		var err error
		if b, err = json.Marshal(v); err != nil {
			return err
		}
	}
	n := []byte{0, 0, 0, 0, 0, 0, 0, 0}
	binary.LittleEndian.PutUint64(n, uint64(len(b)))
	if err := d.comm.Bcast(n, 0); err != nil {
		return err
	}
	if !d.root() {
		b = make([]byte, binary.LittleEndian.Uint64(n))
	}
	if len(b) > 0 {
		if err := d.comm.Bcast(b, 0); err != nil {
			return err
		}
	}
	if d.root() {
		return nil
	}
	return json.Unmarshal(b, v)
}

// bcastTensors copies rank 0's values of ts to every rank.
func (d *dist) bcastTensors(ts []*engine.Tensor) error {
	if !d.multi() {
		return nil
	}
	for _, t := range ts {
		if len(t.Data) == 0 {
			continue
		}
		if err := d.comm.BcastFloat32(t.Data, 0); err != nil {
			return err
		}
	}
	return nil
}

// Checksum hashes the bits of ts (FNV-1a, 64 bits): two sets of tensors
// with equal values bit for bit, in the same order, hash alike.
func Checksum(ts []*engine.Tensor) uint64 {
	h := fnv.New64a()
	var b [4]byte
	for _, t := range ts {
		for _, v := range t.Data {
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(v))
			h.Write(b[:])
		}
	}
	return h.Sum64()
}

// verifyAgreement checks that every rank holds the same parameters and
// optimiser state as rank 0 (collective; an error on every rank if not).
func (d *dist) verifyAgreement(ts []*engine.Tensor, update int) error {
	if !d.multi() {
		return nil
	}
	mine := Checksum(ts)
	root := make([]byte, 8)
	binary.LittleEndian.PutUint64(root, mine)
	if err := d.comm.Bcast(root, 0); err != nil {
		return err
	}
	rootSum := binary.LittleEndian.Uint64(root)
	differ, err := d.any(rootSum != mine)
	if err != nil {
		return err
	}
	if differ {
		return fmt.Errorf("train: at update %d the ranks' parameters disagree (rank %d checksum %016x, rank 0 %016x): "+
			"a bug, faulty memory, or an all-reduce that does not give every rank the same bits; no checkpoint written",
			update, d.comm.Rank(), mine, rootSum)
	}
	return nil
}

// start restores the last checkpoint when resuming (rank 0 reads it) and
// gives every rank rank 0's parameters, optimiser state and position, so
// that only rank 0 needs the run directory.
func (r *run) start() (bool, error) {
	var ok bool
	var err error
	if r.opts.Resume && r.d.root() {
		ok, err = r.restore()
	}
	if !r.d.multi() {
		return ok, err
	}
	msg := struct {
		Restored bool
		Err      string
		State    State
	}{ok, "", r.st}
	if err != nil {
		msg.Err = err.Error()
	}
	if e := r.d.bcastJSON(&msg); e != nil {
		return false, e
	}
	if msg.Err != "" {
		if err != nil {
			return false, err
		}
		return false, fmt.Errorf("rank 0: %s", msg.Err)
	}
	r.st, r.adam.Step = msg.State, msg.State.AdamStep
	if msg.Restored {
		r.g.SetRNGState(r.st.DropSeed, r.st.DropCount)
	}
	return msg.Restored, r.d.bcastTensors(r.checkpointTensors())
}

// effectiveBatch states what one update sums over in a data-parallel run.
func (r *run) effectiveBatch() string {
	n, k := r.d.comm.Size(), r.opts.UpdateFreq
	s := fmt.Sprintf("data parallel: %s; each update sums %d ranks × %d batches (update-freq) = %d batches",
		mpi.Describe(r.d.comm), n, k, n*k)
	if r.opts.BatchTokens > 0 {
		s += fmt.Sprintf(" of up to %d tokens (max-tokens per rank) = up to %d tokens", r.opts.BatchTokens, n*k*r.opts.BatchTokens)
	}
	return s
}

// agreeStop combines the ranks' stop and interrupt decisions: any rank's
// is every rank's.
func (r *run) agreeStop(stop, interrupted bool) (bool, bool, error) {
	a, b := 0.0, 0.0
	if stop {
		a = 1
	}
	if interrupted {
		b = 1
	}
	err := r.d.sum64(&a, &b)
	return a > 0, b > 0, err
}
