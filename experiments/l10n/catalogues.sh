#!/usr/bin/env bash
# Pre-translates six GNU catalogues of the machine's Debian release with a
# model and checks every output with msgfmt (docs/l10n.md, "Results"):
#
#   experiments/l10n/catalogues.sh                 # the shipped model, into runs/l10n-catalogues
#   MODEL=DIR OUT=DIR experiments/l10n/catalogues.sh
#
# For each catalogue, scripts/l10n-catalogue.sh makes it untranslated from
# the installed German .mo, `strata translate --format po` fills it (int8,
# beam 5, one thread), and `msgfmt --check --use-fuzzy` must accept the
# output. OUT/table.md is the table of docs/l10n.md: entries, entries with
# the c-format flag, entries written (all fuzzy), entries left untranslated
# (their output broke a placeholder), wall time of the translate command
# (model loading included). Needs gettext.
set -euo pipefail
cd "$(dirname "$0")/../.."
MODEL=${MODEL:-models/l10n-en-de}
OUT=${OUT:-runs/l10n-catalogues}
CATALOGUES=${CATALOGUES:-diffutils grep sed make findutils tar}
LOCALE=${LOCALE:-/usr/share/locale/de/LC_MESSAGES}
STRATA=${STRATA:-}
mkdir -p "$OUT"
if [ -z "$STRATA" ]; then
	STRATA=$OUT/strata
	go build -o "$STRATA" ./cmd/strata
fi

# count STATS KIND: the number KIND ("translated", "fuzzy", "untranslated")
# in msgfmt's statistics line STATS (0 when msgfmt leaves it out).
count() { grep -o "[0-9]* $2" <<<"$1" | grep -o '^[0-9]*' || echo 0; }

row() {
	local name=$1 po=$OUT/$1.de.po mt=$OUT/$1.mt.po entries cfmt t0 t1 stats check=passes
	scripts/l10n-catalogue.sh "$LOCALE/$name.mo" >"$po"
	entries=$(count "$(msgfmt --statistics -o /dev/null "$po" 2>&1)" untranslated)
	cfmt=$(grep -c '^#, .*c-format' "$po" || true)
	t0=$(date +%s.%N)
	"$STRATA" translate --format po -m "$MODEL" --compute-type int8 --beam 5 --threads 1 \
		-i "$po" -o "$mt" 2>"$OUT/$name.log"
	t1=$(date +%s.%N)
	# one msgfmt run checks the output and counts its entries
	stats=$(msgfmt --check --use-fuzzy --statistics -o /dev/null "$mt" 2>&1) || check=FAILS
	printf '%s\t%s\t%s\t%s\t%s\t%.1f\t%s\n' "$name" "$entries" "$cfmt" \
		"$(count "$stats" fuzzy)" "$(count "$stats" untranslated)" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "$check"
}

for name in $CATALOGUES; do row "$name"; done >"$OUT/table.tsv"
awk -F'\t' '
BEGIN {
	print "| catalogue | entries | with printf (c-format) | translated (fuzzy) | left untranslated | wall time | `msgfmt --check --use-fuzzy` |"
	print "|---|---:|---:|---:|---:|---:|---|"
}
{ printf "| %s | %d | %d | %d | %d | %.1f s | %s |\n", $1, $2, $3, $4, $5, $6, $7; e += $2; c += $3; f += $4; u += $5 }
END { printf "| **all** | **%d** | **%d** | **%d (%.1f%%)** | **%d (%.1f%%)** | | |\n", e, c, f, 100 * f / e, u, 100 * u / e }
' "$OUT/table.tsv" | tee "$OUT/table.md"
! grep -q 'FAILS$' "$OUT/table.tsv"
