package decode

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Shard is the I-th of N contiguous parts of a corpus (I counts from 1, as
// "shard 1/4 ... 4/4" reads and as SLURM job arrays are usually numbered,
// --array=1-N), for spreading a translation over independent jobs whose
// outputs, concatenated in shard order, are the translation of the whole.
type Shard struct{ I, N int }

// ParseShard reads "I/N" with 1 ≤ I ≤ N.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Shard{}, fmt.Errorf("--shard %q: want I/N with 1 ≤ I ≤ N, e.g. 3/8 (shards count from 1; a 0-based index such as SLURM_ARRAY_TASK_ID from --array=0-7 needs +1)", s)
	}
	return Shard{i, n}, nil
}

// Lines returns the shard's lines of a corpus of total lines, [first, end)
// counting from 0: shard I has lines ⌊(I−1)·total/N⌋ to ⌊I·total/N⌋, so
// sizes differ by at most one and every line is in exactly one shard.
func (s Shard) Lines(total int) (first, end int) {
	return (s.I - 1) * total / s.N, s.I * total / s.N
}

// LineRange returns a reader of lines [first, end) of r (0-based; the last
// line may lack its newline, as the input's may).
func LineRange(r io.Reader, first, end int) io.Reader {
	return &lineRange{r: bufio.NewReaderSize(r, 1<<20), skip: first, keep: end - first}
}

type lineRange struct {
	r          *bufio.Reader
	skip, keep int
	pending    []byte
}

func (l *lineRange) Read(p []byte) (int, error) {
	for l.skip > 0 {
		b, err := l.r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			continue // the rest of a long line
		}
		if err != nil {
			return 0, err // io.EOF: fewer lines than first
		}
		if len(b) > 0 {
			l.skip--
		}
	}
	if len(l.pending) == 0 {
		if l.keep <= 0 {
			return 0, io.EOF
		}
		b, err := l.r.ReadBytes('\n')
		if err != nil && err != io.EOF {
			return 0, err
		}
		if len(b) == 0 {
			return 0, io.EOF
		}
		l.pending = b
		l.keep--
	}
	n := copy(p, l.pending)
	l.pending = l.pending[n:]
	return n, nil
}

// Describe says which lines of a corpus of total lines the shard holds,
// for the log: "lines 5-8 of 13", or, for a shard left empty because
// there are fewer lines than shards, that it has none.
func (s Shard) Describe(total int) string {
	first, end := s.Lines(total)
	if first == end {
		return fmt.Sprintf("no lines (%d lines in %d shards leave this one empty; its output is empty)", total, s.N)
	}
	return fmt.Sprintf("lines %d-%d of %d", first+1, end, total)
}
