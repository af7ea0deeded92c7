package decode

import "fmt"

// CheckDirection reports whether the translator can translate from src to
// tgt (through pivot when not empty) before any input is read, so that a
// wrong --tgt-lang is an error at once, on empty input too, rather than
// after the first buffer of lines.
func (t *Translator) CheckDirection(src, tgt, pivot string) error {
	if pivot == "" {
		_, err := t.translationPrefix(src, tgt)
		return err
	}
	if src == "" || tgt == "" {
		return fmt.Errorf("translating through pivot %s needs both a source and a target language (--src-lang and --tgt-lang; source %q, target %q)", pivot, src, tgt)
	}
	if pivot == src || pivot == tgt {
		return fmt.Errorf("pivot %s is the source or target language of %s→%s: a pivot is a third language (leave --pivot out to translate directly)", pivot, src, tgt)
	}
	if t.Align {
		return fmt.Errorf("word alignment of pivoted translations is not supported: the last leg's source is the pivot text, not the input")
	}
	if _, err := t.translationPrefix(src, pivot); err != nil {
		return fmt.Errorf("pivot leg %s-%s: %w", src, pivot, err)
	}
	if _, err := t.translationPrefix(pivot, tgt); err != nil {
		return fmt.Errorf("pivot leg %s-%s: %w", pivot, tgt, err)
	}
	return nil
}
