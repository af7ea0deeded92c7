package decode

import "fmt"

// CheckDirection reports whether the translator can translate from src to
// tgt (through pivot when not empty) before any input is read, so that a
// wrong --tgt-lang is an error at once, on empty input too, rather than
// after the first buffer of lines.
func (t *Translator) CheckDirection(src, tgt, pivot string) error {
	if pivot == "" {
		_, err := t.directionPrefix(src, tgt)
		return err
	}
	if t.Align {
		return fmt.Errorf("word alignment of pivoted translations is not supported: the last leg's source is the pivot text, not the input")
	}
	if _, err := t.directionPrefix(src, pivot); err != nil {
		return fmt.Errorf("pivot leg %s-%s: %w", src, pivot, err)
	}
	if _, err := t.directionPrefix(pivot, tgt); err != nil {
		return fmt.Errorf("pivot leg %s-%s: %w", pivot, tgt, err)
	}
	return nil
}
