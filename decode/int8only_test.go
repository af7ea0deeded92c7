package decode

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/data"
)

// A bundle's first int8 searcher releases the float32 projections; it
// translates exactly as an int8 searcher over the unreleased model, and a
// float32 searcher is refused afterwards instead of silently decoding in
// int8.
func TestBundleInt8ReleasesFloat32(t *testing.T) {
	o := Defaults()
	o.ComputeType = "int8"
	translate := func(b *Bundle, s *Searcher) []string {
		t.Helper()
		tr := NewTranslator(b, s)
		tr.BatchSize = 3
		out, err := tr.Translate(context.Background(), "en", "de", corpus)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	ref := testBundle(t, data.TagSENCTDEC)
	s, err := NewSearcher(ref.Model, o)
	if err != nil {
		t.Fatal(err)
	}
	want := translate(ref, s)

	b := testBundle(t, data.TagSENCTDEC)
	if s, err = b.Searcher(o); err != nil {
		t.Fatal(err)
	}
	released := 0
	for _, p := range b.Model.Params().List() {
		if p.Data == nil {
			released++
		}
	}
	if released == 0 {
		t.Fatal("an int8 searcher released no float32 weights")
	}
	if got := translate(b, s); !slices.Equal(got, want) {
		t.Errorf("after release: %q\nbefore: %q", got, want)
	}
	if _, err := b.Searcher(o); err != nil {
		t.Errorf("a second int8 searcher: %v", err)
	}
	if _, err := b.Searcher(Defaults()); err == nil || !strings.Contains(err.Error(), "int8 only") {
		t.Errorf("float32 searcher after release: err %v, want a refusal", err)
	}
}

// An int8 searcher whose options do not validate releases nothing: the
// bundle still makes float32 searchers.
func TestBundleInvalidInt8OptionsReleaseNothing(t *testing.T) {
	b := testBundle(t, data.TagSENCTDEC)
	o := Defaults()
	o.ComputeType, o.Int8Bits = "int8", 6
	if _, err := b.Searcher(o); err == nil || !strings.Contains(err.Error(), "6 bits") {
		t.Fatalf("int8 with 6-bit activations: err %v, want a refusal", err)
	}
	for _, p := range b.Model.Params().List() {
		if p.Data == nil {
			t.Fatalf("%s released by a searcher that was refused", p.Name)
		}
	}
	o.ComputeType, o.Int8Bits = "float32", 0
	if _, err := b.Searcher(o); err != nil {
		t.Errorf("float32 searcher after the refusal: %v", err)
	}
}
