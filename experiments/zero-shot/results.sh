# Sourced by run.sh: a finished system's results outlive the machine.
#
# A system costs 8-13 hours of training here, spread over several
# invocations, and WORK (runs/, ignored by git like every checkpoint) can
# be lost with a machine. Once a system is trained and evaluated,
# `archive` copies what the summaries are made of into RESULTS (tracked by
# git): the reason training stopped, a thinned metrics.jsonl (every valid
# record, every 100th train record, numbers to float32's 7 digits) and the
# train log, the eval-matrix outputs with the hypotheses they scored (the
# paired bootstrap needs them), and the LLR probes. Each archived system
# stays within 1.5 MB (a test checks it), so the archive leaves out what
# the summaries do not read: figures (the summary draws its own),
# hypotheses no direction scores (the first leg of a pivot where the test
# set has no English side), and the pivot system's pivot translations,
# whose test against the direct ones (`eval-matrix table --against-pivot`)
# is kept instead as eval/TEST/against-pivot.md. Hypotheses, the train log
# and any other text file over 100 KB are kept gzipped in place (FILE.gz),
# which strata reads as it reads FILE (strata status, eval-matrix table,
# analyze). `restore` puts them back into a WORK that lacks them, so on a
# fresh machine the same command neither trains nor evaluates a finished
# system again, and the summaries, the significance tests and Table 4's
# choice of rows come out as before. The checkpoints themselves are not
# kept (15-46 MB each); re-evaluating a restored system means training it
# again.

# pack DIR: gzips DIR's hypotheses, train log and other text files over
# 100 KB in place (FILE becomes FILE.gz; -n keeps names and times out, so
# archiving the same files twice gives the same bytes).
pack() {
	find "$1" -type f ! -name '*.gz' ! -name '*.png' \( -path '*/hyp/*.txt' -o -name train.log -o -size +100k \) -exec gzip -9n {} +
}

# scored DIR: the hypothesis files (relative to DIR/hyp) that DIR's
# matrix.json scores.
scored() {
	grep -o '"hyp": *"[^"]*"' "$1/matrix.json" | sed 's/.*"\([^"]*\)"$/\1/'
}

# slim NAME TEST DIR: leaves out of the archived evaluation DIR what the
# summaries do not read (the header says what and why).
slim() {
	local name=$1 t=$2 dir=$3 f keep
	if [ -n "$(find "$dir/hyp" -path '*/pivot/*' -print -quit)" ]; then
		pivot_table "$t" "$name" >"$dir/against-pivot.md"
		find "$dir/hyp" -depth -type d -name pivot -exec rm -rf {} +
	fi
	keep=$(scored "$dir")
	find "$dir/hyp" -type f -name '*.txt' | while read -r f; do
		grep -qxF "${f#"$dir/hyp/"}" <<<"$keep" || rm -f "$f"
	done
	find "$dir" -name '*.png' -delete
}

# pivot_table TEST NAME: NAME's direct zero-shot translation on TEST
# against its pivoting through the hub, by paired bootstrap; from the
# pivot translations in WORK, or, for a restored system, the table its
# archive kept.
pivot_table() {
	local dir=$WORK/eval/$2/$1
	if [ -n "$(find "$dir/hyp" -path '*/pivot/*' -print -quit 2>/dev/null)" ]; then
		"$STRATA" eval-matrix table --against-pivot --bootstrap-samples "$BOOTSTRAP_SAMPLES" --lid-model "$LID" \
			"$2=$dir/matrix.json"
	elif [ -s "$dir/against-pivot.md" ]; then
		# a table archived before eval-matrix named its test used
		# sacreBLEU's p-value, and the pivot translations it came from
		# were not kept: say so rather than let it pass as two-sided
		grep -q 'two-sided\|sacreBLEU' "$dir/against-pivot.md" ||
			printf '%s\n\n' "Archived table: its p-values are sacreBLEU's paired_bs p-value (in effect one-sided), not the two-sided test; the pivot translations were not kept, so the two-sided test cannot be run on them."
		cat "$dir/against-pivot.md"
	else
		echo "pivot_table: $dir has neither pivot translations nor against-pivot.md" >&2
		return 1
	fi
}

# unpack DIR: the reverse, so that a restored WORK holds what strata wrote.
unpack() {
	find "$1" -type f -name '*.gz' -exec gzip -d {} +
}

# archived NAME: NAME's results are complete in RESULTS.
archived() { [ -e "$RESULTS/$1/.archived" ]; }

