#!/usr/bin/env bash
# Zero-shot LayerNorm study to convergence (Mao et al., ACL 2023; results
# in docs/results.md, section "Zero-shot"). The paper's IWSLT-17 setting on the l10n corpus: an
# English-centric model over en, it, nl, ro (6 supervised and 6 zero-shot
# directions), systems trained one after the other in the order below,
# each until its validation loss stops improving:
#
#   #1 pre-senc  #2 post-senc  #3 pre-tenc  #4 post-tenc        (Table 2, w/ Res.)
#   seeds 2 and 3 of #1 and #2: pre-senc-s2 post-senc-s2 pre-senc-s3 post-senc-s3
#         (each seed evaluated and archived once its two systems are trained)
#   #5-#8 the same with -nores: no residual around the self-attention of
#         the 4th encoder layer                                 (Table 2, w/o Res.)
#   Table 4: the best PreNorm and PostNorm row (zero-shot BLEU on the l10n
#         dev set) again with LayerNorm without gain and bias (-simple)
#   Figure 3: swap-senc, swap-senc-nores (Swap-PreNorm, S-ENC-T-DEC)
#
# then evaluated with `strata eval-matrix` on the l10n test set (12
# directions), the three IWSLT-17 zero-shot pairs of Tatoeba (ita-nld,
# ita-ron, nld-ron, both directions) and FLORES-200 devtest; pivoting through
# English with system #4 as the paper; paired bootstrap of every PostNorm
# system against its PreNorm twin; LLR probes for #1-#4.
#
# Hyper-parameters. The paper's IWSLT ones where they carry over: Adam
# (β 0.9, 0.98), learning rate 1e-3, 4,000 linear warm-up updates then
# inverse square root, beam 5, the checkpoint with the lowest validation
# loss (strata's checkpoint_best, by validation NLL). Two differ: label
# smoothing is 0.1 here (the paper states none), and an update is one
# 4,096-token batch here against 4,096 tokens on each of 4 GPUs there
# (about 16k tokens per update). Scaled to 2 CPU cores (the paper:
# Transformer-base, 1.38M sentence pairs, 100 epochs on 4 V100s):
#   - width: 6+6 layers as the paper (the 4th encoder layer and the LLR
#     layers L1-L12 need them) but d_model 128, ffn 512, 4 heads (3.9M
#     parameters; two trainings side by side, one core each, make about
#     4,700 4,096-token updates an hour each on a Zen 5 core; a d=256
#     model takes about twice as long);
#   - data: 20,000 pairs of each en-X corpus (every k-th line, spread over
#     the file), both directions: 120,000 examples, about 460 updates per
#     epoch (448 with T-ENC), equal per pair as the paper (no oversampling); one joint BPE of
#     8,000 merges;
#   - dropout 0.2: the paper's 0.4 is for a 44M-parameter model on 1.38M
#     pairs; a model a tenth that size on a tenth of the data overfits less
#     per epoch, and patience stops it when it does;
#   - convergence: validate and checkpoint every 500 updates on 500 dev
#     lines of each supervised direction; stop when validation NLL has not
#     improved for PATIENCE=6 validations (3,000 updates, about 6.5 epochs),
#     with the same cap MAX_UPDATE=30000 (65-67 epochs) for every system;
#     the state table says which systems converged and which hit the cap.
# About 6.5 hours per twin pair to the cap with PARALLEL=2 on 2 idle cores;
# `status` prints where each system stands. Per-layer gradient norms are logged (--log-grad-norms) so
# that a PostNorm run that stalls can be diagnosed with `strata analyze
# grad-norms WORK/runs/NAME` without training it again.
#
# Resumable at every stage: data stages skip when their outputs exist;
# trainings continue from checkpoint_last (--resume) and a system counts as
# trained only when `strata train` ended by patience or by the cap (the
# reason is in RUN/.done); evaluations skip when matrix.json exists and
# reuse kept hypotheses otherwise. STOP_TIME=3h bounds the invocation:
# each training gets what is left of it (fairseq's --stop-time), no step
# starts after it, and the same command continues (experiments/deadline.sh).
# Ctrl-C saves a checkpoint.
#
#   experiments/zero-shot/run.sh                 # everything, in order
#   STOP_TIME=3h experiments/zero-shot/run.sh    # in pieces of at most 3 h (and the step running then)
#   PARALLEL=2 experiments/zero-shot/run.sh      # twins side by side, one thread each
#   experiments/zero-shot/run.sh status          # state of every system
#   experiments/zero-shot/run.sh interim         # evaluate the best checkpoints so far
#                                                # of the systems in training (interim.sh)
#   experiments/zero-shot/run.sh summary         # the summary tables of what is evaluated so far
#   SMOKE=1 experiments/zero-shot/run.sh         # end to end in a few minutes
#
# Settings (environment), defaults:
#   WORK=runs/zero-shot-iwslt  LANGS="en it nl ro"  PAIRS=20000  MERGES=8000
#   PRESET=transformer-base  SET="d_model=128 ffn_dim=512 heads=4"
#   DROPOUT=0.2  LR=1e-3  WARMUP=4000  MAX_TOKENS=4096  LABEL_SMOOTHING=0.1
#   MAX_UPDATE=30000  PATIENCE=6  VALIDATE_EVERY=500  VALID_LINES=500
#   STOP_TIME= (none)  STOP_AT= (a clock time)  PARALLEL=1  THREADS=0 (all cores)  SEED=1
#   EVAL_LINES=0 (all)  BEAM=5  PIVOT_SYSTEM=post-tenc (the paper's #4)
#   LLR_DEV_LINES=300  LLR_TEST_LINES=200
#   INTERIM_LINES=500  INTERIM_TESTS="l10n tatoeba"  INTERIM_LLR=1 (run.sh interim)
#   T4_PRE, T4_POST: the Table 4 rows (default: the best by zero-shot BLEU on l10n dev)
#   ONLY="pre-senc post-senc" (restrict to these systems)
#   STOP_AFTER=data|rows1-4|seeds|rows5-8 (stop after that stage)
#   SHARED=../shared (the shared data and models)  STRATA= (a built binary)
#   PAPER=experiments/zero-shot/paper-iwslt.tsv (the paper's scores beside ours; from the repository root)
#   RESULTS=experiments/zero-shot/results (finished systems' results, kept in git and
#     restored into WORK on a fresh machine: results.sh; SMOKE=1: WORK/results)
# The whole script is one brace group, read to the end before it runs:
# bash reads a script as it goes, so editing run.sh during a piece of
# training would otherwise make the running copy continue with whatever
# bytes now sit at its old offset.
{
set -euo pipefail
cd "$(dirname "$0")/../.."

SMOKE=${SMOKE:-0}
if [ "$SMOKE" = 1 ]; then
	# Tiny everything: the point is that every stage runs, not the numbers.
	# Four encoder layers so that #5-#8 can drop the 4th layer's residual.
	: "${WORK:=runs/zero-shot-smoke}" "${PAIRS:=150}" "${MERGES:=150}"
	: "${SET=encoder_layers=4 decoder_layers=1 d_model=16 ffn_dim=32 heads=2}"
	: "${MAX_UPDATE:=2}" "${WARMUP:=1}" "${MAX_TOKENS:=600}" "${VALIDATE_EVERY:=1}" "${PATIENCE:=1}"
	: "${VALID_LINES:=6}" "${EVAL_LINES:=2}" "${BEAM:=1}" "${LLR_DEV_LINES:=4}" "${LLR_TEST_LINES:=2}"
	: "${BOOTSTRAP_SAMPLES:=50}" "${MAX_LEN_B:=3}"
fi
WORK=${WORK:-runs/zero-shot-iwslt}
LANGS=${LANGS:-en it nl ro}
PAIRS=${PAIRS:-20000}
MERGES=${MERGES:-8000}
PRESET=${PRESET:-transformer-base}
SET=${SET-d_model=128 ffn_dim=512 heads=4}
DROPOUT=${DROPOUT:-0.2}
LR=${LR:-1e-3}
WARMUP=${WARMUP:-4000}
MAX_TOKENS=${MAX_TOKENS:-4096}
LABEL_SMOOTHING=${LABEL_SMOOTHING:-0.1}
MAX_UPDATE=${MAX_UPDATE:-30000}
PATIENCE=${PATIENCE:-6}
VALIDATE_EVERY=${VALIDATE_EVERY:-500}
VALID_LINES=${VALID_LINES:-500}
STOP_TIME=${STOP_TIME:-}
PARALLEL=${PARALLEL:-1}
THREADS=${THREADS:-0}
SEED=${SEED:-1}
EVAL_LINES=${EVAL_LINES:-0}
BEAM=${BEAM:-5}
MAX_LEN_B=${MAX_LEN_B:-10}
BOOTSTRAP_SAMPLES=${BOOTSTRAP_SAMPLES:-1000}
PIVOT_SYSTEM=${PIVOT_SYSTEM:-post-tenc}
LLR_DEV_LINES=${LLR_DEV_LINES:-300}
LLR_TEST_LINES=${LLR_TEST_LINES:-200}
SHARED=${SHARED:-../shared}
# the paper's IWSLT scores, printed beside ours in the summary tables
PAPER=${PAPER:-experiments/zero-shot/paper-iwslt.tsv}
L10N=$SHARED/data/l10n
FLORES=$SHARED/data/flores200-devtest
TATOEBA=$SHARED/data/tatoeba
LID=$SHARED/models/lid.176.ftz

log() { printf '[zero-shot %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
failed() { # WHAT LOG
	log "$1 failed; the end of $2:"
	tail -n 5 "$2" >&2
	exit 1
}
# test_dir NAME: the directory of the test set NAME.
test_dir() {
	case $1 in
	l10n) echo "$L10N/test" ;;
	dev) echo "$L10N/dev" ;;
	tatoeba) echo "$TATOEBA" ;;
	flores) echo "$FLORES" ;;
	*) return 1 ;;
	esac
}
# eval_matrix MODEL TEST OUT LINES LOG [FLAG...]: strata eval-matrix on
# test set TEST with the recipe's search and language-ID settings, for the
# final evaluation and the interim one alike.
eval_matrix() {
	local model=$1 dir out=$3 lines=$4 errlog=$5
	dir=$(test_dir "$2")
	shift 5
	"$STRATA" eval-matrix --model "$model" --test "$dir" --langs "$LANGCSV" --max-lines "$lines" \
		--beam "$BEAM" --max-len-b "$MAX_LEN_B" --lid-model "$LID" --threads "$THREADS" "$@" \
		--output "$out" >/dev/null 2>>"$errlog"
}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
if [ "$SMOKE" = 1 ]; then RESULTS=${RESULTS:-$WORK/results}; else RESULTS=${RESULTS:-experiments/zero-shot/results}; fi
# shellcheck source=experiments/zero-shot/results.sh
. experiments/zero-shot/results.sh
# shellcheck source=experiments/deadline.sh
. experiments/deadline.sh
# shellcheck source=experiments/exitcode.sh
. experiments/exitcode.sh
# shellcheck source=experiments/json.sh
. experiments/json.sh
deadline_start
LANGCSV=$(echo $LANGS | tr ' ' ,)

