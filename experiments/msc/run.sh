#!/usr/bin/env bash
# MSC experiment on l10n en→de (docs/results.md, section "MSC"): trains, on a
# fixed update budget, a 6-layer plain Transformer, a DEPTH-layer plain
# pre-norm Transformer and a DEPTH-layer MSC model; decodes the test set;
# scores BLEU and chrF with `strata eval`, with paired bootstrap against the
# 6-layer model; plots per-layer gradient norms over the first updates (the
# paper's Figure 5); compares BLEU on four test subsets of increasing
# difficulty (the paper's Figure 3).
#
# Resumable: every stage skips when its output exists; an interrupted
# training run continues from its last checkpoint (--resume). Rerun the same
# command to finish.
#
#   experiments/msc/run.sh                 # full run (hours on 2 cores)
#   SMOKE=1 experiments/msc/run.sh         # end-to-end check in minutes
#   SYSTEMS=all experiments/msc/run.sh     # also Table 3's baselines and Table 5's ablations
#
# Settings (environment):
#   WORK=runs/msc  DEPTH=18  MAX_UPDATE=800  MAX_TOKENS=2048  LR=7e-4
#   WARMUP=400  MERGES=10000  BASE=deep-pre-6  THREADS=0 (all cores)
#   PLOT_UPDATES=800  TRANSLATE_FLAGS="--beam 5"  DIFF_LAST=2  SET="key=value ..."
#   (extra model overrides for every model)
#   SYSTEMS="base6 plain msc" (the default; trained in this order) or a list
#   from: base6 plain msc dlcl transparent msc-add msc-ffn msc-noctxenc
#   msc-noctx msc-noblock, or "all". Every system gets the same data, schedule
#   and budget; each is scored against base6 and against msc.
set -euo pipefail
cd "$(dirname "$0")/../.."

SMOKE=${SMOKE:-0}
if [ "$SMOKE" = 1 ]; then
	WORK=${WORK:-runs/msc-smoke}
	: "${MAX_UPDATE:=40}" "${MAX_TOKENS:=600}" "${WARMUP:=10}" "${MERGES:=300}" "${PLOT_UPDATES:=0}"
	: "${SET:=d_model=32 ffn_dim=64 heads=2}"
	: "${TRANSLATE_FLAGS:=--beam 2}" "${DIFF_LAST:=1}"
fi
WORK=${WORK:-runs/msc}
DEPTH=${DEPTH:-18}
# Budget: bench/deep measured 4.2 / 6.8 / 11.3 CPU s per 2k-token update
# for the three models at depth 18 (docs/performance.md), i.e. about 3 h
# for 800 updates each on 2 cores.
MAX_UPDATE=${MAX_UPDATE:-800}
MAX_TOKENS=${MAX_TOKENS:-2048}
LR=${LR:-7e-4}
WARMUP=${WARMUP:-400}
MERGES=${MERGES:-10000}
# The 6-layer baseline is pre-norm, like the deep models: at this recipe's
# schedule (peak 7e-4 after 400 warm-up updates of 2k tokens) the post-norm
# deep-post-6 stalled at the unigram plateau (dev 10.61 bits at update 400;
# docs/results.md, "MSC"), which would make every comparison with it empty.
BASE=${BASE:-deep-pre-6}
THREADS=${THREADS:-0}
PLOT_UPDATES=${PLOT_UPDATES:-800}
TRANSLATE_FLAGS=${TRANSLATE_FLAGS:---beam 5}
# checkpoints are saved every 200 updates; the last two of base6 rank the
# test pairs by difficulty (the paper uses 20 of 15k updates)
DIFF_LAST=${DIFF_LAST:-2}
SET=${SET:-}
L10N=../shared/data/l10n

