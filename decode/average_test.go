package decode

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/model"
)

func TestAverageIdenticalIsIdentity(t *testing.T) {
	dir := t.TempDir()
	m := tinyModel(t, model.NormPost, 41)
	a, b := filepath.Join(dir, "checkpoint_1.bin"), filepath.Join(dir, "checkpoint_2.bin")
	for _, p := range []string{a, b} {
		if err := model.Save(p, m, nil); err != nil {
			t.Fatal(err)
		}
	}
	avg, err := Average([]string{a, b})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range m.Params().List() {
		q := avg.Params().Get(p.Name)
		for i := range p.Data {
			if q.Data[i] != p.Data[i] {
				t.Fatalf("%s[%d]: average %v of two copies of %v", p.Name, i, q.Data[i], p.Data[i])
			}
		}
	}
}

func TestAverageIsMean(t *testing.T) {
	dir := t.TempDir()
	m1, m2 := tinyModel(t, model.NormPost, 42), tinyModel(t, model.NormPost, 43)
	a, b := filepath.Join(dir, "a.bin"), filepath.Join(dir, "b.bin")
	model.Save(a, m1, nil)
	model.Save(b, m2, nil)
	avg, err := Average([]string{a, b})
	if err != nil {
		t.Fatal(err)
	}
	p1 := m1.Params().List()[3]
	p2, q := m2.Params().Get(p1.Name), avg.Params().Get(p1.Name)
	for i := range p1.Data {
		if want := float32((float64(p1.Data[i]) + float64(p2.Data[i])) / 2); q.Data[i] != want {
			t.Fatalf("%s[%d] = %v, want %v", p1.Name, i, q.Data[i], want)
		}
	}
}

func TestAverageRefusesOtherArchitecture(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.bin"), filepath.Join(dir, "b.bin")
	model.Save(a, tinyModel(t, model.NormPost, 1), nil)
	model.Save(b, tinyModel(t, model.NormPre, 1), nil)
	_, err := Average([]string{a, b})
	if err == nil || !strings.Contains(err.Error(), "different architectures") {
		t.Fatalf("error %v, want one about different architectures", err)
	}
}
