// Package corpus builds the l10n corpus, an English-centric n-way parallel
// corpus of software text, from Debian's localisation packages: the
// gettext catalogues (MO files) that GNOME, KDE, GNU and LibreOffice
// packages ship, GNOME's Mallard help pages and LibreOffice's help.
//
// Build fetches the packages through a Source (apt-get download, or a fake
// in tests), extracts (English, translation) pairs per language, cleans
// them (Clean), aligns them n-way through the English string, splits off
// dev and test sets no training pair shares a string with, and writes the
// corpus with a manifest of the packages used (name, version, SHA-256), so
// a later run can pin the same snapshot. docs/data.md, "Building the l10n
// corpus", describes the rules and the layout.
package corpus