# archive NAME: copies a trained and fully evaluated system into RESULTS
# (once; nothing when it is not finished yet).
archive() {
	local name=$1 run=$WORK/runs/$1 dst=$RESULTS/$1 t
	if archived "$name"; then
		# a dev evaluation made after archiving (Table 4's choice)
		if [ -s "$WORK/eval/$name/dev/matrix.json" ] && [ ! -e "$dst/eval/dev" ]; then
			cp -R "$WORK/eval/$name/dev" "$dst/eval/dev"
			pack "$dst/eval/dev"
			log "archived $name's dev evaluation in $dst/eval/dev (add it to git)"
		fi
		return 0
	fi
	[ -e "$run/.done" ] || return 0
	for t in l10n tatoeba flores; do [ -s "$WORK/eval/$name/$t/matrix.json" ] || return 0; done
	rm -rf "$dst"
	mkdir -p "$dst/run" "$dst/eval"
	cp "$run/.done" "$run/run.json" "$run/train.log" "$dst/run/"
	awk '!/"type":"train"/ || /"update":[0-9]*00[,}]/' "$run/metrics.jsonl" | float32_digits >"$dst/run/metrics.jsonl"
	for t in l10n tatoeba flores dev; do
		[ -d "$WORK/eval/$name/$t" ] || continue
		cp -R "$WORK/eval/$name/$t" "$dst/eval/$t"
		slim "$name" "$t" "$dst/eval/$t"
	done
	if [ -s "$WORK/llr/$name/llr.json" ]; then
		cp -R "$WORK/llr/$name" "$dst/llr"
		find "$dst/llr" -name '*.png' -delete
	fi
	pack "$dst"
	date -u +%FT%TZ >"$dst/.archived"
	log "archived $name's results in $dst (add them to git)"
}

# archive_all archives every selected system that is finished (called
# after each stage's evaluation and LLR probes).
archive_all() {
	local s
	for s in "${ROWS1_4[@]}" "${SEEDS[@]}" "${ROWS5_8[@]}" "${SWAP[@]}"; do
		selected "${s%% *}" && archive "${s%% *}"
	done
	for s in "$WORK"/runs/*-simple; do
		[ -d "$s" ] && selected "$(basename "$s")" && archive "$(basename "$s")"
	done
	return 0
}

# restore: puts every archived system's results back where WORK lacks
# them.
restore() {
	local dst name t
	for dst in "$RESULTS"/*/; do
		name=$(basename "$dst")
		archived "$name" || continue
		local run=$WORK/runs/$name did=""
		if [ ! -e "$run/.done" ]; then
			mkdir -p "$run"
			cp "$dst/run/.done" "$dst/run/run.json" "$dst"/run/train.log* "$dst"/run/metrics.jsonl* "$run/"
			unpack "$run"
			did=1
		fi
		for t in l10n tatoeba flores dev; do
			[ -s "$WORK/eval/$name/$t/matrix.json" ] && continue
			[ -d "$dst/eval/$t" ] || continue
			mkdir -p "$WORK/eval/$name"
			rm -rf "$WORK/eval/$name/$t"
			cp -R "$dst/eval/$t" "$WORK/eval/$name/$t"
			unpack "$WORK/eval/$name/$t"
			did=1
		done
		if [ -d "$dst/llr" ] && [ ! -s "$WORK/llr/$name/llr.json" ]; then
			mkdir -p "$WORK/llr"
			rm -rf "$WORK/llr/$name"
			cp -R "$dst/llr" "$WORK/llr/$name"
			unpack "$WORK/llr/$name"
			did=1
		fi
		[ -n "$did" ] && log "restored $name's results from $dst (trained and evaluated; no checkpoint)"
	done
	return 0
}

# effects NAME: the systems NAME differs from in one setting other than
# the norm, as "setting baseline" lines: the paper's claims that T-ENC
# and removing the 4th encoder layer's residual help zero-shot
# translation, and Table 4's LayerNorm without parameters, are contrasts
# between such rows (the norm's are the twins of significance-*.md).
effects() {
	case $1 in *-tenc*) echo "T-ENC ${1/-tenc/-senc}" ;; esac
	case $1 in *-nores*) echo "w/o-Res. ${1/-nores/}" ;; esac
	case $1 in *-simple) echo "LayerNorm-simple ${1%-simple}" ;; esac
	return 0
}

# contrast TEST BASE NAME: NAME against BASE on TEST, the paired bootstrap
# per direction and of the averages (BLEU and off-target rate).
contrast() {
	"$STRATA" eval-matrix table --baseline "$2" --bootstrap-samples "$BOOTSTRAP_SAMPLES" --lid-model "$LID" \
		"$2=$WORK/eval/$2/$1/matrix.json" "$3=$WORK/eval/$3/$1/matrix.json"
}

