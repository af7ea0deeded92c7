package model

import "testing"

// TestDeepPresetParameterCounts pins the exact parameter counts that
// docs/models-deep.md compares with the MSC paper's Table 2 (10k joint
// vocabulary): a change to the architecture that moves them must update the
// comparison too.
func TestDeepPresetParameterCounts(t *testing.T) {
	for name, want := range map[string]int{
		"msc-6": 15599616, "msc-18": 26658816, "msc-36": 43247616, "msc-54": 59836416, "msc-72": 76425216,
		"deep-pre-6": 10468352, "deep-pre-18": 16793600,
	} {
		c, err := Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		c.SrcVocab, c.TgtVocab = 10000, 10000
		m, err := New(c, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Params().Count(); got != want {
			t.Errorf("%s: %d parameters, docs/models-deep.md says %d", name, got, want)
		}
	}
}
