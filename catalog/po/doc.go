// Package po reads and writes GNU gettext PO catalogues with full fidelity:
// translator, extracted, reference, flag and previous-msgid comments,
// msgctxt, plural forms, obsolete (#~) entries and strings split over many
// lines. A catalogue written back without changes is byte for byte the
// file read; an entry whose translation or flags changed is rewritten in
// gettext's layout (79 columns, a line break after each \n) and every other
// entry keeps its bytes, so a review diff shows only what changed.
//
// The reader streams (NewReader, Next), so a corpus built from a large
// catalogue never holds it whole; Parse reads a catalogue to edit it.
// Syntax follows the gettext manual's "The Format of PO Files"; it is written
// here because no maintained Go library keeps comments and layout byte for
// byte.
package po
