package model

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"testing"
)

// fixChecksum rewrites the last 4 bytes of a tensor file with the CRC-32C
// of the rest, so that the fuzzer reaches the model configuration.
func fixChecksum(b []byte) {
	if len(b) >= 4 {
		sum := crc32.Checksum(b[:len(b)-4], crc32.MakeTable(crc32.Castagnoli))
		binary.LittleEndian.PutUint32(b[len(b)-4:], sum)
	}
}

// modelFileSeeds are small valid model files of every architecture.
func modelFileSeeds(t testing.TB) [][]byte {
	var out [][]byte
	add := func(c Config) {
		m, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WriteTo(&b, m, map[string]any{"step": 1}); err != nil {
			t.Fatal(err)
		}
		out = append(out, b.Bytes())
	}
	c := tinyConfig(NormPre)
	c.EncoderLayers, c.DecoderLayers, c.DModel, c.FFN, c.Heads, c.SrcVocab, c.TgtVocab = 1, 1, 4, 4, 1, 6, 6
	add(c)
	s := c
	s.ShareAllEmbeddings = false
	s.TgtVocab = 5
	add(s)
	for _, arch := range []string{"dlcl", "transparent", "msc"} {
		d := c
		d.Arch = Arch(arch)
		if arch == "msc" {
			d.EncoderLayers, d.DecoderLayers, d.Deep.Blocks = 2, 2, 2
		}
		add(d)
	}
	return out
}

// FuzzReadModel (the checksum is fixed up first; engine's FuzzReadTensors
// covers bad checksums): any bytes give a model whose parameters match its
// configuration, or an error; never a panic or an allocation the file
// cannot back (the model's parameters are at most a few times the values
// the file holds).
func FuzzReadModel(f *testing.F) {
	for _, s := range modelFileSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fixChecksum(b)
		m, err := Read(bytes.NewReader(b))
		if err != nil {
			return
		}
		if n := m.Params().Count(); 4*n > len(b) {
			t.Fatalf("%d parameters from a %d-byte file", n, len(b))
		}
		var out bytes.Buffer
		if err := WriteTo(&out, m, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(&out); err != nil {
			t.Fatalf("re-reading a model that was read: %v", err)
		}
	})
}
