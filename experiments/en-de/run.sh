#!/usr/bin/env bash
# The bilingual l10n en→de model (docs/results.md "A bilingual
# model"): trains a 6+6 pre-norm Transformer at the msc-small widths until dev
# BLEU stops improving, ships whichever of its best checkpoint, its last one
# and the average of its last 3 scores highest on the full dev set (beam 5,
# int8, as the model is shipped), then reports test BLEU/chrF/TER with
# bootstrap intervals on the l10n test set and on FLORES-200 devtest (out of
# domain), decoding speed, the learning curve and a dozen sample
# translations.
#
# Resumable in pieces: every stage skips when its output exists, and training
# continues from its last checkpoint; STOP_TIME=80m trains for at most that
# long in this invocation and stops with exit 0 (rerun the same command to go
# on). Ten hours of 2 idle cores are expected to converge.
#
#   experiments/en-de/run.sh                    # until convergence (patience)
#   STOP_TIME=80m experiments/en-de/run.sh      # one piece
#   SMOKE=1 experiments/en-de/run.sh            # end to end in a minute or two
#   experiments/en-de/run.sh status             # where the run stands
#
# Settings (environment): WORK=runs/en-de  MERGES=8000  MAX_TOKENS=4096
#   LR=1e-3  WARMUP=800  PATIENCE=10 (validations without a better dev BLEU)
#   MAX_EPOCH=60 (cap)  VALID_EVERY=500  EVAL_BLEU=300 (dev lines decoded
#   greedily at each validation)  AVERAGE=3  THREADS=0 (all cores)  BEAM=5
#   COMPUTE=int8 (decoding: the shipped model's int8, or float32)
set -euo pipefail
cd "$(dirname "$0")/../.."

SMOKE=${SMOKE:-0}
if [ "$SMOKE" = 1 ]; then
	WORK=${WORK:-runs/en-de-smoke}
	: "${MERGES:=300}" "${MAX_TOKENS:=600}" "${WARMUP:=10}" "${MAX_EPOCH:=2}" "${VALID_EVERY:=20}"
	: "${EVAL_BLEU:=20}" "${AVERAGE:=2}" "${BEAM:=2}" "${SET:=d_model=32 ffn_dim=64 heads=2}"
fi
WORK=${WORK:-runs/en-de}
MERGES=${MERGES:-8000}
MAX_TOKENS=${MAX_TOKENS:-4096}
# The reference run of ../shared/notes/en-de-reference-run.md: pre-norm
# trains at this peak without the stalls post-norm showed on short warm-ups.
LR=${LR:-1e-3}
WARMUP=${WARMUP:-800}
PATIENCE=${PATIENCE:-10}
MAX_EPOCH=${MAX_EPOCH:-60}
VALID_EVERY=${VALID_EVERY:-500}
EVAL_BLEU=${EVAL_BLEU:-300}
AVERAGE=${AVERAGE:-3}
THREADS=${THREADS:-0}
BEAM=${BEAM:-5}
COMPUTE=${COMPUTE:-int8}
STOP_TIME=${STOP_TIME:-0}
SET=${SET:-}
L10N=../shared/data/l10n
FLORES=../shared/data/flores200-devtest

log() { printf '[en-de %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
# shellcheck source=experiments/smoke-corpus.sh
. experiments/smoke-corpus.sh
# shellcheck source=experiments/json.sh
. experiments/json.sh
RUN=$WORK/run
if [ "${1:-}" = status ]; then
	if [ ! -x "$WORK/strata" ]; then mkdir -p "$WORK" && go build -o "$WORK/strata" ./cmd/strata; fi
	"$WORK/strata" status "en-de=$RUN"
	ls "$WORK"/scores 2>/dev/null || true
	exit 0
fi
mkdir -p "$WORK"/hyp "$WORK"/scores
STRATA=$WORK/strata
log "building strata"
go build -o "$STRATA" ./cmd/strata

# --- data -----------------------------------------------------------------
DATA=$WORK/data
TEST_SRC=$L10N/test/test.en TEST_REF=$L10N/test/test.de
DEV_SRC=$L10N/dev/dev.en DEV_REF=$L10N/dev/dev.de
CONFIG=configs/l10n-en-de.yaml
[ "$SMOKE" = 1 ] && smoke_corpus 3000
if [ -e "$DATA/manifest.json" ]; then
	log "data: $DATA exists"
else
	log "data: preparing $DATA (BPE $MERGES merges)"
	"$STRATA" prepare --config "$CONFIG" --output "$DATA" --merges "$MERGES"
fi

# --- training -------------------------------------------------------------
SETARGS=()
for kv in $SET; do SETARGS+=(--set "$kv"); done
if [ -e "$RUN/.done" ]; then
	log "train: done ($(cat "$RUN/.done"))"
else
	log "train: until dev BLEU has not improved for $PATIENCE validations (cap $MAX_EPOCH epochs)"
	set +e
	"$STRATA" train --data "$DATA" --save-dir "$RUN" --preset msc-small \
		--set encoder_norm=pre --set decoder_norm=pre --set dropout=0.1 "${SETARGS[@]}" \
		--max-tokens "$MAX_TOKENS" --lr "$LR" --warmup-updates "$WARMUP" --max-epoch "$MAX_EPOCH" \
		--validate-interval-updates "$VALID_EVERY" --save-interval-updates "$VALID_EVERY" --log-interval 100 \
		--eval-bleu "$EVAL_BLEU" --best-checkpoint-metric bleu --patience "$PATIENCE" --keep-last "$AVERAGE" \
		--stop-time "$STOP_TIME" --threads "$THREADS" --seed 1 2>&1 | tee -a "$WORK/train.log"
	rc=${PIPESTATUS[0]}
	set -e
	if [ "$rc" -ne 0 ]; then
		log "train: stopped with exit $rc (130/143: interrupted, checkpoint saved); rerun to continue"
		exit "$rc"
	fi
	# a time-limited piece stops without converging: leave .done unset
	why=$(grep -E 'done: ' "$WORK/train.log" | tail -1)
	case $why in
	*"time limit"*)
		log "train: paused ($why); rerun the same command to continue"
		exit 0
		;;
	esac
	echo "$why" >"$RUN/.done"
