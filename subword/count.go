package subword

import (
	"runtime"
	"strings"
	"sync"
)

// WordCounts is the word-frequency table BPE learns from: each key is a
// space-free segment of a line (the word is the marker followed by it).
type WordCounts struct {
	m     map[string]int32 // word -> index in n
	n     []int64
	lines int64
}

// NewWordCounts returns an empty table.
func NewWordCounts() *WordCounts { return &WordCounts{m: make(map[string]int32)} }

// Len is the number of distinct words.
func (c *WordCounts) Len() int { return len(c.m) }

// Lines is the number of lines counted.
func (c *WordCounts) Lines() int64 { return c.lines }

// AddLine counts the words of one line.
func (c *WordCounts) AddLine(line string) {
	c.lines++
	for {
		i := strings.IndexByte(line, ' ')
		if i < 0 {
			c.add(line, 1)
			return
		}
		c.add(line[:i], 1)
		line = line[i+1:]
	}
}

func (c *WordCounts) add(w string, n int64) {
	if i, ok := c.m[w]; ok {
		c.n[i] += n
		return
	}
	// Clone so the table does not pin the whole line in memory.
	c.m[strings.Clone(w)] = int32(len(c.n))
	c.n = append(c.n, n)
}

// Merge adds the counts of o to c.
func (c *WordCounts) Merge(o *WordCounts) {
	for w, i := range o.m {
		c.add(w, o.n[i])
	}
	c.lines += o.lines
}

// AddLines counts lines on up to workers goroutines (GOMAXPROCS if <= 0).
func (c *WordCounts) AddLines(lines []string, workers int) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers == 1 || len(lines) < 10000 {
		for _, l := range lines {
			c.AddLine(l)
		}
		return
	}
	parts := make([]*WordCounts, workers)
	var wg sync.WaitGroup
	for w := range parts {
		lo, hi := len(lines)*w/workers, len(lines)*(w+1)/workers
		parts[w] = NewWordCounts()
		wg.Add(1)
		go func(p *WordCounts, ls []string) {
			defer wg.Done()
			for _, l := range ls {
				p.AddLine(l)
			}
		}(parts[w], lines[lo:hi])
	}
	wg.Wait()
	if len(c.m) == 0 {
		// Adopt the first table instead of copying it.
		c.m, c.n, c.lines, parts = parts[0].m, parts[0].n, c.lines+parts[0].lines, parts[1:]
	}
	for _, p := range parts {
		c.Merge(p)
	}
}