# --- the systems, in Table 2's order ---------------------------------------
# name data(tags) norm residual(res|nores) params(affine|simple)
ROWS1_4=("pre-senc senc pre res affine" "post-senc senc post res affine"
	"pre-tenc tenc pre res affine" "post-tenc tenc post res affine")
ROWS5_8=("pre-senc-nores senc pre nores affine" "post-senc-nores senc post nores affine"
	"pre-tenc-nores tenc pre nores affine" "post-tenc-nores tenc post nores affine")
SWAP=("swap-senc senc swap-pre res affine" "swap-senc-nores senc swap-pre nores affine")
# Seeds 2 and 3 of rows #1 and #2, the headline contrast: the same recipe
# and cap; a name ending in -sN trains with seed N (seed_of).
SEEDS=("pre-senc-s2 senc pre res affine" "post-senc-s2 senc post res affine"
	"pre-senc-s3 senc pre res affine" "post-senc-s3 senc post res affine")
selected() { # name: is the system selected by ONLY?
	[ -z "${ONLY:-}" ] && return 0
	local o
	for o in $ONLY; do [ "$o" = "$1" ] && return 0; done
	return 1
}

# status prints one row per system: where its training stands (strata
# status reads each run's metrics.jsonl and train.log, gzipped or not).
status() {
	local s dir
	local -a runs=()
	for s in "${ROWS1_4[@]}" "${SEEDS[@]}" "${ROWS5_8[@]}" "${SWAP[@]}"; do runs+=("${s%% *}=$WORK/runs/${s%% *}"); done
	for dir in "$WORK"/runs/*-simple; do
		[ -d "$dir" ] && runs+=("$(basename "$dir")=$dir")
	done
	"$STRATA" status "${runs[@]}"
}
if [ "${1:-}" = status ]; then
	if [ -z "${STRATA:-}" ]; then
		STRATA=$WORK/strata-status
		mkdir -p "$WORK" && go build -o "$STRATA" ./cmd/strata
	fi
	status
	exit 0
fi

for d in "$L10N/train" "$L10N/dev" "$L10N/test" "$FLORES" "$TATOEBA"; do
	[ -d "$d" ] || { log "missing $d (the shared data next to the repository; SHARED=...)"; exit 2; }
done

# --- build ----------------------------------------------------------------
if [ -z "${STRATA:-}" ]; then
	STRATA=$WORK/strata
	# an interim evaluation or a summary runs beside trainings that
	# execute $WORK/strata (rebuilding it under them would fail)
	case ${1:-} in interim | summary) STRATA=$WORK/strata-$1 ;; esac
	log "building strata"
	go build -o "$STRATA" ./cmd/strata
fi
if [ "${1:-}" = interim ]; then
	# shellcheck source=experiments/zero-shot/interim.sh
	. experiments/zero-shot/interim.sh
	interim
	exit 0
fi
restore
if [ "${1:-}" = summary ]; then
	summarize
	exit 0
fi

# --- corpus ---------------------------------------------------------------
C=$WORK/corpus
mkdir -p "$C"
X_LANGS=()
for l in $LANGS; do [ "$l" = en ] || X_LANGS+=("$l"); done
for x in "${X_LANGS[@]}"; do
	out=$C/en-$x.tsv
	[ -s "$out" ] && continue
	total=$(zcat "$L10N/train/en-$x.tsv.gz" | wc -l)
	step=$((total / PAIRS > 0 ? total / PAIRS : 1))
	log "corpus: $PAIRS of $total en-$x pairs (every ${step}th)"
	(set +o pipefail; zcat "$L10N/train/en-$x.tsv.gz" | awk -v k="$step" 'NR % k == 0' | head -n "$PAIRS") >"$out.tmp"
	mv "$out.tmp" "$out"
done
for l in $LANGS; do
	[ -s "$C/valid.$l" ] || head -n "$VALID_LINES" "$L10N/dev/dev.$l" >"$C/valid.$l"
done
EACH=$(printf '%s, ' "${X_LANGS[@]}")
EACH="[${EACH%, }]"
LANGLIST=$(printf '%s, ' $LANGS)
LANGLIST="[${LANGLIST%, }]"
config() { # tags bpe-line
	cat <<-YAML
		root: .
		languages: $LANGLIST
		tags: $1
		bpe: {$2}
		max_len: 256
		splits:
		  train:
		    - {pair: "en-{x}", path: "en-{x}.tsv", directions: both, each: $EACH}
		  valid:
		    - {pair: "en-{x}", src: valid.en, tgt: "valid.{x}", directions: both, each: $EACH}
	YAML
}
# One BPE model for both tag schemes, so that they see the same subwords.
if [ ! -s "$WORK/data-senc/.done" ]; then
	config S-ENC-T-DEC "merges: $MERGES" >"$C/senc.yaml"
	log "data: S-ENC-T-DEC"
	"$STRATA" prepare --config "$C/senc.yaml" --output "$WORK/data-senc"
	echo ok >"$WORK/data-senc/.done"
fi
if [ ! -s "$WORK/data-tenc/.done" ]; then
	config T-ENC "model: $WORK/data-senc/bpe.json" >"$C/tenc.yaml"
	log "data: T-ENC"
	"$STRATA" prepare --config "$C/tenc.yaml" --output "$WORK/data-tenc"
	echo ok >"$WORK/data-tenc/.done"
fi
[ "${STOP_AFTER:-}" = data ] && { log "stopping after data (STOP_AFTER)"; exit 0; }

# --- training -------------------------------------------------------------
SETARGS=()
for kv in $SET; do SETARGS+=(--set "$kv"); done
# seed_of NAME: the seed a system trains with (N for NAME-sN, else SEED).
seed_of() {
	if [[ "$1" =~ -s([0-9]+)$ ]]; then echo "${BASH_REMATCH[1]}"; else echo "$SEED"; fi
}
# train NAME DATA NORM RES PARAMS THREADS: trains until patience or the cap
# and records why in RUN/.done; returns 1 when it stopped before (time
# limit, Ctrl-C: rerun to continue) and 2 when strata train failed.
train() {
	local name=$1 data=$WORK/data-$2 norm=$3 res=$4 params=$5 threads=$6 dir=$WORK/runs/$1
	[ -e "$dir/.done" ] && return 0
	mkdir -p "$dir"
	local extra=()
	[ "$res" = nores ] && extra+=(--set no_residual_layer=4)
	[ "$params" = simple ] && extra+=(--set norm_params=false)
	local left
	left=$(time_left) || { log "train $name: $(deadline_words) has passed; rerun the same command to continue"; return 1; }
	[ -n "$left" ] && extra+=(--stop-time "$left")
	log "train $name ($norm, $2, $res, $params): until $PATIENCE validations without improvement, at most $MAX_UPDATE updates; log $dir/train.log"
	# the commit beside the date: a run that spans pieces names the code of each
	echo "--- $(date -u +%FT%TZ) $* commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)" >>"$dir/train.log"
	local rc=0
	"$STRATA" train --data "$data" --save-dir "$dir" --preset "$PRESET" "${SETARGS[@]}" \
		--set encoder_norm="$norm" --set decoder_norm="$norm" --set dropout="$DROPOUT" "${extra[@]}" \
		--lr "$LR" --warmup-updates "$WARMUP" --adam-betas 0.9,0.98 --label-smoothing "$LABEL_SMOOTHING" \
		--max-tokens "$MAX_TOKENS" --max-update "$MAX_UPDATE" --patience "$PATIENCE" \
		--save-interval-updates "$VALIDATE_EVERY" --validate-interval-updates "$VALIDATE_EVERY" \
		--log-interval 100 --log-grad-norms --threads "$threads" --seed "$(seed_of "$name")" --resume >>"$dir/train.log" 2>&1 || rc=$?
	local why=""
	last_done_is_current "$dir" && why=$(sed -n 's/.*done: //p' "$dir/train.log" | tail -n 1)
	case "$rc:$why" in
	0:*"did not improve"*) echo "converged: $why" >"$dir/.done" ;;
	0:*"reached max_update"*) echo "cap: $why" >"$dir/.done" ;;
	0:* | 130:* | 143:*) # time limit, or interrupted (the checkpoint is saved)
		log "train $name: stopped before convergence${why:+ ($why)}; rerun the same command to continue (see $dir/train.log)"
		return 1
		;;
	*)
		log "train $name: strata train failed ($(exit_words "$rc")); the end of $dir/train.log:"
		tail -n 5 "$dir/train.log" >&2
		return 2
		;;
	esac
	log "train $name: $(cat "$dir/.done")"
}
# last_done_is_current: the last "done:" line of the log belongs to the
# invocation that just ended (after the last "---" marker).
last_done_is_current() {
	awk '/^--- /{d=0} /done: /{d=1} END{exit d ? 0 : 1}' "$1/train.log"
}
# train_group SYSTEM...: trains the selected systems in order, two side by
# side (one thread each) with PARALLEL=2; stops the script at the first
# system that did not finish (exit 0 when paused, 1 on a failure).
train_group() {
	local -a todo=()
	local s
	for s in "$@"; do
		selected "${s%% *}" && todo+=("$s")
	done
	local i=0
	while [ "$i" -lt "${#todo[@]}" ]; do
		if [ "$PARALLEL" = 2 ] && [ $((i + 1)) -lt "${#todo[@]}" ]; then
			local ra=0 rb=0
			# shellcheck disable=SC2086 # five words per system
			train ${todo[i]} 1 &
			local pa=$!
			# shellcheck disable=SC2086
			train ${todo[i + 1]} 1 &
			local pb=$!
			wait "$pa" || ra=$?
			wait "$pb" || rb=$?
			[ "$ra" = 2 ] || [ "$rb" = 2 ] && exit 1
			[ "$ra" = 0 ] && [ "$rb" = 0 ] || exit 0
			i=$((i + 2))
		else
			local rc=0
			# shellcheck disable=SC2086
			train ${todo[i]} "$THREADS" || rc=$?
			[ "$rc" = 2 ] && exit 1
			[ "$rc" = 0 ] || exit 0
			i=$((i + 1))
		fi
	done
}

# --- evaluation -----------------------------------------------------------
# matrix NAME TEST: one system on one test set; the pivot system also
# translates every zero-shot direction through English (row 0), except on
# the l10n dev set, which only chooses Table 4's rows.
matrix() {
	local name=$1 out=$WORK/eval/$1/$2 pivot=(--no-pivot)
	[ -s "$out/matrix.json" ] && return 0
	[ "$name" = "$PIVOT_SYSTEM" ] && [ "$2" != dev ] && pivot=()
	# a system restored from its archive has no checkpoint to evaluate
	[ "$2" = dev ] && [ ! -e "$WORK/runs/$name/checkpoint_best.bin" ] && [ ! -e "$WORK/runs/$name/checkpoint_last.bin" ] && return 0
	log "eval-matrix $name on $2"
	eval_matrix "$WORK/runs/$name" "$2" "$out" "$EVAL_LINES" "$WORK/eval/eval.log" "${pivot[@]}" ||
		failed "eval-matrix $name on $2" "$WORK/eval/eval.log"
}
evaluate() { # SYSTEM...
	mkdir -p "$WORK/eval"
	local s name t
	for s in "$@"; do
		name=${s%% *}
		selected "$name" && [ -e "$WORK/runs/$name/.done" ] || continue
		for t in l10n tatoeba flores dev; do
			stop_at_deadline
			matrix "$name" "$t"
		done
	done
}
llr() { # NAME LEGEND
	local out=$WORK/llr/$1
	[ -s "$out/llr.json" ] && return 0
	selected "$1" && [ -e "$WORK/runs/$1/.done" ] || return 0
	stop_at_deadline
	log "llr $1"
	"$STRATA" analyze llr --model "$WORK/runs/$1" --dev "$L10N/dev" --test "$L10N/test" --langs "$LANGCSV" \
		--max-dev-lines "$LLR_DEV_LINES" --max-test-lines "$LLR_TEST_LINES" --name "$2" \
		--threads "$THREADS" --output "$out" >/dev/null 2>>"$WORK/llr.log" || failed "llr $1" "$WORK/llr.log"
}
# zs_bleu NAME: zero-shot BLEU of a system on the l10n dev set (the
# zero_shot.bleu field of eval-matrix table --json).
zs_bleu() {
	"$STRATA" eval-matrix table --json "$1=$WORK/eval/$1/dev/matrix.json" |
		sed -n '/"zero_shot": {/,/}/s/^ *"bleu": *\([-0-9.eE+]*\).*/\1/p'
}
# best NORM SYSTEM...: the trained, evaluated system of that norm with the
# highest zero-shot BLEU on the l10n dev set. The choice never reads a
# test set, whose scores are then the answer for the rows chosen. (Dev
# lines 1-VALID_LINES of the supervised pairs chose each checkpoint; the
# zero-shot pairs of dev lines were never used.) A system evaluated on the
# test sets but not on dev, with no checkpoint left to evaluate, stops
# the choice: name the rows with T4_PRE and T4_POST.
best() {
	local norm=$1 s name b top="" topb=-1
	shift
	for s in "$@"; do
		name=${s%% *}
		[[ "$name" == "$norm"-* ]] && [ -s "$WORK/eval/$name/l10n/matrix.json" ] || continue
		if [ ! -s "$WORK/eval/$name/dev/matrix.json" ]; then
			log "Table 4: $name has no l10n dev evaluation and no checkpoint to make one; set T4_PRE and T4_POST"
			exit 1
		fi
		b=$(zs_bleu "$name")
		if awk -v a="$b" -v c="$topb" 'BEGIN{exit !(a > c)}'; then top=$name topb=$b; fi
	done
	echo "$top"
}

