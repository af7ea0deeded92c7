#!/usr/bin/env bash
# The MSC study at 36 layers (docs/results.md, "MSC at 36 layers, trained to
# a common budget"): the MSC paper's Tables 2 and 3, Figures 3 and 5, then
# Table 5 and the 72-layer rows, on l10n en→de with the shipped model's
# recipe, every system trained to the same budget B.
#
#   base6 trains first, with the shipped model's recipe, until dev BLEU stops
#   improving (patience), keeping every checkpoint (500 updates apart). Its
#   3-checkpoint averages are then decoded on the full dev set (beam 5):
#   B is the first update whose average is within 1 BLEU of the best, capped
#   so that the four 36-layer runs fit in BUDGET_HOURS at the rates that
#   `run.sh rates` measured. Every other system trains to exactly B, patience
#   off. Each system is scored with the average of its checkpoints at
#   B-1000, B-500 and B on the l10n test set (beam 5), tested against the
#   systems the paper compares it with (two-sided paired bootstrap), then
#   archived in experiments/msc/results/NAME (no weights).
#
# Resumable at every stage: trainings continue from checkpoint_last
# (--resume); decoding, scoring and plots skip when their outputs exist;
# archived systems are restored into a fresh WORK and neither trained nor
# decoded again. STOP_TIME=2h bounds the invocation: each training gets
# what is left of it, no step starts after it (experiments/deadline.sh),
# and the same command continues. The script is one brace group, so
# editing it while a piece runs does not change the running piece.
#
#   experiments/msc/run.sh                       # the systems of SYSTEMS, in order
#   THREADS=1 STOP_TIME=2h30m experiments/msc/run.sh   # one piece, one thread (beside another training)
#   PARALLEL=2 STOP_TIME=2h30m experiments/msc/run.sh  # two lanes of one thread, each taking the next free system
#   STOP_AT=14:30 experiments/msc/run.sh         # a second run.sh on the same WORK (e.g. on a core another
#                                                # study frees) takes the systems the first does not hold
#   experiments/msc/run.sh budget                # compute B once base6 has finished
#   experiments/msc/run.sh rank                  # rank the test pairs for Figure 3 once base6 has finished
#   experiments/msc/run.sh tables                # Tables 2 and 3, Figures 3 and 5 and the claims' verdicts from what is scored
#   experiments/msc/run.sh rates                 # 10-minute training rates of the deep systems
#   experiments/msc/run.sh status                # where every system stands
#   SMOKE=1 experiments/msc/run.sh               # end to end on a slice, in minutes
#
# Settings (environment), defaults:
#   WORK=runs/msc36  MERGES=8000  MAX_TOKENS=4096  LR=1e-3
#   WARMUP_SHALLOW=800 (6 layers)  WARMUP_DEEP=1600 (36, 72)
#   MICRO_36=4  MICRO_72=8 (pieces each batch of a 36- or 72-layer system runs in: memory only)
#   VALID_TOKENS_DEEP=2048 (validation batch of the 36- and 72-layer systems: memory only)
#   SAVE_TIME=20m (checkpoint_last.bin at least this often, besides the numbered saves)
#   VALID_EVERY=500  EVAL_BLEU=300  PATIENCE=10  MAX_EPOCH=60 (base6's stop)
#   B= (override the budget)  BUDGET_HOURS=40  THREADS=1  PARALLEL=1  BEAM=5  STOP_TIME=  STOP_AT= (a clock time)
#   DIFF_K=20 (base6 checkpoints that rank Figure 3's buckets)  FIG5_UPDATES=2000
#   SYSTEMS="base6 msc6 msc36 dlcl36 transparent36 msc36-s2 base6-s2" or "all"
#   (adds plain36, Table 5's msc36-add msc36-ffn msc36-noctxenc msc36-noctx,
#   and msc72 dlcl72 transparent72); a name ending in -sN trains with seed N.
#   They train in this order: msc36-s2, the longest run, before base6-s2, so
#   that the lane freed first takes it and the two lanes end closer together.
#   SET="key=value ..." (extra model overrides for every system)
#   SHARED=../shared  STRATA= (a built binary)
{
set -euo pipefail
cd "$(dirname "$0")/../.."

SMOKE=${SMOKE:-0}
if [ "$SMOKE" = 1 ]; then
	WORK=${WORK:-runs/msc-smoke}
	: "${MERGES:=300}" "${MAX_TOKENS:=600}" "${WARMUP_SHALLOW:=10}" "${WARMUP_DEEP:=20}" "${VALID_EVERY:=20}"
	: "${EVAL_BLEU:=20}" "${PATIENCE:=2}" "${MAX_EPOCH:=2}" "${BEAM:=2}" "${DIFF_K:=3}" "${FIG5_UPDATES:=40}"
	: "${SET:=d_model=32 ffn_dim=64 heads=2}" "${RATE_TIME:=10s}"
fi
WORK=${WORK:-runs/msc36}
MERGES=${MERGES:-8000}
MAX_TOKENS=${MAX_TOKENS:-4096}
LR=${LR:-1e-3}
WARMUP_SHALLOW=${WARMUP_SHALLOW:-800}
WARMUP_DEEP=${WARMUP_DEEP:-1600}
VALID_EVERY=${VALID_EVERY:-500}
EVAL_BLEU=${EVAL_BLEU:-300}
PATIENCE=${PATIENCE:-10}
MAX_EPOCH=${MAX_EPOCH:-60}
BUDGET_HOURS=${BUDGET_HOURS:-40}
MICRO_36=${MICRO_36:-4}
MICRO_72=${MICRO_72:-8}
VALID_TOKENS_DEEP=${VALID_TOKENS_DEEP:-2048}
SAVE_TIME=${SAVE_TIME:-20m}
THREADS=${THREADS:-1}
PARALLEL=${PARALLEL:-1}
BEAM=${BEAM:-5}
STOP_TIME=${STOP_TIME:-}
DIFF_K=${DIFF_K:-20}
FIG5_UPDATES=${FIG5_UPDATES:-2000}
RATE_TIME=${RATE_TIME:-10m}
SET=${SET:-}
SHARED=${SHARED:-../shared}
L10N=$SHARED/data/l10n
SYSTEMS=${SYSTEMS:-base6 msc6 msc36 dlcl36 transparent36 msc36-s2 base6-s2}
[ "$SYSTEMS" = all ] && SYSTEMS="base6 msc6 msc36 dlcl36 transparent36 msc36-s2 base6-s2 plain36
	msc36-add msc36-ffn msc36-noctxenc msc36-noctx msc72 dlcl72 transparent72"
# the 36-layer runs whose cost caps B (the design's 40 machine-hours)
DEEP36="msc36 dlcl36 transparent36 msc36-s2"

log() { printf '[msc %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
if [ "$SMOKE" = 1 ]; then RESULTS=${RESULTS:-$WORK/results}; else RESULTS=${RESULTS:-experiments/msc/results}; fi
# shellcheck source=experiments/msc/lib.sh
. experiments/msc/lib.sh
# shellcheck source=experiments/deadline.sh
. experiments/deadline.sh
# shellcheck source=experiments/smoke-corpus.sh
. experiments/smoke-corpus.sh
deadline_start

if [ "${1:-}" = status ]; then
	# a binary of its own: the study's may be the one training now
	if [ -z "${STRATA:-}" ]; then
		STRATA=$WORK/strata-status
		go build -o "$STRATA" ./cmd/strata
	fi
	status
	exit 0
fi

# --- build and data ---------------------------------------------------------
# one run.sh at a time builds, prepares and restores (a second one on this
# WORK waits for the first's setup; claims of ended processes go first)
clear_stale_claims
until claim setup; do
	sleep 5
	clear_stale_claims # the holder may have died (a failed build)
done
if [ -z "${STRATA:-}" ]; then
	STRATA=$WORK/strata
	log "building strata"
	# built beside and renamed into place: another run.sh on this WORK may
	# be running the old binary
	go build -o "$STRATA.new.$$" ./cmd/strata
	mv -f "$STRATA.new.$$" "$STRATA"
fi
DATA=$WORK/data
DEV_SRC=$L10N/dev/dev.en DEV_REF=$L10N/dev/dev.de
TEST_SRC=$L10N/test/test.en TEST_REF=$L10N/test/test.de
CONFIG=configs/l10n-en-de.yaml
[ "$SMOKE" = 1 ] && smoke_corpus 2000
if [ ! -e "$DATA/manifest.json" ]; then
	log "data: preparing $DATA (BPE $MERGES merges)"
	"$STRATA" prepare --config "$CONFIG" --out "$DATA" --merges "$MERGES"
fi
restore
release setup

case ${1:-} in
budget) compute_budget; exit 0 ;;
rank) rank_difficulty; exit 0 ;;
tables)
	# one writer at a time: a piece ending its run may be writing them now
	claim tables || { log "another run.sh on $WORK is writing the tables; try again when it is done"; exit 1; }
	contrasts
	figures
	tables
	release tables
	exit 0
	;;
