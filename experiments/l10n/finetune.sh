#!/bin/sh
# Fine-tunes the shipped en→de model on placeholder strings and decides
# whether the fine-tune becomes the shipped default (docs/l10n.md,
# "Fine-tuning on placeholders"). One command, resumable:
#
#   1. data: the placeholder set of `strata corpus l10n --langs de` (built
#      into CORPUS when absent: needs apt and a Debian mirror), mixed 1:1
#      with a sample of the base model's own training data, prepared with
#      the base model's BPE model and vocabulary;
#   2. fine-tune: strata train --finetune-from BASE at a tenth of the base
#      run's peak learning rate, until validation stops improving (cap
#      MAX_EPOCH epochs of the mixture);
#   3. evaluate base and fine-tune (beam BEAM): on the held-out placeholder
#      test set, the share of strings whose translation keeps every
#      placeholder and BLEU (strata translate --format lines: an output
#      that broke a placeholder is left empty); on the l10n test set, BLEU
#      and the two-sided paired bootstrap of the fine-tune against the base;
#   4. decide: the fine-tune becomes the shipped default unless its l10n test
#      BLEU is significantly lower (p < 0.05). WORK/report.json and
#      WORK/report.md hold the numbers and the decision.
#
# Every stage skips when its output exists; training continues from its last
# checkpoint. STOP_TIME=30m bounds the training of this invocation (rerun the
# same command to go on).
#
#   experiments/l10n/finetune.sh
#   BASE=runs/en-de/run/checkpoint_best.bin BASE_DATA=runs/en-de/data experiments/l10n/finetune.sh
#   SMOKE=1 CORPUS=DIR experiments/l10n/finetune.sh   # a tiny base and fine-tune, in a minute
#
# Settings (environment), defaults:
#   BASE=runs/en-de/run/checkpoint_best.bin (the shipped model's run's best
#   checkpoint)  BASE_DATA=runs/en-de/data (the data it was trained on: its
#   bpe.json and vocabulary)  CORPUS=runs/l10n-corpus  WORK=runs/l10n-finetune
#   MIX=1 (original pairs per placeholder pair)  LR=1e-4  WARMUP=200
#   MAX_TOKENS=4096  VALID_EVERY=200  PATIENCE=5  MAX_EPOCH=10  BEAM=5
#   THREADS=0  STOP_TIME=  STRATA= (a built strata binary)  SEED=1
set -eu
cd "$(dirname "$0")/../.."

SMOKE=${SMOKE:-0}
L10N=${L10N:-../shared/data/l10n}
if [ "$SMOKE" = 1 ]; then
	WORK=${WORK:-runs/l10n-finetune-smoke}
	: "${MAX_TOKENS:=600}" "${WARMUP:=5}" "${VALID_EVERY:=10}" "${MAX_EPOCH:=1}" "${BEAM:=1}" "${PATIENCE:=2}"
	: "${LR:=1e-3}"
fi
WORK=${WORK:-runs/l10n-finetune}
BASE=${BASE:-runs/en-de/run/checkpoint_best.bin}
BASE_DATA=${BASE_DATA:-runs/en-de/data}
CORPUS=${CORPUS:-runs/l10n-corpus}
MIX=${MIX:-1}
LR=${LR:-1e-4}
WARMUP=${WARMUP:-200}
MAX_TOKENS=${MAX_TOKENS:-4096}
VALID_EVERY=${VALID_EVERY:-200}
PATIENCE=${PATIENCE:-5}
MAX_EPOCH=${MAX_EPOCH:-10}
BEAM=${BEAM:-5}
THREADS=${THREADS:-0}
STOP_TIME=${STOP_TIME:-0}
SEED=${SEED:-1}
STRATA=${STRATA:-}

