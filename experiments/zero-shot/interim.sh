# Sourced by run.sh: `run.sh interim` evaluates the best checkpoint so far
# of every system still in training (or of the systems named in ONLY),
# without waiting for convergence. A system takes 10-20 hours here, spread
# over several invocations; this answers "where does the comparison stand
# now?" with the same eval-matrix and paired bootstrap the final tables
# use, on fewer lines (INTERIM_LINES=500 per direction) and on the test
# sets INTERIM_TESTS="l10n tatoeba" (FLORES is left to the final run).
#
# Each snapshot is a hard link of checkpoint_best.bin, so the trainer may
# replace its best meanwhile; it lives in WORK/interim/NAME-uUPDATE/ (the
# update read from the checkpoint's own header) and is evaluated once per
# test set and line count (NAME-uUPDATE/TEST-linesN/).
# WORK/interim/summary.md holds the tables of the newest snapshot of each
# system and every PostNorm / Swap-PreNorm snapshot against its PreNorm
# twin's (with a dated copy, summary-YYYYMMDDTHHMMZ.md, for the trend).
# The final evaluation (WORK/eval/) is never touched.

INTERIM_LINES=${INTERIM_LINES:-500}
INTERIM_TESTS=${INTERIM_TESTS:-l10n tatoeba}
# the LLR probes of every snapshot (Figure 2), with the recipe's line counts
INTERIM_LLR=${INTERIM_LLR:-1}
# how the logs and the summary name INTERIM_LINES (0: every line)
interim_lines() { [ "$INTERIM_LINES" = 0 ] && echo "all lines" || echo "$INTERIM_LINES lines per direction"; }

# snapshot NAME: prints the snapshot directory of NAME's current best
# checkpoint, creating it; nothing when there is no best checkpoint yet.
snapshot() {
	local name=$1 dir=$WORK/runs/$1 I=$WORK/interim
	[ -s "$dir/checkpoint_best.bin" ] || return 0
	mkdir -p "$I"
	local tmp=$I/.$name.bin
	rm -f "$tmp"
	ln "$dir/checkpoint_best.bin" "$tmp" 2>/dev/null || cp "$dir/checkpoint_best.bin" "$tmp"
	# the update is the first "update" of the checkpoint's JSON header
	local at
	at=$(head -c 65536 "$tmp" | grep -ao '"update":[0-9]*' | head -n 1 | cut -d: -f2)
	[ -n "$at" ] || { rm -f "$tmp"; log "interim: no update in $dir/checkpoint_best.bin's header"; return 1; }
	local snap=$I/$name-u$at
	if [ -s "$snap/checkpoint.bin" ]; then
		rm -f "$tmp"
	else
		mkdir -p "$snap"
		cp "$dir/run.json" "$snap/run.json"
		mv "$tmp" "$snap/checkpoint.bin"
	fi
	echo "$snap"
}

# interim_system NAME: snapshots NAME and evaluates the snapshot on each
# of INTERIM_TESTS; prints the snapshot directory.
interim_system() {
	local name=$1 snap t out
	snap=$(snapshot "$name") || return 1
	if [ -z "$snap" ]; then
		[ -d "$WORK/runs/$name" ] && log "interim: $name has no best checkpoint yet"
		return 0
	fi
	for t in $INTERIM_TESTS; do
		test_dir "$t" >/dev/null || { log "interim: unknown test set $t (l10n, tatoeba, flores)"; return 1; }
		out=$snap/$t-lines$INTERIM_LINES
		[ -s "$out/matrix.json" ] && continue
		log "interim: eval-matrix $(basename "$snap") on $t ($(interim_lines))"
		eval_matrix "$snap/checkpoint.bin" "$t" "$out" "$INTERIM_LINES" "$WORK/interim/eval.log" --no-pivot ||
			failed "interim eval-matrix $name on $t" "$WORK/interim/eval.log"
	done
	if [ "$INTERIM_LLR" = 1 ] && [ ! -s "$snap/llr/llr.json" ]; then
		log "interim: llr $(basename "$snap")"
		"$STRATA" analyze llr --model "$snap/checkpoint.bin" --dev "$L10N/dev" --test "$L10N/test" --langs "$LANGCSV" \
			--max-dev-lines "$LLR_DEV_LINES" --max-test-lines "$LLR_TEST_LINES" --name "$(basename "$snap")" \
			--threads "$THREADS" --output "$snap/llr" >/dev/null 2>>"$WORK/interim/llr.log" ||
			failed "interim llr $name" "$WORK/interim/llr.log"
	fi
	echo "$snap"
}