rates) measure_rates; exit 0 ;;
esac

# --- training, evaluation, archive ------------------------------------------
# finish NAME: what follows a system's training: B after base6, the
# system's test score and archive, Figure 3's ranking after base6.
finish() {
	[ "$1" = base6 ] && compute_budget
	stop_at_deadline
	evaluate "$1"
	archive "$1"
	[ "$1" = base6 ] && rank_difficulty
	return 0
}

# lane THREADS NAME...: trains and finishes the systems in order, each
# under its claim, skipping those another lane (or another run.sh on this
# WORK) holds; 0 when none is left, 1 when one stopped before its end (rerun
# to continue), 2 when strata train failed. Lanes take the next free system
# as soon as they are done, so a short system never leaves a core idle
# beside a long one.
lane() {
	local threads=$1 name rc
	shift
	for name in "$@"; do
		claim "$name" || continue
		rc=0
		train "$name" "$threads" || rc=$?
		[ "$rc" = 0 ] && finish "$name"
		release "$name"
		case $rc in
		0) ;;
		2) return 2 ;;
		*) log "stopping at $name (rerun the same command to continue)"; return 1 ;;
		esac
	done
}

# base6 decides B, so it trains alone, before the others; then PARALLEL
# lanes of one thread each (one lane of THREADS threads when PARALLEL=1)
read -ra todo <<<"$(echo $SYSTEMS)"
rc=0
[[ " ${todo[*]} " == *" base6 "* ]] && { lane "$THREADS" base6 || rc=$?; }
if [ "$rc" = 0 ] && [ "$PARALLEL" -gt 1 ]; then
	pids=()
	for ((l = 0; l < PARALLEL; l++)); do
		lane 1 "${todo[@]}" &
		pids+=($!)
	done
	for p in "${pids[@]}"; do
		r=0
		wait "$p" || r=$?
		[ "$r" = 2 ] && rc=2
	done
elif [ "$rc" = 0 ]; then
	lane "$THREADS" "${todo[@]}" || rc=$?
fi
[ "$rc" = 2 ] && exit 1
# the tables from what is scored so far, by one run.sh at a time
stop_at_deadline
claim tables || exit 0
contrasts
stop_at_deadline
figures
tables
release tables
log "tables in $WORK/scores/tables.md (and $RESULTS/tables.md); state: experiments/msc/run.sh status"
exit 0
}
