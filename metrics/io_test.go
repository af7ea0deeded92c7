package metrics

import (
	"strings"
	"testing"
)

func TestReadSegments(t *testing.T) {
	got, err := readSegments(strings.NewReader("a \r\n\nb"), "x")
	if err != nil || len(got) != 3 || got[0] != "a " || got[1] != "" || got[2] != "b" {
		t.Errorf("%q %v", got, err)
	}
	got, _ = readSegments(strings.NewReader("a\n"), "x")
	if len(got) != 1 {
		t.Errorf("%q", got)
	}
	_, err = readSegments(strings.NewReader("ok\nbad\xff\n"), "hyp.txt")
	if err == nil || !strings.Contains(err.Error(), "hyp.txt: line 2") {
		t.Errorf("err %v", err)
	}
}
