package model

import "github.com/strata-nmt/strata/engine"

// kvCache is the self-attention cache of a decoder state: per layer, the
// keys|values (rows ld wide) of every token fed, in pages that are
// allocated as the steps write them. Allocating maxLen × maxRows rows up
// front, as the cache did, sized it for every row running to the length
// limit, while beams of finished sentences leave the batch and most
// outputs stop well before the limit. A step's rows go into one page
// (engine.KVRows.Pages: key position t of every row is then in the same
// page), so a page holds whole steps; pages are never copied or grown,
// and they are kept for the next batch.
type kvCache struct {
	half   bool
	layers int
	ld     int
	pages  []cachePage // allocated; the first used hold this batch's steps
	used   int
	fill   int // rows written in the last page used
	off    int // first row of the current step in that page
	// per layer: the pages used, as StepAttention reads them
	views [][]engine.KVPage
}

// cachePage is one page: rows × ld values per layer, as floats or halves.
type cachePage struct {
	rows int
	f32  [][]float32
	f16  [][]uint16
}

// cachePageSteps is how many steps of a batch's widest rows (maxRows) a
// page holds: a step's attention makes one kernel call per page of keys,
// and the last page of a batch is at most this many steps larger than
// what is written.
var cachePageSteps = 8

// start prepares the cache for a batch of at most maxRows rows and maxLen
// steps, with rows ld values wide in each of layers layers, as halves or
// floats. It keeps the pages of the previous batch, but not the other
// kind's, and, like growRoomy, not beyond four times this batch's largest
// need: one batch of many rows or long outputs must not pin its pages for
// the life of the process.
func (c *kvCache) start(half bool, layers, ld, maxRows, maxLen int) {
	if half != c.half || layers != c.layers || ld != c.ld {
		clear(c.pages)
		c.pages = c.pages[:0]
	}
	c.half, c.layers, c.ld = half, layers, ld
	keep, rows := 0, 0
	for keep < len(c.pages) && rows+c.pages[keep].rows <= 4*maxRows*maxLen+1024 {
		rows += c.pages[keep].rows
		keep++
	}
	clear(c.pages[keep:])
	c.pages = c.pages[:keep]
	c.used, c.fill, c.off = 0, 0, 0
	c.views = grow(c.views, layers)
	for l := range c.views {
		c.views[l] = c.views[l][:0]
	}
}

// next makes room for a step of n rows, at most maxRows wide with
// stepsLeft steps (this one included) left before the length limit, and
// returns the first row of the step in the last page (layer(l)'s last).
func (c *kvCache) next(n, maxRows, stepsLeft int) int {
	if c.used == 0 || c.fill+n > c.pages[c.used-1].rows {
		want := max(n, min(cachePageSteps, stepsLeft)*maxRows)
		switch {
		case c.used == len(c.pages):
			c.pages = append(c.pages, c.newPage(want))
		case c.pages[c.used].rows < max(n, want/4):
			// too small for the step, or so small that the attention
			// would make many calls for few keys
			c.pages[c.used] = c.newPage(want)
		}
		p := c.pages[c.used]
		c.used++
		c.fill = 0
		for l := range c.views {
			v := engine.KVPage{}
			if c.half {
				v.Half = p.f16[l]
			} else {
				v.Data = p.f32[l]
			}
			c.views[l] = append(c.views[l], v)
		}
	}
	c.off = c.fill
	c.fill += n
	for l := range c.views {
		c.views[l][c.used-1].Keys++
	}
	return c.off
}

func (c *kvCache) newPage(rows int) cachePage {
	p := cachePage{rows: rows}
	if c.half {
		p.f16 = make([][]uint16, c.layers)
		for l := range p.f16 {
			p.f16[l] = make([]uint16, rows*c.ld)
		}
	} else {
		p.f32 = make([][]float32, c.layers)
		for l := range p.f32 {
			p.f32[l] = make([]float32, rows*c.ld)
		}
	}
	return p
}

// layer is layer l's pages in use, the last holding the current step.
func (c *kvCache) layer(l int) []engine.KVPage { return c.views[l] }

// rows is the rows allocated per layer (kept pages included).
func (c *kvCache) rows() int {
	n := 0
	for _, p := range c.pages {
		n += p.rows
	}
	return n
}