log() { printf '[msc %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
mkdir -p "$WORK"/runs "$WORK"/hyp "$WORK"/scores

# --- build ----------------------------------------------------------------
STRATA=$WORK/strata
log "building strata"
go build -o "$STRATA" ./cmd/strata

# --- data -----------------------------------------------------------------
DATA=$WORK/data
TEST_SRC=$L10N/test/test.en
TEST_REF=$L10N/test/test.de
if [ "$SMOKE" = 1 ]; then
	# A slice of the corpus so that every stage runs in seconds.
	S=$WORK/smoke-corpus
	mkdir -p "$S"
	if [ ! -s "$S/train.tsv" ]; then
		# head closes the pipe early: zcat's SIGPIPE is expected
		(set +o pipefail; zcat "$L10N/train/en-de.tsv.gz" | head -n 2000) >"$S/train.tsv.tmp"
		mv "$S/train.tsv.tmp" "$S/train.tsv"
	fi
	for l in en de; do
		[ -s "$S/dev.$l" ] || head -n 100 "$L10N/dev/dev.$l" >"$S/dev.$l"
		[ -s "$S/test.$l" ] || head -n 40 "$L10N/test/test.$l" >"$S/test.$l"
	done
	cat >"$S/config.yaml" <<-EOF
		root: .
		languages: [en, de]
		tags: none
		bpe: {merges: $MERGES}
		max_len: 256
		splits:
		  train: [{pair: en-de, path: train.tsv}]
		  valid: [{pair: en-de, src: dev.en, tgt: dev.de}]
		  test: [{pair: en-de, src: test.en, tgt: test.de}]
	EOF
	CONFIG=$S/config.yaml
	TEST_SRC=$S/test.en
	TEST_REF=$S/test.de
else
	CONFIG=configs/l10n-en-de.yaml
fi
if [ -e "$DATA/manifest.json" ]; then
	log "data: $DATA exists"
else
	log "data: preparing $DATA (BPE $MERGES merges)"
	"$STRATA" prepare --config "$CONFIG" --out "$DATA" --merges "$MERGES"
fi

# --- training -------------------------------------------------------------
SETARGS=()
for kv in $SET; do SETARGS+=(--set "$kv"); done
train() { # name preset [--set key=value ...]
	local dir=$WORK/runs/$1 name=$1 preset=$2
	shift 2
	if [ -e "$dir/.done" ]; then
		log "train $name: done"
		return
	fi
	log "train $name ($preset $*): up to $MAX_UPDATE updates"
	"$STRATA" train --data "$DATA" --save-dir "$dir" --preset "$preset" "${SETARGS[@]}" "$@" \
		--max-update "$MAX_UPDATE" --max-tokens "$MAX_TOKENS" --lr "$LR" --warmup-updates "$WARMUP" \
		--save-interval-updates 200 --validate-interval-updates 200 --log-interval 50 --log-grad-norms --threads "$THREADS" --seed 1 --resume
	touch "$dir/.done"
}
# name:preset[:override,override...] for each system (Table 3 baselines,
# Table 5 ablations as docs/models-deep.md lists them)
system() {
	case $1 in
	base6) echo "base6:$BASE" ;;
	plain) echo "plain$DEPTH:deep-pre-$DEPTH" ;;
	msc) echo "msc$DEPTH:msc-$DEPTH" ;;
	dlcl) echo "dlcl$DEPTH:dlcl-pre-$DEPTH" ;;
	transparent) echo "transparent$DEPTH:transparent-$DEPTH" ;;
	msc-add) echo "msc$DEPTH-add:msc-$DEPTH:deep.fusion=add" ;;
	msc-ffn) echo "msc$DEPTH-ffn:msc-$DEPTH:deep.context=ffn" ;;
	msc-noctxenc) echo "msc$DEPTH-noctxenc:msc-$DEPTH:deep.context_enc_attn=false" ;;
	msc-noctx) echo "msc$DEPTH-noctx:msc-$DEPTH:deep.context=none" ;;
	msc-noblock) echo "msc$DEPTH-noblock:msc-$DEPTH:deep.block_scale=false" ;;
	*) log "unknown system $1"; exit 2 ;;
	esac
}
SYSTEMS=${SYSTEMS:-base6 plain msc}
[ "$SYSTEMS" = all ] && SYSTEMS="base6 plain msc dlcl transparent msc-add msc-ffn msc-noctxenc msc-noctx msc-noblock"
MODELS=()
for s in $SYSTEMS; do MODELS+=("$(system "$s")"); done
for m in "${MODELS[@]}"; do
	IFS=: read -r name preset overrides <<<"$m"
	extra=()
	for kv in ${overrides//,/ }; do extra+=(--set "$kv"); done
	train "$name" "$preset" "${extra[@]}"
done

# --- figure 5 -------------------------------------------------------------
log "plotting per-layer gradient norms"
deep=()
for m in "${MODELS[@]}"; do [ "${m%%:*}" = base6 ] || deep+=("$WORK/runs/${m%%:*}"); done
if [ ${#deep[@]} -gt 0 ]; then
	"$STRATA" analyze grad-norms --updates "$PLOT_UPDATES" --log-y --out "$WORK/fig5" "${deep[@]}"
	# like for like: self-attention and FFN only (MSC layers also hold context
	# attention and a gate); needs runs trained since the shared norm is logged
	"$STRATA" analyze grad-norms --params shared --updates "$PLOT_UPDATES" --log-y --out "$WORK/fig5-shared" "${deep[@]}" ||
		log "no shared-parameter gradient norms in these runs (trained before they were logged): fig5-shared skipped"
fi

# --- decoding -------------------------------------------------------------
if ! "$STRATA" translate --help >/dev/null 2>&1; then
	log "strata translate is not available in this build: stopping before decoding (rerun when it lands)"
	exit 3
fi
for m in "${MODELS[@]}"; do
	name=${m%%:*}
	hyp=$WORK/hyp/$name.de
	[ -s "$hyp" ] && { log "translate $name: done"; continue; }
	# A run directory: translate picks model.bin, else checkpoint_best.bin,
	# else checkpoint_last.bin, and finds the vocabulary through run.json.
	log "translate $name"
	# shellcheck disable=SC2086 # TRANSLATE_FLAGS is a list of flags
	"$STRATA" translate --model "$WORK/runs/$name" --input "$TEST_SRC" $TRANSLATE_FLAGS >"$hyp.tmp"
	got=$(wc -l <"$hyp.tmp") want=$(wc -l <"$TEST_SRC")
	if [ "$got" -ne "$want" ]; then
		log "translate $name: $got output lines for $want input lines ($hyp.tmp); cannot score"
		exit 4
	fi
	mv "$hyp.tmp" "$hyp"
done

# --- scoring --------------------------------------------------------------
for m in "${MODELS[@]}"; do
	name=${m%%:*}
	out=$WORK/scores/$name.txt
	if [ ! -s "$out" ]; then
		"$STRATA" eval --hyp "$WORK/hyp/$name.de" --ref "$TEST_REF" --metrics bleu,chrf,ter >"$out.tmp"
		mv "$out.tmp" "$out"
	fi
	# paired bootstrap against the 6-layer baseline and against MSC itself
	[ "$name" = base6 ] && continue
	for base in base6 "msc$DEPTH"; do
		[ "$name" = "$base" ] || [ ! -s "$WORK/hyp/$base.de" ] || [ -s "$WORK/scores/$name-vs-$base.txt" ] && continue
		"$STRATA" eval --hyp "$WORK/hyp/$name.de" --ref "$TEST_REF" --metrics bleu,chrf,ter \
			--paired-bs --baseline "$WORK/hyp/$base.de" >"$WORK/scores/$name-vs-$base.tmp"
		mv "$WORK/scores/$name-vs-$base.tmp" "$WORK/scores/$name-vs-$base.txt"
	done
done
# --- difficulty buckets (the paper's Figure 3) ------------------------------
# base6's last DIFF_LAST checkpoints rank the test pairs; BLEU per quarter.
# Systems added to an earlier run: remove $WORK/scores/difficulty.md to redo the table.
if [ ! -s "$WORK/difficulty/difficulty.json" ] || [ ! -s "$WORK/scores/difficulty.md" ]; then
	log "difficulty buckets (base6's last $DIFF_LAST checkpoints)"
	hyps=()
	for m in "${MODELS[@]}"; do hyps+=("${m%%:*}=$WORK/hyp/${m%%:*}.de"); done
	"$STRATA" analyze difficulty --model "$WORK/runs/base6" --last "$DIFF_LAST" --source "$TEST_SRC" --reference "$TEST_REF" \
		--threads "$THREADS" --out "$WORK/difficulty" "${hyps[@]}" \
		>"$WORK/scores/difficulty.md.tmp"
	mv "$WORK/scores/difficulty.md.tmp" "$WORK/scores/difficulty.md"
fi
cat "$WORK/scores/difficulty.md"
for f in "$WORK"/scores/*.txt; do
	echo "== $(basename "$f" .txt)"
	cat "$f"
done
