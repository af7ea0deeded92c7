package langid

// pruneTable maps the hash buckets kept by quantisation with -cutoff to
// their input rows (fastText's pruneidx_, an unordered_map). The lookup runs
// for every character n-gram of every token, so it is a flat open-addressing
// table sized to twice the kept buckets: lid.176 keeps 42,765 of 2,000,000
// buckets, so the table takes 1 MiB and mostly stays in cache, where a
// dense bucket-indexed slice would take 8 MiB and a Go map is slower.
type pruneTable struct {
	slots []uint64 // (bucket+1)<<32 | row; 0 marks an empty slot
	shift uint32
	n     int
}

func newPruneTable(n int64) *pruneTable {
	bits := uint32(4)
	for int64(1)<<bits < 2*n {
		bits++
	}
	return &pruneTable{slots: make([]uint64, 1<<bits), shift: 32 - bits}
}

func (p *pruneTable) slot(bucket int32) uint32 {
	return (uint32(bucket) * 2654435769) >> p.shift // Fibonacci hashing
}

// put sets bucket's row; a repeated bucket keeps the last row, as the
// C++ map assignment does.
func (p *pruneTable) put(bucket, row int32) {
	key := uint64(uint32(bucket)+1) << 32
	mask := uint32(len(p.slots) - 1)
	for i := p.slot(bucket); ; i = (i + 1) & mask {
		if s := p.slots[i]; s == 0 || s&^0xFFFFFFFF == key {
			if s == 0 {
				p.n++
			}
			p.slots[i] = key | uint64(uint32(row))
			return
		}
	}
}

func (p *pruneTable) get(bucket int32) (int32, bool) {
	key := uint64(uint32(bucket)+1) << 32
	mask := uint32(len(p.slots) - 1)
	for i := p.slot(bucket); ; i = (i + 1) & mask {
		s := p.slots[i]
		if s == 0 {
			return 0, false
		}
		if s&^0xFFFFFFFF == key {
			return int32(uint32(s)), true
		}
	}
}

// maxRow returns the largest row, or -1 when empty.
func (p *pruneTable) maxRow() int32 {
	m := int32(-1)
	for _, s := range p.slots {
		if s != 0 {
			m = max(m, int32(uint32(s)))
		}
	}
	return m
}
