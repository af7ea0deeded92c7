#!/usr/bin/env bash
# Makes an untranslated gettext catalogue from an installed Debian one, to
# try `strata translate --format po` on real software strings:
#
#   scripts/l10n-catalogue.sh /usr/share/locale/de/LC_MESSAGES/diffutils.mo > diffutils.de.po
#
# msgunfmt turns the binary catalogue back into PO, msgfilter empties every
# translation (the header stays), and entries whose msgid holds a printf
# directive get the c-format flag that xgettext gave them in the source
# catalogue (a .mo file does not keep flags), so that msgfmt --check tests
# their format strings. Needs gettext.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 FILE.mo" >&2; exit 2; }
msgunfmt "$1" | msgfilter --keep-header -i - -o - sh -c 'cat >/dev/null' | awk '
BEGIN { RS = ""; ORS = "\n\n" }
{
	head = $0
	sub(/\nmsgstr.*/, "", head)
	if (head ~ /%[-+ #0-9.*$]*(hh|h|ll|l|L|z|j|t)?[diouxXeEfFgGaAcsp]/ && $0 !~ /(^|\n)#,/) {
		sub(/(^|\n)(msgctxt|msgid) /, "\n#, c-format\n&", $0)
		sub(/^\n/, "", $0); sub(/\n\n#, c-format/, "\n#, c-format", $0)
	}
	print
}' | sed '$d'
