#!/usr/bin/env bash
# Packages a trained model as a self-contained model directory that
# `strata translate --model DIR` reads right after a clone:
# DIR/model.bin (int8 weights from strata quantize, a quarter of float32),
# DIR/data/{manifest.json,bpe.json,vocab.txt} (the vocabulary and BPE the
# model was trained with, no binarised corpus) and DIR/run.json pointing at
# DIR/data.
#
#   experiments/en-de/ship.sh MODEL_OR_RUN DATA_DIR OUT_DIR
#   experiments/en-de/ship.sh runs/en-de/run/checkpoint_best.bin runs/en-de/data models/l10n-en-de
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -eq 3 ] || { sed -n 2,10p "$0"; exit 2; }
MODEL=$1 DATA=$2 OUT=$3
STRATA=${STRATA:-}
if [ -z "$STRATA" ]; then STRATA=$(mktemp -d)/strata; go build -o "$STRATA" ./cmd/strata; fi
tmp=$OUT.tmp
rm -rf "$tmp"
"$STRATA" quantize --model "$MODEL" --output "$tmp"
mkdir -p "$tmp/data"
cp "$DATA"/manifest.json "$DATA"/bpe.json "$DATA"/vocab.txt "$tmp/data/"
# a model file without a run beside it (strata average's output) brings no
# run.json: keep the shipped one's (same data and configuration: its data
# key and vocabulary hash are what --finetune-from checks)
if [ ! -e "$tmp/run.json" ] && [ -e "$OUT/run.json" ]; then cp "$OUT/run.json" "$tmp/run.json"; fi
# run.json names the data directory relative to the model directory
python3 - "$tmp/run.json" <<'PY' 2>/dev/null || printf '{"data_dir": "data"}\n' >"$tmp/run.json"
import json, sys
p = sys.argv[1]
try:
    d = json.load(open(p))
except FileNotFoundError:
    d = {}
d["data_dir"] = "data"
d.pop("data_dir_absolute", None)
json.dump(d, open(p, "w"), indent=2)
open(p, "a").write("\n")
PY
# the card and the check sentences are written by hand (and by the tests'
# maintainer): carry them over to the new directory rather than lose them
for f in README.md check.tsv; do
	if [ -e "$OUT/$f" ]; then cp "$OUT/$f" "$tmp/$f"; fi
done
rm -rf "$OUT"
mv "$tmp" "$OUT"
echo "shipped $MODEL as $OUT ($(du -sh "$OUT" | cut -f1))"
