# Sourced by the study scripts (experiments/*/run.sh). STOP_TIME bounds a
# whole invocation of the script, not each training in it: a piece started
# with STOP_TIME=2h30m ends within about 2h30m however many trainings it
# reaches, because each training's --stop-time gets only what is left and
# no new training, decode or evaluation starts after the deadline. A step
# that started before the deadline runs to its end (its outputs are written
# whole or not at all, so the same command continues from there).
# STOP_AT=14:30 (any time `date -d` reads) sets the deadline as a clock
# time instead, for a script started later that must stop with the others;
# with both, the earlier counts.

# duration_s D: the whole seconds in a duration written as strata's
# --stop-time takes it (Go's syntax: 90s, 45m, 2h30m, 1.5h, 1ns).
duration_s() {
	awk -v d="$1" 'BEGIN {
		unit["h"] = 3600; unit["m"] = 60; unit["s"] = 1; unit["ms"] = 1e-3
		unit["us"] = 1e-6; unit["µs"] = 1e-6; unit["ns"] = 1e-9
		s = 0; if (d == "") exit 1
		while (match(d, /^[0-9]+(\.[0-9]+)?(h|m|s|ms|us|µs|ns)/)) {
			t = substr(d, 1, RLENGTH); d = substr(d, RLENGTH + 1)
			match(t, /^[0-9.]+/); s += substr(t, 1, RLENGTH) * unit[substr(t, RLENGTH + 1)]
		}
		if (d != "") exit 1
		printf "%d\n", s
	}'
}

# deadline_start: sets DEADLINE (epoch seconds) from STOP_TIME and
# STOP_AT, the earlier of the two; neither (or STOP_TIME 0) means no
# deadline.
deadline_start() {
	DEADLINE=
	local s at
	case ${STOP_TIME:-0} in
	0 | 0s) ;;
	*)
		s=$(duration_s "$STOP_TIME") || {
			echo "STOP_TIME=$STOP_TIME: expected a duration such as 90m or 2h30m" >&2
			exit 2
		}
		DEADLINE=$(($(date +%s) + s))
		;;
	esac
	[ -n "${STOP_AT:-}" ] || return 0
	at=$(date -d "$STOP_AT" +%s 2>/dev/null) || {
		echo "STOP_AT=$STOP_AT: expected a clock time such as 14:30 or 2026-12-05T14:30Z (GNU date -d)" >&2
		exit 2
	}
	if [ -z "$DEADLINE" ] || [ "$at" -lt "$DEADLINE" ]; then DEADLINE=$at; fi
}

# deadline_words: the setting that set the deadline, for messages.
deadline_words() {
	local w=()
	case ${STOP_TIME:-0} in 0 | 0s) ;; *) w+=("STOP_TIME=$STOP_TIME") ;; esac
	[ -z "${STOP_AT:-}" ] || w+=("STOP_AT=$STOP_AT")
	echo "${w[*]}"
}

# time_left: prints the time left before the deadline as a --stop-time
# value ("1234s"; nothing when there is no deadline) and fails when none is
# left.
time_left() {
	[ -n "${DEADLINE:-}" ] || return 0
	local left=$((DEADLINE - $(date +%s)))
	[ "$left" -gt 0 ] || return 1
	echo "${left}s"
}

# past_deadline: true when STOP_TIME's deadline leaves no time for a new step.
past_deadline() {
	[ -n "${DEADLINE:-}" ] && ! time_left >/dev/null
}

# stop_at_deadline: ends the script (status 0) before a new step when the
# deadline has passed; the same command continues.
stop_at_deadline() {
	past_deadline || return 0
	log "$(deadline_words) has passed; stopping before the next step (rerun the same command to continue)"
	exit 0
}
