#!/usr/bin/env bash
# Both studies on a machine of two cores, one training per core, in the
# order the studies' designs fix (docs/results.md): the MSC study's
# systems of Tables 2 and 3 on one core while the zero-shot study's seeds
# hold the other, which then joins the MSC study; after those, the
# zero-shot study's remaining rows beside the MSC study's Table 5 and
# 72-layer rows, and the freed core joins whatever is left. A lane goes on
# to its next stage as soon as the stage has nothing left for it, so no
# core waits for the other. The two MSC run.sh on one work directory
# never train the same system (experiments/msc/run.sh claims each).
#
# Resumable like every study script: STOP_TIME (or STOP_AT, a clock time)
# bounds the whole piece; the same command continues.
#
#   STOP_TIME=2h30m experiments/schedule.sh >>schedule.log 2>&1
#
# Settings (environment), defaults:
#   MSC_WORK=runs/msc36  ZS_WORK=runs/zero-shot-iwslt  STOP_TIME=  STOP_AT=
#   MSC_RUN=experiments/msc/run.sh  ZS_RUN=experiments/zero-shot/run.sh
{
set -euo pipefail
cd "$(dirname "$0")/.."
MSC_WORK=${MSC_WORK:-runs/msc36}
ZS_WORK=${ZS_WORK:-runs/zero-shot-iwslt}
MSC_RUN=${MSC_RUN:-experiments/msc/run.sh}
ZS_RUN=${ZS_RUN:-experiments/zero-shot/run.sh}
log() { printf '[schedule %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
# shellcheck source=experiments/deadline.sh
. experiments/deadline.sh
deadline_start
# one deadline for every stage, however late it starts
if [ -n "$DEADLINE" ]; then export STOP_AT=@$DEADLINE; fi
unset STOP_TIME

msc() { WORK=$MSC_WORK THREADS=1 PARALLEL=1 "$MSC_RUN"; }
msc_all() { SYSTEMS=all WORK=$MSC_WORK THREADS=1 PARALLEL=1 "$MSC_RUN"; }
zs() { WORK=$ZS_WORK THREADS=1 PARALLEL=1 "$ZS_RUN"; }
zs_seeds() { STOP_AFTER=seeds WORK=$ZS_WORK THREADS=1 PARALLEL=1 "$ZS_RUN"; }

# stage LANE WHAT COMMAND: runs a lane's next stage unless the deadline has
# passed (the stage before stopped at it rather than for being done); a
# failed stage is logged and the lane goes on (a study that failed fails
# again at once, and the other lane's work is not held up).
stage() {
	if past_deadline; then
		log "lane $1: $(deadline_words) has passed; not starting $2"
		return 1
	fi
	log "lane $1: $2"
	"$3" || log "lane $1: $2 ended with status $?"
}

lane_a() {
	stage a "MSC, Tables 2 and 3" msc &&
		stage a "MSC, every system (Table 5, 72 layers)" msc_all
}
lane_b() {
	stage b "zero-shot, seeds 2 and 3" zs_seeds &&
		stage b "MSC, Tables 2 and 3 (beside lane a)" msc &&
		stage b "zero-shot, the remaining rows" zs &&
		stage b "MSC, every system (beside lane a)" msc_all
}

lane_a &
a=$!
lane_b &
b=$!
wait "$a" || true
wait "$b" || true
log "both lanes have stopped; the same command continues"
exit 0
}
