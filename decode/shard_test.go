package decode

import (
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestParseShard(t *testing.T) {
	if s, err := ParseShard("3/8"); err != nil || s != (Shard{3, 8}) {
		t.Errorf("3/8: %v %v", s, err)
	}
	for _, bad := range []string{"0/4", "5/4", "1/0", "2", "a/b", "-1/3"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// Every line is in exactly one shard, in order, whatever the sizes, and the
// shards' text concatenated is the input's.
func TestShardsPartitionLines(t *testing.T) {
	for _, total := range []int{0, 1, 2, 7, 10} {
		var lines []string
		for i := range total {
			lines = append(lines, fmt.Sprintf("line %d%s", i, strings.Repeat("x", i*i)))
		}
		for _, trailing := range []bool{true, false} {
			text := strings.Join(lines, "\n")
			if trailing && total > 0 {
				text += "\n"
			}
			for n := 1; n <= 4; n++ {
				var joined strings.Builder
				for i := 1; i <= n; i++ {
					first, end := Shard{i, n}.Lines(total)
					if end-first < total/n || end-first > total/n+1 {
						t.Errorf("%d lines, shard %d/%d: %d lines", total, i, n, end-first)
					}
					b, err := io.ReadAll(LineRange(strings.NewReader(text), first, end))
					if err != nil {
						t.Fatal(err)
					}
					joined.Write(b)
				}
				if joined.String() != text {
					t.Errorf("%d lines (trailing newline %v) in %d shards: %q, want %q", total, trailing, n, joined.String(), text)
				}
			}
		}
	}
}

func TestShardDescribeEmptyShard(t *testing.T) {
	sh, err := ParseShard("1/99")
	if err != nil {
		t.Fatal(err)
	}
	if got := sh.Describe(13); !strings.Contains(got, "no lines") || strings.Contains(got, "1-0") {
		t.Errorf("shard 1/99 of 13 lines: %q", got)
	}
	sh, _ = ParseShard("2/3")
	if got := sh.Describe(13); got != "lines 5-8 of 13" {
		t.Errorf("shard 2/3 of 13 lines: %q", got)
	}
}