log() { printf '[l10n-finetune %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
mkdir -p "$WORK"/hyp "$WORK"/scores
if [ -z "$STRATA" ]; then
	STRATA=$WORK/strata
	log "building strata"
	go build -o "$STRATA" ./cmd/strata
fi
# shellcheck source=experiments/json.sh
. experiments/json.sh
# run_state: the fine-tune's state as strata status --json says it
run_state() { "$STRATA" status --json "ft=$RUN" | sed -n 's/.*"state": *"\([a-z_]*\)".*/\1/p'; }

# --- the base model (a tiny one in smoke mode) -----------------------------
if [ "$SMOKE" = 1 ] && [ ! -e "$BASE" ]; then
	BASE_DATA=$WORK/base-data BASE=$WORK/base/checkpoint_last.bin
	S=$WORK/smoke-corpus
	mkdir -p "$S"
	[ -s "$S/train.tsv" ] || zcat "$L10N/train/en-de.tsv.gz" | head -n 1000 >"$S/train.tsv"
	[ -s "$S/dev.en" ] || { head -n 20 "$L10N/dev/dev.en" >"$S/dev.en"; head -n 20 "$L10N/dev/dev.de" >"$S/dev.de"; }
	printf 'root: .\nlanguages: [en, de]\ntags: none\nbpe: {merges: 100}\nmax_len: 256\nsplits:\n  train: [{pair: en-de, path: train.tsv}]\n  valid: [{pair: en-de, src: dev.en, tgt: dev.de}]\n' >"$S/config.yaml"
	[ -e "$BASE_DATA/manifest.json" ] || "$STRATA" prepare --config "$S/config.yaml" --output "$BASE_DATA" >/dev/null
	[ -e "$BASE" ] || "$STRATA" train --data "$BASE_DATA" --save-dir "$WORK/base" --preset transformer-iwslt \
		--set encoder_layers=1 --set decoder_layers=1 --set d_model=32 --set ffn_dim=64 --set heads=2 \
		--max-tokens 600 --max-update 10 --warmup-updates 5 --lr 1e-3 --threads "${THREADS}" --seed 1 \
		--validate-interval-updates 10 >"$WORK/base.log" 2>&1
	[ -s "$S/test.de" ] || { head -n 20 "$L10N/test/test.en" >"$S/test.en"; head -n 20 "$L10N/test/test.de" >"$S/test.de"; }
	L10N_DEV=$S/dev L10N_TEST=$S/test
fi
L10N_DEV=${L10N_DEV:-$L10N/dev/dev}
L10N_TEST=${L10N_TEST:-$L10N/test/test}
for f in "$BASE" "$BASE_DATA/bpe.json" "$BASE_DATA/manifest.json"; do
	[ -e "$f" ] || { log "no $f: set BASE= (a checkpoint) and BASE_DATA= (the data directory it was trained on)"; exit 2; }
done

# --- placeholder data ------------------------------------------------------
PH=$CORPUS/placeholders
if [ ! -s "$PH/train/en-de.tsv.gz" ]; then
	log "data: building the l10n corpus and its placeholder set in $CORPUS (apt-get download)"
	"$STRATA" corpus l10n --langs de --output "$CORPUS"
fi
MIXDIR=$WORK/mix
mkdir -p "$MIXDIR"
if [ ! -s "$MIXDIR/original.tsv" ]; then
	n=$(zcat "$PH/train/en-de.tsv.gz" | wc -l)
	want=$((n * MIX))
	# a fixed sample of the base model's training pairs: every line has a
	# random key from a seeded generator, the smallest keys are kept
	orig=$L10N/train/en-de.tsv.gz
	[ "$SMOKE" = 1 ] && orig=$WORK/smoke-corpus/train.tsv
	case $orig in *.gz) cat_orig="zcat $orig" ;; *) cat_orig="cat $orig" ;; esac
	$cat_orig | awk -v seed="$SEED" 'BEGIN { srand(seed) } { printf "%.12f\t%s\n", rand(), $0 }' |
		sort -t "$(printf '\t')" -k1,1 | head -n "$want" | cut -f 2- >"$MIXDIR/original.tsv.tmp"
	mv "$MIXDIR/original.tsv.tmp" "$MIXDIR/original.tsv"
	log "data: $n placeholder pairs, $(wc -l <"$MIXDIR/original.tsv") original pairs"
fi
DATA=$WORK/data
if [ ! -e "$DATA/manifest.json" ]; then
	abs() { (cd "$(dirname "$1")" && printf '%s/%s' "$(pwd)" "$(basename "$1")"); }
	cat >"$WORK/data.yaml" <<-EOF
		root: /
		languages: [en, de]
		tags: none
		bpe: {model: "$(abs "$BASE_DATA/bpe.json")"}
		max_len: 256
		splits:
		  train:
		    - {pair: en-de, path: "$(abs "$PH/train/en-de.tsv.gz")"}
		    - {pair: en-de, path: "$(abs "$MIXDIR/original.tsv")"}
		  valid:
		    - {pair: en-de, path: "$(abs "$PH/dev/en-de.tsv")"}
		    - {pair: en-de, src: "$(abs "$L10N_DEV.en")", tgt: "$(abs "$L10N_DEV.de")"}
	EOF
	log "data: preparing $DATA with the base model's BPE"
	"$STRATA" prepare --config "$WORK/data.yaml" --output "$DATA" >"$WORK/prepare.log" 2>&1 ||
		{ tail -n 5 "$WORK/prepare.log" >&2; exit 2; }
fi

# --- fine-tune -------------------------------------------------------------
RUN=$WORK/run
if [ "$(run_state)" != finished ]; then
	log "train: fine-tuning $BASE (lr $LR, until validation NLL has not improved for $PATIENCE validations, cap $MAX_EPOCH epochs)"
	rc=0
	"$STRATA" train --data "$DATA" --save-dir "$RUN" --finetune-from "$BASE" \
		--max-tokens "$MAX_TOKENS" --lr "$LR" --warmup-updates "$WARMUP" --max-epoch "$MAX_EPOCH" \
		--validate-interval-updates "$VALID_EVERY" --save-interval-updates "$VALID_EVERY" --log-interval 50 \
		--patience "$PATIENCE" --keep-last 2 --stop-time "$STOP_TIME" --threads "$THREADS" --seed "$SEED" \
		>>"$WORK/train.log" 2>&1 || rc=$?
	state=$(run_state)
	if [ "$rc" -ne 0 ]; then
		log "train: strata train ended with exit $rc (130/143: interrupted, checkpoint saved; else see $WORK/train.log); rerun to continue"
		tail -n 5 "$WORK/train.log" >&2
		exit "$rc"
	fi
	if [ "$state" != finished ]; then
		log "train: stopped before convergence ($state); rerun the same command to continue"
		exit 0
	fi
