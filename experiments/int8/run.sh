#!/usr/bin/env bash
# int8 and shortlist quality against float32 decoding (results in
# docs/decoding.md, "int8 and shortlist quality"): quantizes a trained model
# with strata quantize, learns a shortlist from its training data, translates
# a test set three ways (float32, int8, int8 + shortlist) and compares them
# with BLEU and chrF by paired bootstrap resampling (strata eval --paired-bs).
#
#   experiments/int8/run.sh MODEL_OR_RUN DATA_DIR SRC REF SRC_LANG TGT_LANG
#   experiments/int8/run.sh runs/en-de/run runs/data/l10n-en-de \
#       ../shared/data/l10n/test/test.en ../shared/data/l10n/test/test.de en de
#
# Settings (environment): WORK=runs/int8-quality  BEAM=5  THREADS=0
#   K=50 FREQUENT=2000 (shortlist; strata shortlist's defaults)  STRATA=(go run ./cmd/strata)
#   REPORT=test (the split of DATA whose union sizes and reference coverage
#   strata shortlist --report prints; empty: none)
# Outputs in WORK: q/ (the int8 model), shortlist.txt, hyp.{f32,i8,i8s},
# report.txt. Every stage is rerun (a few minutes on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -eq 6 ] || { sed -n 2,17p "$0"; exit 2; }
MODEL=$1 DATA=$2 SRC=$3 REF=$4 SL=$5 TL=$6
REPORT=${REPORT-test}
WORK=${WORK:-runs/int8-quality} BEAM=${BEAM:-5} THREADS=${THREADS:-0} K=${K:-50} FREQUENT=${FREQUENT:-2000}
mkdir -p "$WORK"
if [ -z "${STRATA:-}" ]; then go build -o "$WORK/strata" ./cmd/strata; STRATA=$WORK/strata; fi
$STRATA quantize --model "$MODEL" --output "$WORK/q"
$STRATA shortlist --data "$DATA" --output "$WORK/shortlist.txt" --k "$K" --frequent "$FREQUENT" \
	${REPORT:+--report "$REPORT"} >"$WORK/shortlist-report.txt"
tr() {
	local name=$1; shift
	/usr/bin/time -f "$name: %e s wall, %U s user, %S s sys, peak RSS %M KB" \
		$STRATA translate --data "$DATA" --src-lang "$SL" --tgt-lang "$TL" --beam "$BEAM" --threads "$THREADS" \
		--input "$SRC" --output "$WORK/hyp.$name" "$@" 2>&1 | tail -2
}
{
	cat "$WORK/shortlist-report.txt"
	tr f32 --model "$MODEL"
	tr i8 --model "$WORK/q" --compute-type int8
	tr i8s --model "$WORK/q" --compute-type int8 --shortlist "$WORK/shortlist.txt"
	for n in i8 i8s; do
		echo "== $n against f32 (baseline)"
		$STRATA eval --paired-bs --baseline "$WORK/hyp.f32" --hyp "$WORK/hyp.$n" --ref "$REF" --metrics bleu,chrf
	done
} | tee "$WORK/report.txt"