fi

# --- the checkpoint to ship: best, last or the average of the last few ------
# All three are decoded on the full dev set as the model is shipped (beam
# BEAM, COMPUTE); the highest dev BLEU is shipped (ties: the earlier in this
# order).
CANDIDATES=("best:$RUN/checkpoint_best.bin" "last:$RUN/checkpoint_last.bin" "avg:$WORK/averaged.bin")
if [ ! -s "$WORK/scores/choice.txt" ]; then
	"$STRATA" average --dir "$RUN" --last "$AVERAGE" --output "$WORK/averaged.bin"
	line="dev BLEU (beam $BEAM, $COMPUTE):"
	choice="" top=-1
	for m in "${CANDIDATES[@]}"; do
		name=${m%%:*}
		"$STRATA" translate -m "${m#*:}" --data "$DATA" -i "$DEV_SRC" -o "$WORK/hyp/dev.$name.de" --beam "$BEAM" \
			--compute-type "$COMPUTE" --threads "$THREADS"
		b=$("$STRATA" eval -i "$WORK/hyp/dev.$name.de" --ref "$DEV_REF" -m bleu --json | json_num score)
		line="$line $name $b,"
		if awk -v a="$b" -v t="$top" 'BEGIN { exit !(a > t) }'; then choice=$name top=$b; fi
	done
	printf '%s (avg: the average of the last %s); shipped: %s\n' "${line%,}" "$AVERAGE" "$choice" >"$WORK/scores/choice.txt"
fi
choice=$(sed 's/.*shipped: //' "$WORK/scores/choice.txt")
for m in "${CANDIDATES[@]}"; do [ "${m%%:*}" = "$choice" ] && FINAL=${m#*:}; done
log "final model: $FINAL ($(cat "$WORK/scores/choice.txt"))"

# --- test sets: l10n (in domain), FLORES devtest (out of domain) ------------
sets=("l10n:$TEST_SRC:$TEST_REF")
[ "$SMOKE" = 1 ] || sets+=("flores:$FLORES/eng_Latn.devtest:$FLORES/deu_Latn.devtest")
for s in "${sets[@]}"; do
	IFS=: read -r name src ref <<<"$s"
	hyp=$WORK/hyp/$name.de
	if [ ! -s "$hyp" ]; then
		log "translate $name (beam $BEAM)"
		start=$(date +%s.%N)
		"$STRATA" translate -m "$FINAL" --data "$DATA" -i "$src" -o "$hyp" --beam "$BEAM" --compute-type "$COMPUTE" --threads "$THREADS"
		end=$(date +%s.%N)
		awk -v s="$start" -v e="$end" -v n="$(wc -l <"$src")" -v t="$(wc -w <"$hyp")" \
			'BEGIN { printf "%d lines in %.1f s: %.1f sentences/s, %.0f words/s\n", n, e-s, n/(e-s), t/(e-s) }' >"$WORK/scores/$name-speed.txt"
	fi
	[ -s "$WORK/scores/$name.txt" ] ||
		"$STRATA" eval -i "$hyp" --ref "$ref" -m bleu,chrf,ter --confidence >"$WORK/scores/$name.txt"
	echo "== $name: $(cat "$WORK/scores/$name-speed.txt")"
	cat "$WORK/scores/$name.txt"
done

# --- samples and learning curve ---------------------------------------------
if [ ! -s "$WORK/scores/samples.md" ]; then
	{
		echo "| source | reference | strata |"
		echo "|---|---|---|"
		paste -d '\t' "$TEST_SRC" "$TEST_REF" "$WORK/hyp/l10n.de" | awk -F '\t' 'NR % 80 == 1 && n < 12 { n++; gsub(/\|/, "\\|"); printf "| %s | %s | %s |\n", $1, $2, $3 }'
	} >"$WORK/scores/samples.md"
fi
"$STRATA" analyze curves "$RUN" --output "$WORK/curves.png" >/dev/null
log "done: scores in $WORK/scores, curve $WORK/curves.png"