fi
FT=$RUN/checkpoint_best.bin

# --- evaluation ------------------------------------------------------------
PH_SRC=$PH/test/en-de.en PH_REF=$PH/test/en-de.de
for sys in base:$BASE:$BASE_DATA ft:$FT:$DATA; do
	name=${sys%%:*} rest=${sys#*:}
	model=${rest%%:*} data=${rest#*:}
	if [ ! -e "$WORK/hyp/$name.ph.de" ]; then
		log "translate: placeholder test with $name (beam $BEAM)"
		"$STRATA" translate -m "$model" --data "$data" --format lines -i "$PH_SRC" -o "$WORK/hyp/$name.ph.de" \
			--beam "$BEAM" --threads "$THREADS" 2>"$WORK/hyp/$name.ph.log"
	fi
	if [ ! -e "$WORK/hyp/$name.l10n.de" ]; then
		log "translate: l10n test with $name (beam $BEAM)"
		"$STRATA" translate -m "$model" --data "$data" -i "$L10N_TEST.en" -o "$WORK/hyp/$name.l10n.de" \
			--beam "$BEAM" --threads "$THREADS" 2>/dev/null
	fi
	[ -s "$WORK/scores/$name.ph.json" ] ||
		"$STRATA" eval -i "$WORK/hyp/$name.ph.de" --ref "$PH_REF" -m bleu --placeholders "$PH_SRC" --json >"$WORK/scores/$name.ph.json"
	[ -s "$WORK/scores/$name.l10n.json" ] ||
		"$STRATA" eval -i "$WORK/hyp/$name.l10n.de" --ref "$L10N_TEST.de" -m bleu --json >"$WORK/scores/$name.l10n.json"
done
[ -s "$WORK/scores/paired.json" ] ||
	"$STRATA" eval -i "$WORK/hyp/ft.l10n.de" --baseline "$WORK/hyp/base.l10n.de" --ref "$L10N_TEST.de" \
		-m bleu --paired-bs --json >"$WORK/scores/paired.json"

# --- report and decision ---------------------------------------------------
score() { grep "\"name\":\"$2\"" "$WORK/scores/$1.json" | json_num score; }
kept() { grep '"name":"placeholders"' "$WORK/scores/$1.ph.json" | json_num kept; }
lines=$(grep '"name":"placeholders"' "$WORK/scores/base.ph.json" | json_num lines)
base_bleu=$(score base.l10n BLEU) ft_bleu=$(score ft.l10n BLEU)
p=$(json_num p_value <"$WORK/scores/paired.json")
decision=$(awk -v b="$base_bleu" -v f="$ft_bleu" -v p="$p" 'BEGIN {
	if (f < b && p < 0.05) print "keep the base model: the fine-tune is significantly lower on l10n test"
	else print "ship the fine-tune: its l10n test BLEU is not significantly lower" }')
cat >"$WORK/report.json.tmp" <<-EOF
	{"base": "$BASE", "finetune": "$FT",
	 "placeholder_test": {"lines": $lines,
	  "base": {"kept": $(kept base), "kept_pct": $(score base.ph placeholders), "bleu": $(score base.ph BLEU)},
	  "finetune": {"kept": $(kept ft), "kept_pct": $(score ft.ph placeholders), "bleu": $(score ft.ph BLEU)}},
	 "l10n_test": {"base_bleu": $base_bleu, "finetune_bleu": $ft_bleu, "p_value": $p, "test": "two-sided paired bootstrap"},
	 "decision": "$decision"}
EOF
mv "$WORK/report.json.tmp" "$WORK/report.json"
{
	echo "| model | placeholder test: all kept | placeholder test BLEU | l10n test BLEU |"
	echo "|---|---:|---:|---:|"
	echo "| base ($BASE) | $(kept base)/$lines ($(score base.ph placeholders)%) | $(score base.ph BLEU) | $base_bleu |"
	echo "| fine-tune ($FT) | $(kept ft)/$lines ($(score ft.ph placeholders)%) | $(score ft.ph BLEU) | $ft_bleu (p = $p) |"
	echo
	echo "Decision: $decision."
} >"$WORK/report.md"
"$STRATA" status "ft=$RUN" >>"$WORK/report.md"
cat "$WORK/report.md"
log "decision: $decision (report: $WORK/report.json, $WORK/report.md)"