# interim: every system in training (or in ONLY), then the summary.
interim() {
	local s name snap t
	local -A at=()
	local -a names=()
	for s in "${ROWS1_4[@]}" "${ROWS5_8[@]}" "${SWAP[@]}" $(cd "$WORK/runs" 2>/dev/null && ls -d ./*-simple 2>/dev/null); do
		name=${s%% *}
		name=${name#./}
		if [ -n "${ONLY:-}" ]; then
			selected "$name" || continue
		else
			[ -e "$WORK/runs/$name/.done" ] && continue
		fi
		snap=$(interim_system "$name") || exit 1
		[ -n "$snap" ] || continue
		at[$name]=$snap
		names+=("$name")
	done
	[ "${#names[@]}" -gt 0 ] || { log "interim: no system has a best checkpoint to evaluate"; return 0; }
	interim_summary >"$WORK/interim/summary.md.tmp"
	# a dated copy keeps the trend from one interim evaluation to the next
	cp "$WORK/interim/summary.md.tmp" "$WORK/interim/summary-$(date -u +%Y%m%dT%H%MZ).md"
	mv "$WORK/interim/summary.md.tmp" "$WORK/interim/summary.md"
	log "interim: $WORK/interim/summary.md"
}

# interim_summary: the tables of the snapshots in at[] (names[] in order).
interim_summary() {
	local t name twin args
	echo "# Interim evaluation, $(date -u +%FT%TZ)"
	echo
	echo "Best checkpoints so far (NAME@UPDATE), $(interim_lines), beam $BEAM; not converged systems: read as where the comparison stands, not as results."
	for t in $INTERIM_TESTS; do
		args=()
		for name in "${names[@]}"; do
			args+=("$(label "$name")=${at[$name]}/$t-lines$INTERIM_LINES/matrix.json")
		done
		printf '\n## %s\n' "$t"
		# a twin table lists both systems: the table of all only when it
		# would show more
		[ "${#names[@]}" -gt 2 ] || [ -z "$(twins)" ] && { echo; "$STRATA" eval-matrix table --reported "$PAPER" "${args[@]}"; }
		for name in $(twins); do
			twin=pre-${name#*-}
			echo
			"$STRATA" eval-matrix table --reported "$PAPER" --baseline "$(label "$twin")" --bootstrap-samples "$BOOTSTRAP_SAMPLES" --lid-model "$LID" \
				"$(label "$twin")=${at[$twin]}/$t-lines$INTERIM_LINES/matrix.json" \
				"$(label "$name")=${at[$name]}/$t-lines$INTERIM_LINES/matrix.json"
		done
	done
	[ "$INTERIM_LLR" = 1 ] || return 0
	for name in $(twins); do
		twin=pre-${name#*-}
		# Figure 2 for the pair: PNGs and the layer tables
		local out=$WORK/interim/llr-$(label "$twin")-$(label "$name")
		"$STRATA" analyze llr-plot --output "$out" "$(label "$twin")=${at[$twin]}/llr/llr.json" \
			"$(label "$name")=${at[$name]}/llr/llr.json" >/dev/null 2>>"$WORK/interim/llr.log"
		printf '\n## LLR: %s and %s (figures in %s)\n\n' "$(label "$twin")" "$(label "$name")" "$out"
		cat "$out/llr.md"
	done
}
# twins: the PostNorm and Swap-PreNorm systems in at[] whose PreNorm twin
# is there too.
twins() {
	local name
	for name in "${names[@]}"; do
		case $name in post-* | swap-*) [ -n "${at[pre-${name#*-}]:-}" ] && echo "$name" ;; esac
	done
	return 0
}
# label NAME: NAME@UPDATE of its snapshot.
label() { echo "$1@${at[$1]##*-u}"; }
