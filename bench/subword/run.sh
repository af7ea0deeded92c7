#!/bin/sh
# Side-by-side timing of strata's BPE and SentencePiece (Debian's
# sentencepiece package) on the l10n training text: learning 32k merges and
# encoding every sentence. Figures go to docs/performance.md.
#   sh bench/subword/run.sh [workdir]     (from the repository root)
set -eu
work=${1:-/tmp/bpebench}
shared=../shared/data/l10n/train
[ -d "$shared" ] || { echo "no $shared: run from the repository root with ../shared present" >&2; exit 1; }
command -v spm_train >/dev/null || { echo "spm_train missing: apt-get install sentencepiece" >&2; exit 1; }
mkdir -p "$work"
go build -o "$work/sbench" ./bench/subword
cd "$work"
if [ ! -s all.txt ]; then
	for f in "$OLDPWD"/$shared/*.tsv.gz; do zcat "$f" | cut -f1; zcat "$f" | cut -f2; done > all.txt
fi
chars=$(python3 -c "import sys; print(len(set(open('all.txt', encoding='utf-8').read().replace('\n', ''))))")
vocab=$((chars + 3 + 32000)) # meta pieces + characters + 32k merges
echo "== $(wc -l < all.txt) sentences, $chars distinct characters; spm vocab_size $vocab"
cat /proc/loadavg
/usr/bin/time -f "spm_train: %U user %S sys %e wall %M KB" spm_train --input=all.txt --model_prefix=spm32k \
	--model_type=bpe --vocab_size=$vocab --character_coverage=1.0 --num_threads=2 \
	--normalization_rule_name=identity --input_sentence_size=0 > spm_train.log 2>&1 || { tail spm_train.log; exit 1; }
tail -1 spm_train.log
/usr/bin/time -f "strata learn: %U user %S sys %e wall %M KB" ./sbench -input all.txt -merges 32000 -model ours32k.json -learn-only
/usr/bin/time -f "spm_encode: %U user %S sys %e wall %M KB" spm_encode --model=spm32k.model --output_format=piece < all.txt > /dev/null
/usr/bin/time -f "strata encode: %U user %S sys %e wall %M KB" ./sbench -input all.txt -model ours32k.json -encode-only
/usr/bin/time -f "strata encode, 1 worker: %U user %S sys %e wall %M KB" ./sbench -input all.txt -model ours32k.json -encode-only -workers 1
cat /proc/loadavg
