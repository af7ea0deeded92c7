package metrics

import (
	"errors"
	"fmt"
)

// ErrNoReferences is returned when no reference stream is given.
var ErrNoReferences = errors.New("no reference streams given")

// LengthError reports a reference stream whose segment count differs from
// the hypotheses'. Stream is 0-based.
type LengthError struct {
	Stream, RefSegments, HypSegments int
}

func (e *LengthError) Error() string {
	return fmt.Sprintf("reference stream %d has %d segments but there are %d hypotheses",
		e.Stream+1, e.RefSegments, e.HypSegments)
}

// EmptyReferenceError reports a segment whose references are all empty,
// which SacreBLEU refuses too ("Empty or `None` reference sentence found").
// Segment is 0-based.
type EmptyReferenceError struct{ Segment int }

func (e *EmptyReferenceError) Error() string {
	return fmt.Sprintf("segment %d (line %d): every reference is empty", e.Segment, e.Segment+1)
}

// segmentRefs turns reference streams into per-segment reference lists.
// Like SacreBLEU it drops empty strings, so streams may hold a variable
// number of references per segment; nrefs is then -1 ("var").
func segmentRefs(nHyps int, streams [][]string) (perSeg [][]string, nrefs int, err error) {
	if len(streams) == 0 {
		return nil, 0, ErrNoReferences
	}
	for k, s := range streams {
		if len(s) != nHyps {
			return nil, 0, &LengthError{Stream: k, RefSegments: len(s), HypSegments: nHyps}
		}
	}
	perSeg = make([][]string, nHyps)
	nrefs = 0
	for i := range perSeg {
		refs := make([]string, 0, len(streams))
		for _, s := range streams {
			if s[i] != "" {
				refs = append(refs, s[i])
			}
		}
		if len(refs) == 0 {
			return nil, 0, &EmptyReferenceError{Segment: i}
		}
		switch {
		case i == 0:
			nrefs = len(refs)
		case nrefs != len(refs):
			nrefs = -1
		}
		perSeg[i] = refs
	}
	return perSeg, nrefs, nil
}
