// Package pretranslate fills the untranslated entries of a catalogue with
// machine translation that a person then reviews. Each string is cut at
// its line breaks; each line's leading and trailing blanks stay where they
// are (gettext checks that a msgstr starts and ends with \n as its msgid
// does); placeholders and markup are masked (package placeholder) and
// restored. A string whose translation lost, duplicated, invented or
// reordered a placeholder is left untranslated and reported: nothing
// broken is ever written. HTML pages (package markup) are translated
// sentence by sentence in the same way.
//
// The package knows catalogues, not models: it translates through the
// Translator interface, which decode.Translator implements.
package pretranslate