train_group "${ROWS1_4[@]}"
evaluate "${ROWS1_4[@]}"
llr pre-senc Pre
llr post-senc Post
llr pre-tenc PreTENC
llr post-tenc PostTENC
archive_all
[ "${STOP_AFTER:-}" = rows1-4 ] && { log "stopping after rows #1-#4 (STOP_AFTER)"; exit 0; }

# One seed at a time, both rows: a seed is evaluated and archived as soon as
# its two systems are trained, so that a lost machine loses at most the
# seed in training and each seed's contrast can be read on its own.
for n in 2 3; do
	group=()
	for s in "${SEEDS[@]}"; do [[ "${s%% *}" == *-s$n ]] && group+=("$s"); done
	train_group "${group[@]}"
	evaluate "${group[@]}"
	for s in "${group[@]}"; do
		name=${s%% *}
		case $name in pre-*) llr "$name" "Pre-${name##*-}" ;; *) llr "$name" "Post-${name##*-}" ;; esac
	done
	archive_all
done
[ "${STOP_AFTER:-}" = seeds ] && { log "stopping after seeds 2 and 3 of rows #1 and #2 (STOP_AFTER)"; exit 0; }

train_group "${ROWS5_8[@]}"
evaluate "${ROWS5_8[@]}"
archive_all
[ "${STOP_AFTER:-}" = rows5-8 ] && { log "stopping after rows #5-#8 (STOP_AFTER)"; exit 0; }

# Table 4: LayerNorm without gain and bias for the best row of each norm.
T4=()
T4_PRE=${T4_PRE:-$(best pre "${ROWS1_4[@]}" "${ROWS5_8[@]}")}
T4_POST=${T4_POST:-$(best post "${ROWS1_4[@]}" "${ROWS5_8[@]}")}
for base in $T4_PRE $T4_POST; do
	for s in "${ROWS1_4[@]}" "${ROWS5_8[@]}"; do
		# shellcheck disable=SC2086
		set -- $s
		[ "$1" = "$base" ] && T4+=("$1-simple $2 $3 $4 simple")
	done
done
[ -n "${ONLY:-}" ] && for s in "${T4[@]}"; do ONLY="$ONLY ${s%% *}"; done
train_group "${T4[@]}" "${SWAP[@]}"
evaluate "${T4[@]}" "${SWAP[@]}"

archive_all

# --- summaries ------------------------------------------------------------
summarize
S=$WORK/summary
log "done; tables in $S, per-direction tables in $WORK/eval/NAME/{l10n,tatoeba,flores}/matrix.md"
cat "$S/state.md" >&2
exit
}
