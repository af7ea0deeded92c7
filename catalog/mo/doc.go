// Package mo reads GNU gettext binary message catalogues (.mo files), as
// msgfmt writes them and libintl reads them.
//
// Both byte orders are read (the magic number 0x950412de tells which).
// A message's context (msgctxt) is split from its msgid at the EOT byte
// (\x04); plural forms are split at NUL (\x00), msgid from msgid_plural and
// msgstr[i] from msgstr[i+1]. The hash table is not used: messages are
// returned in file order (sorted by msgid, as msgfmt writes them). Strings
// are converted to UTF-8 from the charset the header entry declares.
//
// Revision 1 files (written when a c-format string uses <inttypes.h>
// macros such as <PRIu64>) keep those system-dependent strings in extra
// tables that are skipped; their static strings are read as in revision 0.
//
// Every offset and length is checked against the file size before it is
// used, so a truncated or corrupt file gives an error naming the file and
// the entry, and nothing larger than the file is ever allocated.
package mo
