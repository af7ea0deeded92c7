package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadNormsOrdersLayersBottomUp(t *testing.T) {
	dir := t.TempDir()
	log := strings.Join([]string{
		`{"type":"train","update":1,"layer_grad_norms":{"encoder.blocks.1.layers.0":3,"encoder.blocks.0.layers.1":2,"encoder.blocks.0.layers.0":1,"decoder.layers.0":9}}`,
		`{"type":"valid","update":1}`,
		`{"type":"train","update":2,"layer_grad_norms":{"encoder.blocks.1.layers.0":6,"encoder.blocks.0.layers.1":5,"encoder.blocks.0.layers.0":4}}`,
		`{"type":"train","update":3,"layer_grad_norms":{"encoder.blocks.1.layers.0":0,"encoder.blocks.0.layers.1":0,"encoder.blocks.0.layers.0":0}}`,
	}, "\n")
	path := filepath.Join(dir, "metrics.jsonl")
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := readNorms(path, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 3 {
		t.Fatalf("%d encoder layers, want 3 (decoder layers excluded)", len(s))
	}
	for i, want := range [][2]float64{{1, 4}, {2, 5}, {3, 6}} {
		if len(s[i].pts) != 2 || s[i].pts[0].Y != want[0] || s[i].pts[1].Y != want[1] {
			t.Fatalf("layer %d: %v, want %v (updates beyond -updates 2 dropped)", i, s[i].pts, want)
		}
	}
	png := filepath.Join(dir, "fig.png")
	if err := draw(png, "test", s, 2); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(png); err != nil || len(b) < 8 || string(b[1:4]) != "PNG" {
		t.Fatalf("no PNG written: %v", err)
	}
}

func TestReadNormsReportsBadLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "metrics.jsonl")
	os.WriteFile(path, []byte("{\"type\":\"train\"}\nnot json\n"), 0o644)
	if _, err := readNorms(path, 0); err == nil || !strings.Contains(err.Error(), ":2:") {
		t.Fatalf("want an error naming line 2, got %v", err)
	}
}
