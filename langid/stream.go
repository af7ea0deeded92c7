package langid

import (
	"bufio"
	"errors"
	"io"
	"runtime"
	"sync"
)

// LinePredictor predicts one raw input line; eol says whether a newline
// terminated it. *Model and *Fallback implement it.
type LinePredictor interface {
	PredictBytes(line []byte, eol bool, k int, threshold float32) []Prediction
}

// StreamOptions configures Stream.
type StreamOptions struct {
	K         int     // labels per line; < 1 means all
	Threshold float32 // minimum probability
	Workers   int     // goroutines; 0 means GOMAXPROCS
	// BatchLines is the number of lines handed to a worker at once; 0 means
	// 512. Batches amortise channel traffic; output order is kept.
	BatchLines int
	// Format appends the output of one line (lineNo counts from 1). Nil
	// means AppendFastText with probabilities.
	Format func(dst []byte, lineNo int64, preds []Prediction) []byte
	// Progress, if set, is called from the writing goroutine after each
	// batch with the input bytes and lines consumed so far.
	Progress func(bytes, lines int64)
}

// batch is a run of consecutive input lines and, once done is closed, their
// formatted output.
type batch struct {
	first int64  // number of the first line
	data  []byte // the lines' bytes, newlines removed
	ends  []int  // end offset of each line in data
	eol   []bool // whether each line was newline-terminated
	size  int64  // input bytes, newlines included
	out   []byte
	done  chan struct{}
}

// Stream reads lines from r, predicts each with p on several goroutines and
// writes the formatted results to w in input order. Lines are split exactly
// as fastText's predict does: at '\n' only, with a final unterminated line
// processed if it has at least one byte.
func Stream(p LinePredictor, r io.Reader, w io.Writer, opt StreamOptions) error {
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.BatchLines <= 0 {
		opt.BatchLines = 512
	}
	if opt.Format == nil {
		opt.Format = func(dst []byte, _ int64, preds []Prediction) []byte {
			return AppendFastText(dst, preds, true)
		}
	}
	work := make(chan *batch, opt.Workers)
	order := make(chan *batch, 2*opt.Workers)
	quit := make(chan struct{})
	var readErr error
	go func() {
		readErr = readBatches(r, opt.BatchLines, work, order, quit)
		close(work)
		close(order)
	}()
	var wg sync.WaitGroup
	for range opt.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range work {
				b.predict(p, opt)
			}
		}()
	}
	err := writeBatches(w, order, opt.Progress)
	if err != nil {
		close(quit)
		for range order { // let the reader finish
		}
	}
	wg.Wait()
	if err != nil {
		return err
	}
	return readErr
}

func (b *batch) predict(p LinePredictor, opt StreamOptions) {
	start := 0
	for i, end := range b.ends {
		preds := p.PredictBytes(b.data[start:end], b.eol[i], opt.K, opt.Threshold)
		b.out = opt.Format(b.out, b.first+int64(i), preds)
		start = end
	}
	close(b.done)
}

func writeBatches(w io.Writer, order <-chan *batch, progress func(int64, int64)) error {
	var bytes, lines int64
	for b := range order {
		<-b.done
		if _, err := w.Write(b.out); err != nil {
			return err
		}
		bytes += b.size
		lines += int64(len(b.ends))
		if progress != nil {
			progress(bytes, lines)
		}
	}
	return nil
}

// readBatches splits r into batches and sends each to both the workers and
// the writer (which restores the order).
func readBatches(r io.Reader, n int, work, order chan<- *batch, quit <-chan struct{}) error {
	br := bufio.NewReaderSize(r, 1<<20)
	next := int64(1)
	for {
		b := &batch{first: next, done: make(chan struct{})}
		var err error
		for len(b.ends) < n {
			if err = b.readLine(br); err != nil {
				break
			}
		}
		next += int64(len(b.ends))
		if len(b.ends) > 0 {
			select {
			case order <- b:
				work <- b
			case <-quit:
				return nil
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLine appends one line to b. It returns io.EOF when the input is
// exhausted (after appending an unterminated last line, if any).
func (b *batch) readLine(br *bufio.Reader) error {
	start := len(b.data)
	for {
		chunk, err := br.ReadSlice('\n')
		b.data = append(b.data, chunk...)
		b.size += int64(len(chunk))
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err == nil {
			b.data = b.data[:len(b.data)-1]
			b.ends = append(b.ends, len(b.data))
			b.eol = append(b.eol, true)
			return nil
		}
		if len(b.data) > start {
			b.ends = append(b.ends, len(b.data))
			b.eol = append(b.eol, false)
		}
		return err
	}
}