# seeds_table TEST: rows #1 and #2 over their three seeds on TEST
# (eval-matrix seeds: mean ± sd, and each averaged contrast per seed with
# the verdict of the rule fixed before the runs). seeds_ready TEST says
# whether all six systems are evaluated on TEST.
seeds_ready() {
	local s
	for s in "" -s2 -s3; do
		[ -s "$WORK/eval/pre-senc$s/$1/matrix.json" ] && [ -s "$WORK/eval/post-senc$s/$1/matrix.json" ] || return 1
	done
}
seeds_table() {
	local -a args=()
	local s
	for s in "" -s2 -s3; do
		args+=(--seed "$WORK/eval/pre-senc$s/$1/matrix.json,$WORK/eval/post-senc$s/$1/matrix.json")
	done
	"$STRATA" eval-matrix seeds --baseline-name pre-senc --system-name post-senc --min-significant 2 \
		--bootstrap-samples "$BOOTSTRAP_SAMPLES" --lid-model "$LID" "${args[@]}"
}

# summarize writes WORK/summary/: the tables of every evaluated system
# beside the paper's, every PostNorm (and Swap-PreNorm) system against its
# PreNorm twin by paired bootstrap, each seed of rows #1 and #2 included
# (significance-*.md), every row against
# the rows it differs from in one other setting (effects-*.md), the pivot
# system's direct zero-shot translation against its pivoting (pivot-*.md),
# rows #1 and #2 over their three seeds (seeds-*.md), the LLR figures, and
# the state table.
# It runs at the end of the recipe and on its own (`run.sh summary`) with
# whatever is evaluated so far.
summarize() {
	local S=$WORK/summary t s name twin
	mkdir -p "$S"
	local -a all=()
	for s in "${ROWS1_4[@]}" "${ROWS5_8[@]}"; do all+=("${s%% *}"); done
	for s in "$WORK"/eval/*-simple; do [ -d "$s" ] && all+=("$(basename "$s")"); done
	for s in "${SWAP[@]}"; do all+=("${s%% *}"); done
	# the seeds of rows #1 and #2 are tested against their twins too (each
	# seed's per-direction counts), though Table 2 shows seed 1
	local -a seeded=("${all[@]}")
	for s in "${SEEDS[@]}"; do seeded+=("${s%% *}"); done
	for t in l10n tatoeba flores; do
		local -a args=()
		for name in "${all[@]}"; do
			[ -s "$WORK/eval/$name/$t/matrix.json" ] && args+=("$name=$WORK/eval/$name/$t/matrix.json")
		done
		[ "${#args[@]}" -gt 0 ] || continue
		"$STRATA" eval-matrix table --reported "$PAPER" --lid-model "$LID" "${args[@]}" >"$S/table-$t.md"
		: >"$S/significance-$t.md"
		for name in "${seeded[@]}"; do
			case $name in post-* | swap-*) twin=pre-${name#*-} ;; *) continue ;; esac
			[ -s "$WORK/eval/$name/$t/matrix.json" ] && [ -s "$WORK/eval/$twin/$t/matrix.json" ] || continue
			contrast "$t" "$twin" "$name" >>"$S/significance-$t.md"
		done
		: >"$S/effects-$t.md"
		for name in "${all[@]}"; do
			[ -s "$WORK/eval/$name/$t/matrix.json" ] || continue
			while read -r factor base; do
				[ -s "$WORK/eval/$base/$t/matrix.json" ] || continue
				printf '## %s: %s against %s\n\n' "$factor" "$name" "$base" >>"$S/effects-$t.md"
				contrast "$t" "$base" "$name" >>"$S/effects-$t.md"
				echo >>"$S/effects-$t.md"
			done < <(effects "$name")
		done
		local seeds=
		if seeds_ready "$t"; then
			seeds_table "$t" >"$S/seeds-$t.md.tmp"
			mv "$S/seeds-$t.md.tmp" "$S/seeds-$t.md"
			seeds=", $S/seeds-$t.md"
		fi
		local pivot=
		if [ -s "$WORK/eval/$PIVOT_SYSTEM/$t/matrix.json" ]; then
			pivot_table "$t" "$PIVOT_SYSTEM" >"$S/pivot-$t.md"
			pivot=", $S/pivot-$t.md"
		fi
		log "summary ($t): $S/table-$t.md, $S/significance-$t.md, $S/effects-$t.md$seeds$pivot"
	done
	local pair a b
	for pair in "Pre=pre-senc Post=post-senc llr-senc" "Pre=pre-tenc Post=post-tenc llr-tenc"; do
		# shellcheck disable=SC2086
		set -- $pair
		a=$WORK/llr/${1#*=}/llr.json b=$WORK/llr/${2#*=}/llr.json
		[ -s "$a" ] && [ -s "$b" ] || continue
		"$STRATA" analyze llr-plot --output "$S/$3" "${1%%=*}=$a" "${2%%=*}=$b" >/dev/null
	done
	status >"$S/state.md"
}
