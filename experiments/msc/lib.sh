# Sourced by experiments/msc/run.sh: the stages of the MSC study. Every
# function reads the settings run.sh defines (WORK, STRATA, DATA, ...).

# shellcheck source=experiments/json.sh
. experiments/json.sh
# shellcheck source=experiments/exitcode.sh
. experiments/exitcode.sh

# spec NAME: "preset seed warm-up overrides" of a system (overrides comma
# separated; "-" for none). A name ending in -sN trains with seed N.
spec() {
	local n=$1 seed=1
	if [[ "$n" =~ ^(.*)-s([0-9]+)$ ]]; then n=${BASH_REMATCH[1]} seed=${BASH_REMATCH[2]}; fi
	case $n in
	base6) echo "msc-small $seed $WARMUP_SHALLOW encoder_norm=pre,decoder_norm=pre,dropout=0.1" ;;
	msc6) echo "msc-6 $seed $WARMUP_SHALLOW -" ;;
	msc36) echo "msc-36 $seed $WARMUP_DEEP -" ;;
	dlcl36) echo "dlcl-pre-36 $seed $WARMUP_DEEP -" ;;
	transparent36) echo "transparent-36 $seed $WARMUP_DEEP -" ;;
	plain36) echo "deep-pre-36 $seed $WARMUP_DEEP -" ;;
	msc36-add) echo "msc-36 $seed $WARMUP_DEEP deep.fusion=add" ;;
	msc36-ffn) echo "msc-36 $seed $WARMUP_DEEP deep.context=ffn" ;;
	msc36-noctxenc) echo "msc-36 $seed $WARMUP_DEEP deep.context_enc_attn=false" ;;
	msc36-noctx) echo "msc-36 $seed $WARMUP_DEEP deep.context=none" ;;
	msc72) echo "msc-72 $seed $WARMUP_DEEP -" ;;
	dlcl72) echo "dlcl-pre-72 $seed $WARMUP_DEEP -" ;;
	transparent72) echo "transparent-72 $seed $WARMUP_DEEP -" ;;
	*) return 1 ;;
	esac
}

# budget: prints B when it is known (B in the environment, or computed).
budget() {
	if [ -n "${B:-}" ]; then echo "$B"; return 0; fi
	[ -s "$WORK/budget/B" ] || return 1
	cat "$WORK/budget/B"
}

# train_args NAME THREADS: the strata train arguments of a system. base6
# (seed 1) trains until dev BLEU stops improving and keeps every
# checkpoint; every other system trains to exactly B with patience off.
train_args() {
	local name=$1 threads=$2 preset seed warmup sets kv b
	read -r preset seed warmup sets <<<"$(spec "$name")"
	ARGS=(--preset "$preset")
	[ "$sets" = - ] || for kv in ${sets//,/ }; do ARGS+=(--set "$kv"); done
	for kv in $SET; do ARGS+=(--set "$kv"); done
	[ "$name" = msc72 ] && ARGS+=(--l2 encoder=1e-5)
	# One 4,096-token batch of a 36-layer encoder went past the machine's
	# 23 GiB: deep systems run each batch in pieces (the same update, the
	# same dropout masks; strata train --micro-batches), small enough for
	# two trainings side by side.
	ARGS+=(--max-tokens "$MAX_TOKENS")
	case $name in
	*72*) ARGS+=(--micro-batches "$MICRO_72") ;;
	*36*) ARGS+=(--micro-batches "$MICRO_36") ;;
	esac
	# validation holds every activation of a batch: 8,192 tokens (the
	# default) through 36 layers are 3.5 GB, through 72 twice that, too
	# much for two deep trainings side by side; smaller batches give the
	# same validation loss but for float summation order
	case $name in *36* | *72*) ARGS+=(--valid-max-tokens "$VALID_TOKENS_DEEP") ;; esac
	ARGS+=(--lr "$LR" --warmup-updates "$warmup")
	if [ "$name" = base6 ]; then
		ARGS+=(--max-epoch "$MAX_EPOCH" --validate-interval-updates "$VALID_EVERY"
			--save-interval-updates "$VALID_EVERY" --log-interval 100 --eval-bleu "$EVAL_BLEU"
			--best-checkpoint-metric bleu --patience "$PATIENCE" --keep-last 1000)
	else
		b=$(budget) || return 1
		ARGS+=(--max-update "$b" --validate-interval-updates "$VALID_EVERY"
			--save-interval-updates "$VALID_EVERY" --log-interval 100 --keep-last 3)
	fi
	# a crash or the OOM killer between numbered saves (500 updates: 1.5 h
	# of a 36-layer system) then costs at most SAVE_TIME
	ARGS+=(--log-grad-norms --save-interval-time "$SAVE_TIME")
	local left
	left=$(time_left) || return 3
	[ -n "$left" ] && ARGS+=(--stop-time "$left")
	ARGS+=(--threads "$threads" --seed "$seed" --resume)
}

# train NAME THREADS: trains until the system's stop and records why in
# RUN/.done; returns 1 when it stopped before (time limit, Ctrl-C, or B not
# known yet: rerun to continue) and 2 when strata train failed.
train() {
	local name=$1 dir=$WORK/runs/$1 rc=0 why=""
	[ -e "$dir/.done" ] && return 0
	train_args "$name" "$2" || rc=$?
	case $rc in
	0) ;;
	3) log "train $name: $(deadline_words) has passed; rerun the same command to continue"; return 1 ;;
	*) log "train $name: waits for the budget B (base6 has not finished; then: run.sh budget)"; return 1 ;;
	esac
	mkdir -p "$dir"
	log "train $name: ${ARGS[*]}; log $dir/train.log"
	# the commit beside the date: a run that spans pieces names the code of each
	echo "--- $(date -u +%FT%TZ) $name commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)" >>"$dir/train.log"
	"$STRATA" train --data "$DATA" --save-dir "$dir" "${ARGS[@]}" >>"$dir/train.log" 2>&1 || rc=$?
	awk '/^--- /{d=0} /done: /{d=1} END{exit d ? 0 : 1}' "$dir/train.log" &&
		why=$(sed -n 's/.*done: //p' "$dir/train.log" | tail -n 1)
	case "$rc:$why" in
	0:*"did not improve"*) echo "converged: $why" >"$dir/.done" ;;
	0:*"max_epoch"*) echo "cap: $why" >"$dir/.done" ;;
	0:*"reached max_update"*) echo "budget: $why" >"$dir/.done" ;;
	0:* | 130:* | 143:*)
		log "train $name: stopped before its end${why:+ ($why)}; rerun the same command to continue"
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

# claim NAME: takes NAME (a system, or "tables") for this process, so that
# two lanes, or two run.sh on one WORK, never work on it at once; fails
# while another process holds it. The claim is a directory renamed into
# place whole (atomic), holding its owner's pid and boot id.
claim() {
	local d=$WORK/claims/$1 tmp
	mkdir -p "$WORK/claims"
	tmp=$(mktemp -d "$WORK/claims/.new.XXXXXX")
	echo "$BASHPID $(boot_id)" >"$tmp/owner"
	mv -T "$tmp" "$d" 2>/dev/null && return 0
	rm -rf "$tmp"
	return 1
}

# release NAME: gives NAME's claim back.
release() { rm -rf "${WORK:?}/claims/$1"; }

# boot_id: this boot's identity (a pid of an earlier boot names another
# process); "unknown" where the system does not say.
boot_id() { cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo unknown; }

# clear_stale_claims: removes the claims of processes that have ended: an
# earlier piece stopped, killed or rebooted away. A half-made claim with no
# owner yet is left for a minute: its maker may be writing it now.
clear_stale_claims() {
	local d pid boot
	for d in "$WORK/claims"/* "$WORK/claims"/.new.*; do
		[ -d "$d" ] || continue
		if read -r pid boot 2>/dev/null <"$d/owner"; then
			[ "$boot" = "$(boot_id)" ] && kill -0 "$pid" 2>/dev/null && continue
		elif [ -z "$(find "$d" -maxdepth 0 -mmin +1)" ]; then
			continue
		fi
		rm -rf "$d"
	done
}

# ckpt RUN U: the numbered checkpoint of RUN at update U.
ckpt() { echo "$1/checkpoint_$2.bin"; }

# avg3 RUN U OUT: the average of RUN's checkpoints at U-1000, U-500 and U
# (VALID_EVERY apart), the study's checkpoint rule.
avg3() {
	local run=$1 u=$2 out=$3 step=$VALID_EVERY
	[ -s "$out" ] && return 0
	"$STRATA" average --output "$out.tmp" "$(ckpt "$run" $((u - 2 * step)))" "$(ckpt "$run" $((u - step)))" "$(ckpt "$run" "$u")" >/dev/null
	mv "$out.tmp" "$out"
}

# bleu HYP REF: the corpus BLEU of HYP.
bleu() { "$STRATA" eval -i "$1" --ref "$2" -m bleu --json | json_num score; }

# translate MODEL SRC OUT: beam search into OUT, written only when complete.
translate() {
	[ -s "$3" ] && return 0
	"$STRATA" translate -m "$1" --data "$DATA" -i "$2" -o "$3.tmp" --beam "$BEAM" --threads "$THREADS" 2>>"$WORK/translate.log"
	[ "$(wc -l <"$3.tmp")" -eq "$(wc -l <"$2")" ] || { log "translate $1: line count differs from $2"; exit 4; }
	mv "$3.tmp" "$3"
}

# compute_budget: B from base6's finished run (the design's rule), capped by
# the measured rates of the 36-layer systems when they are known.
compute_budget() {
	local run=$WORK/runs/base6 dir=$WORK/budget u first best=-1 b capped
	[ -s "$dir/B" ] && return 0
	[ -e "$run/.done" ] || { log "budget: base6 has not finished"; return 0; }
	mkdir -p "$dir"
	first=$((3 * VALID_EVERY))
	for u in $(ls "$run" | sed -n 's/^checkpoint_\([0-9]*\)\.bin$/\1/p' | sort -n); do
		[ "$u" -ge "$first" ] || continue
		[ -s "$dir/avg-$u.bleu" ] && continue
		[ -s "$(ckpt "$run" $((u - 2 * VALID_EVERY)))" ] || continue
		stop_at_deadline
		log "budget: dev BLEU of base6's average at $u"
		avg3 "$run" "$u" "$dir/avg-$u.bin"
		translate "$dir/avg-$u.bin" "$DEV_SRC" "$dir/avg-$u.de"
		bleu "$dir/avg-$u.de" "$DEV_REF" >"$dir/avg-$u.bleu"
		rm -f "$dir/avg-$u.bin"
	done
	for f in "$dir"/avg-*.bleu; do
		u=${f##*/avg-} u=${u%.bleu}
		printf '%s\t%s\n' "$u" "$(cat "$f")"
	done | sort -n >"$dir/curve.tsv"
	b=$(awk -F'\t' '{u[NR]=$1; s[NR]=$2; if ($2 > best) best=$2} END {for (i = 1; i <= NR; i++) if (s[i] >= best - 1) {print u[i]; exit}}' "$dir/curve.tsv")
	capped=$(rate_cap)
	if [ -n "$capped" ] && [ "$capped" -lt "$b" ]; then
		log "budget: B=$b exceeds $BUDGET_HOURS machine-hours for the 36-layer runs; capped at $capped"
		echo "rule $b, capped by cost at $capped ($BUDGET_HOURS h at the rates in rates.tsv)" >"$dir/why"
		b=$capped
	else
		echo "rule $b${capped:+ (cost cap $capped not binding)}" >"$dir/why"
	fi
	echo "$b" >"$dir/B"
	log "budget: B = $b ($(cat "$dir/why")); dev BLEU of the averages in $dir/curve.tsv"
}

# rate_cap: the largest multiple of VALID_EVERY updates that the 36-layer
# runs afford in BUDGET_HOURS, from rates.tsv (empty when not measured).
rate_cap() {
	local f=$WORK/budget/rates.tsv
	[ -s "$f" ] || return 0
	awk -F'\t' -v h="$BUDGET_HOURS" -v step="$VALID_EVERY" -v deep="$DEEP36" '
		BEGIN { n = split(deep, d, " "); for (i = 1; i <= n; i++) want[d[i]] = 1 }
		{ sub(/-s[0-9]+$/, "", $1); rate[$1] = $2 }
		END {
			for (s in want) { base = s; sub(/-s[0-9]+$/, "", base); if (!(base in rate)) exit; hours += 1 / rate[base] }
			printf "%d\n", int(h / hours / step) * step
		}' "$f"
}

# measure_rates: each deep system's updates per hour over RATE_TIME of
# training from update 0, in a scratch run that is deleted afterwards.
measure_rates() {
	local name dir n f=$WORK/budget/rates.tsv
	mkdir -p "$WORK/budget" "$WORK/rates"
	for name in msc36 dlcl36 transparent36 plain36 msc72; do
		grep -q "^$name	" "$f" 2>/dev/null && continue
		dir=$WORK/rates/$name
		rm -rf "$dir"
		B=1000000 DEADLINE= train_args "$name" "$THREADS"
		ARGS+=(--stop-time "$RATE_TIME")
		log "rates: $name for $RATE_TIME"
		"$STRATA" train --data "$DATA" --save-dir "$dir" "${ARGS[@]}" --save-interval-updates 1000000 >"$WORK/rates/$name.log" 2>&1 || true
		n=$(grep -o '"update":[0-9]*' "$dir/metrics.jsonl" | tail -n 1 | cut -d: -f2)
		printf '%s\t%s\n' "$name" "$(awk -v n="${n:-0}" -v t="$RATE_TIME" 'BEGIN { s = t + 0; if (t ~ /m$/) s *= 60; if (t ~ /h$/) s *= 3600; printf "%.0f", n * 3600 / s }')" >>"$f"
		rm -rf "$dir"
	done
	cat "$f"
}

# evaluate NAME: averages the system's checkpoints at B, translates the
# test set, scores it.
evaluate() {
	local name=$1 b run=$WORK/runs/$1
	[ -s "$WORK/scores/$name.json" ] && return 0
	b=$(budget) || return 0
	mkdir -p "$WORK/models" "$WORK/hyp" "$WORK/scores"
	log "evaluate $name: average of its checkpoints at $((b - 2 * VALID_EVERY)), $((b - VALID_EVERY)), $b"
	avg3 "$run" "$b" "$WORK/models/$name.bin"
	translate "$WORK/models/$name.bin" "$TEST_SRC" "$WORK/hyp/$name.de"
	# --confidence: Tables 2 and 3 give each score with its 95% interval
	"$STRATA" eval -i "$WORK/hyp/$name.de" --ref "$TEST_REF" -m bleu,chrf,ter --confidence >"$WORK/scores/$name.txt"
	"$STRATA" eval -i "$WORK/hyp/$name.de" --ref "$TEST_REF" -m bleu,chrf,ter --confidence --json >"$WORK/scores/$name.json.tmp"
	mv "$WORK/scores/$name.json.tmp" "$WORK/scores/$name.json"
}

# The contrasts of the design: SYSTEM:BASELINE, tested when both are scored.
CONTRASTS="msc6:base6 msc36:base6 msc36:msc6 msc36:dlcl36 msc36:transparent36 msc36-s2:base6-s2
	plain36:base6 dlcl36:base6 transparent36:base6
	msc36-add:msc36 msc36-ffn:msc36 msc36-noctxenc:msc36 msc36-noctx:msc36
	msc72:msc36 dlcl72:dlcl36 transparent72:transparent36 msc72:dlcl72 msc72:transparent72"

# contrasts: a paired bootstrap (BLEU, chrF) for every contrast whose two
# systems have test hypotheses, as JSON; tables() prints them all.
contrasts() {
	local c sys base out
	for c in $CONTRASTS; do
		sys=${c%%:*} base=${c#*:} out=$WORK/scores/$sys-vs-$base
		[ -s "$WORK/hyp/$sys.de" ] && [ -s "$WORK/hyp/$base.de" ] || continue
		[ -s "$out.json" ] && continue
		"$STRATA" eval -i "$WORK/hyp/$sys.de" --ref "$TEST_REF" -m bleu,chrf --paired-bs --baseline "$WORK/hyp/$base.de" --json >"$out.json.tmp"
		mv "$out.json.tmp" "$out.json"
	done
}

# The claims of the design (docs/results.md): CLAIM:PAPER_DELTA:CONTRAST[,CONTRAST...]
# with one contrast per seed. The paper's deltas are IWSLT14 BLEU (Tables 2, 3).
CLAIMS="T2-a:+0.26:msc6:base6 T2-b:+1.81:msc36:base6,msc36-s2:base6-s2 T2-c:+1.55:msc36:msc6
	T3-a:+0.41:msc36:dlcl36 T3-b:+0.95:msc36:transparent36"

# paper NAME: the system's IWSLT14 En-De BLEU in the paper ("–" where it
# gives none for that system).
paper() {
	case ${1%-s[0-9]*} in
	base6) echo 27.23 ;; msc6) echo 27.49 ;; msc36) echo 29.04 ;;
	dlcl36) echo 28.63 ;; transparent36) echo 28.09 ;; msc72) echo 29.67 ;;
	*) echo – ;;
	esac
}

# metric_line NAME FILE: the JSON line of one metric
metric_line() { grep "\"name\":\"$1\"" "$2"; }
# diff_field KEY: KEY of the "difference" object of the paired JSON line on stdin
diff_field() { sed -n 's/.*"difference":{\([^}]*\)}.*/\1/p' | json_num "$1"; }

# contrast_row CLAIM PAPER SYS BASE: "OUTCOME|ROW": the contrast's outcome
# under the decision rule (paper, opposite or n.s.) and its table row; with
# CLAIM empty, a row of the other contrasts' table (no claim, no paper Δ).
contrast_row() {
	local j=$WORK/scores/$3-vs-$4.json bleu chrf
	bleu=$(metric_line BLEU "$j") chrf=$(metric_line chrF2 "$j")
	awk -v c="$1" -v pp="$2" -v s="$3" -v b="$4" -v p="$(json_num p_value <<<"$bleu")" \
		-v d="$(diff_field score <<<"$bleu")" -v lo="$(diff_field lower <<<"$bleu")" \
		-v hi="$(diff_field upper <<<"$bleu")" -v dc="$(diff_field score <<<"$chrf")" \
		-v clo="$(diff_field lower <<<"$chrf")" -v chi="$(diff_field upper <<<"$chrf")" \
		-v cp="$(json_num p_value <<<"$chrf")" 'BEGIN {
		if (!(p < 0.05 && d * dc > 0)) { o = "n.s."; w = "does not count" }
		else if (c == "") { o = "counts"; w = "counts" }
		else if (d * pp > 0) { o = "paper"; w = "counts, the paper'"'"'s direction" }
		else { o = "opposite"; w = "counts, the opposite direction" }
		pair = sprintf("`%s` − `%s`", s, b)
		row = sprintf("%+.2f (%+.2f to %+.2f) | %.3f | %+.2f (%+.2f to %+.2f), %.3f | %s |", d, lo, hi, p, dc, clo, chi, cp, w)
		if (c == "") printf "%s|| %s | %s\n", o, pair, row
		else printf "%s|| %s | %s | %s | %s\n", o, c, pair, pp, row
	}'
}

# verdict OUTCOME...: the design's rule over seeds: confirmed when the
# difference counts in the paper's direction at every seed, reversed when
# it counts the other way at every seed, not confirmed otherwise.
verdict() {
	local n=$# at="at one seed" o same=0 other=0
	for o; do
		case $o in paper) same=$((same + 1)) ;; opposite) other=$((other + 1)) ;; esac
	done
	[ "$n" -gt 1 ] && at="at $n seeds"
	if [ "$same" = "$n" ]; then echo "confirmed ($at)"
	elif [ "$other" = "$n" ]; then echo "reversed ($at)"
	else echo "not confirmed ($at)"; fi
}

# tables: Tables 2 and 3 (every scored system, the paper's column beside)
# and the claims' contrasts with their verdicts, as Markdown in
# scores/tables.md, copied to RESULTS.
tables() {
	local b name j c claim pp x line outcomes rows= verdicts=
	b=$(budget) || return 0
	for c in $CLAIMS; do
		claim=${c%%:*} x=${c#*:} pp=${x%%:*} outcomes=()
		for x in $(tr , ' ' <<<"${c#*:*:}"); do
			[ -s "$WORK/scores/${x%%:*}-vs-${x#*:}.json" ] || continue
			line=$(contrast_row "$claim" "$pp" "${x%%:*}" "${x#*:}")
			outcomes+=("${line%%|*}") rows+="${line#*|}"$'\n'
		done
		[ ${#outcomes[@]} -gt 0 ] && verdicts+="- $claim: $(verdict "${outcomes[@]}")"$'\n'
	done
	{
		printf 'l10n test, beam 5; each system the average of its checkpoints at %s, %s and %s updates.\n\n' \
			"$((b - 2 * VALID_EVERY))" "$((b - VALID_EVERY))" "$b"
		printf '| system | paper (IWSLT14) | BLEU (95%% CI) | chrF2 | TER |\n|---|---:|---|---:|---:|\n'
		for name in $SYSTEMS; do
			j=$WORK/scores/$name.json
			[ -s "$j" ] || continue
			# the interval as sacreBLEU prints it, μ ± its half-width
			awk -v n="$name" -v pp="$(paper "$name")" -v s="$(metric_line BLEU "$j" | json_num score)" \
				-v mu="$(metric_line BLEU "$j" | json_num mean)" -v ci="$(metric_line BLEU "$j" | json_num ci)" \
				-v c="$(metric_line chrF2 "$j" | json_num score)" -v t="$(metric_line TER "$j" | json_num score)" \
				'BEGIN { printf "| `%s` | %s | %.2f (%.1f-%.1f) | %.2f | %.2f |\n", n, pp, s, mu - ci, mu + ci, c, t }'
		done
		printf '\nClaims: a two-sided paired bootstrap on l10n test (1,000 resamples, seed 12345) per seed; a difference counts when p < 0.05 in BLEU and chrF has the same sign.\n\n'
		printf '| claim | contrast | paper Δ | BLEU Δ (95%% CI) | p | chrF Δ (95%% CI), p | at this seed |\n|---|---|---:|---|---:|---|---|\n'
		printf '%s\n%s' "$rows" "$verdicts"
		# F3 is read off Figure 3's test of msc36 against base6 (one seed)
		if [ -s "$RESULTS/figures/difficulty.md" ] && grep -q '^msc36: gain in' "$RESULTS/figures/difficulty.md"; then
			printf -- '- F3 (at one seed; Figure 3): %s\n' \
				"$(grep '^msc36: gain in' "$RESULTS/figures/difficulty.md" | sed 's/^msc36: //')"
		fi
		# F5 is descriptive (one seed): the lowest block's mean gradient norm
		# over the top block's, closer to 1 where the norms are balanced
		if [ -s "$RESULTS/figures/fig5/shared.txt" ]; then
			printf -- '- F5 (descriptive, at one seed; Figure 5, mean gradient norm of the lowest 6 encoder layers over the top 6, first %s updates): %s\n' \
				"$FIG5_UPDATES" "$(sed -n 's/^\([a-z0-9]*\): mean gradient norm of the lowest [0-9]* layers \/ the top [0-9]*: \(.*\)/\1 \2/p' \
					"$RESULTS/figures/fig5/shared.txt" | paste -sd, - | sed 's/,/, /g')"
		fi
		others
	} >"$WORK/scores/tables.md.tmp"
	mv "$WORK/scores/tables.md.tmp" "$WORK/scores/tables.md"
	mkdir -p "$RESULTS"
	cp "$WORK/scores/tables.md" "$RESULTS/tables.md"
}

# claimed SYS:BASE: the contrast belongs to a claim of CLAIMS.
claimed() {
	local c
	for c in $CLAIMS; do
		[[ ",${c#*:*:}," == *",$1,"* ]] && return 0
	done
	return 1
}

# others: the contrasts that belong to no claim (a plain 36-layer stack,
# Table 5's ablations, the 72-layer rows), each under the same rule.
others() {
	local x line rows=
	for x in $CONTRASTS; do
		claimed "$x" && continue
		[ -s "$WORK/scores/${x%%:*}-vs-${x#*:}.json" ] || continue
		line=$(contrast_row "" "" "${x%%:*}" "${x#*:}")
		rows+="${line#*|}"$'\n'
	done
	[ -n "$rows" ] || return 0
	printf '\nOther contrasts (no claim of Tables 2 and 3), under the same rule:\n\n'
	printf '| contrast | BLEU Δ (95%% CI) | p | chrF Δ (95%% CI), p | at this seed |\n|---|---|---:|---|---|\n%s' "$rows"
}

# rank_difficulty: Figure 3's ranking of the test pairs, once base6 has
# finished: its sentence losses under the last DIFF_K checkpoints of its run
# (those VALID_EVERY apart, as the paper ranks with a trained shallow net's
# last 20), mean plus standard deviation. Kept in RESULTS/figures/ranking,
# since no checkpoint is archived: Figure 3 then needs none.
rank_difficulty() {
	local run=$WORK/runs/base6 dst=$RESULTS/figures/ranking tmp=$WORK/ranking u k=0
	[ -s "$dst/difficulty.tsv" ] && return 0
	[ -e "$run/.done" ] && [ -s "$WORK/hyp/base6.de" ] || return 0
	rm -rf "$tmp"
	mkdir -p "$tmp/ckpts"
	cp "$run/run.json" "$tmp/ckpts/"
	for u in $(ls "$run" | sed -n 's/^checkpoint_\([0-9]*\)\.bin$/\1/p' | sort -rn); do
		[ $((u % VALID_EVERY)) = 0 ] && [ "$k" -lt "$DIFF_K" ] || continue
		ln -s "$run/checkpoint_$u.bin" "$tmp/ckpts/checkpoint_$u.bin"
		k=$((k + 1))
	done
	[ "$k" -gt 0 ] || return 0
	log "Figure 3: ranking the test pairs by base6's last $k checkpoints"
	"$STRATA" analyze difficulty --model "$tmp/ckpts" --last "$k" --source "$TEST_SRC" --ref "$TEST_REF" \
		--threads "$THREADS" --output "$tmp/out" "base6=$WORK/hyp/base6.de" >/dev/null
	mkdir -p "$dst"
	cp "$tmp/out/difficulty.tsv" "$tmp/out/difficulty.json" "$dst/"
	echo "$k" >"$dst/k"
	rm -rf "$tmp"
}

# figures: Figure 3 (BLEU by difficulty bucket, ranked by rank_difficulty),
# the systems' loss curves up to B, and Figure 5 (per-layer gradient norms
# of the parameters msc36 and dlcl36 share, over their first FIG5_UPDATES
# updates, drawn as means over 20 updates, and each layer's mean by depth,
# both runs in one chart; the block ratio is of the per-update norms).
figures() {
	local ranking=$RESULTS/figures/ranking/difficulty.tsv s hyps=()
	for s in base6 msc36 msc6 dlcl36 transparent36; do
		[ -s "$WORK/hyp/$s.de" ] && hyps+=("$s=$WORK/hyp/$s.de")
	done
	# redone when more systems are scored
	if [ -s "$ranking" ] && [ -s "$WORK/hyp/base6.de" ] && [ -s "$WORK/hyp/msc36.de" ] &&
		[ "${hyps[*]}" != "$(cat "$WORK/difficulty.systems" 2>/dev/null)" ]; then
		rm -rf "$WORK/difficulty"
		"$STRATA" analyze difficulty --scores "$ranking" --source "$TEST_SRC" --ref "$TEST_REF" \
			--output "$WORK/difficulty" "${hyps[@]}" >"$WORK/scores/difficulty.md"
		# beside the figure, not in it: these paths mean nothing in the archive
		echo "${hyps[*]}" >"$WORK/difficulty.systems"
		mkdir -p "$RESULTS/figures"
		rm -rf "$RESULTS/figures/difficulty"
		cp -R "$WORK/difficulty" "$RESULTS/figures/difficulty"
		cp "$WORK/scores/difficulty.md" "$RESULTS/figures/"
	fi
	# the learning curves of Tables 2 and 3's systems up to B, redrawn as
	# systems finish (cheap: it reads their metrics)
	local b runs=()
	for s in base6 msc6 msc36 dlcl36 transparent36; do
		[ -e "$WORK/runs/$s/.done" ] && runs+=("$WORK/runs/$s")
	done
	if b=$(budget) && [ "${#runs[@]}" -gt 1 ]; then
		"$STRATA" analyze curves --updates "$b" --smooth 100 --out "$WORK/curves.png" "${runs[@]}" >/dev/null
		mkdir -p "$RESULTS/figures"
		cp "$WORK/curves.png" "$RESULTS/figures/curves.png"
	fi
	# drawn once both have finished training: a run still training (in
	# another lane, or stopped by a time limit) has fewer updates to show
	if [ -e "$WORK/runs/msc36/.done" ] && [ -e "$WORK/runs/dlcl36/.done" ] && [ ! -e "$WORK/fig5/.done" ]; then
		mkdir -p "$WORK/fig5"
		"$STRATA" analyze grad-norms --params shared --updates "$FIG5_UPDATES" --block 6 --log-y --smooth 20 --profile --out "$WORK/fig5/shared" \
			"$WORK/runs/msc36" "$WORK/runs/dlcl36" >"$WORK/fig5/shared.txt" && touch "$WORK/fig5/.done"
		mkdir -p "$RESULTS/figures"
		rm -rf "$RESULTS/figures/fig5"
		cp -R "$WORK/fig5" "$RESULTS/figures/fig5"
	fi
	return 0
}

# status: one row per system, the table of strata status (state, with a
# system in training named as such, updates, best validation, speed, peak
# memory), then B.
status() {
	local name
	local -a runs=()
	for name in $SYSTEMS; do runs+=("$name=$WORK/runs/$name"); done
	"$STRATA" status "${runs[@]}"
	[ -s "$WORK/budget/B" ] && echo "B = $(cat "$WORK/budget/B") ($(cat "$WORK/budget/why" 2>/dev/null))"
	return 0
}

# archive NAME: copies a trained and evaluated system into RESULTS: the
# reason training stopped, run.json, train.log and metrics.jsonl (gzipped;
# per-layer gradient norms only where Figure 5 reads them),
# the test hypotheses and scores. No weights.
archive() {
	local name=$1 run=$WORK/runs/$1 dst=$RESULTS/$1
	[ -e "$dst/.archived" ] && return 0
	[ -e "$run/.done" ] && [ -s "$WORK/scores/$name.json" ] || return 0
	rm -rf "$dst"
	mkdir -p "$dst"
	cp "$run/.done" "$run/run.json" "$dst/"
	gzip -9c "$run/train.log" >"$dst/train.log.gz"
	local keep=0
	case $name in msc36 | dlcl36) keep=$FIG5_UPDATES ;; esac
	slim_metrics "$keep" <"$run/metrics.jsonl" | gzip -9 >"$dst/metrics.jsonl.gz"
	cp "$WORK/hyp/$name.de" "$dst/test.de"
	cp "$WORK/scores/$name.txt" "$WORK/scores/$name.json" "$dst/"
	budget >"$dst/B"
	if [ "$name" = base6 ]; then
		# the budget curve's dev outputs differ little from one checkpoint
		# to the next: xz over all of them takes 4 MB to under 200 kB
		mkdir -p "$dst/budget"
		find "$WORK/budget" -maxdepth 1 -type f ! -name '*.bin' ! -name '*.de' -exec cp {} "$dst/budget/" \;
		(cd "$WORK/budget" && ls | grep '\.de$' | tar -cf - -T - | xz -9e) >"$dst/budget/dev-outputs.tar.xz"
	fi
	date -u +%FT%TZ >"$dst/.archived"
	log "archived $name in $dst (add it to git)"
}

# slim_metrics KEEP: metrics.jsonl (stdin to stdout) without the per-layer
# gradient norms of updates after KEEP: only Figure 5 reads them, over the
# first FIG5_UPDATES updates of msc36 and dlcl36, and at every update of a
# deep run they would make an archive ten times its size. Numbers keep
# float32's 7 significant digits (float32_digits): with Go's 17, msc36's
# first 2,000 updates alone passed the archive's size cap.
slim_metrics() {
	awk -v keep="$1" '{
		u = 0
		if (match($0, /"update":[0-9]+/)) u = substr($0, RSTART + 9, RLENGTH - 9) + 0
		if (u > keep) gsub(/,"layer_grad_norms(_shared)?":\{[^}]*\}/, "")
		print
	}' | float32_digits
}

# restore: puts archived systems back into a WORK that lacks them, so that
# they are neither trained nor decoded again.
restore() {
	local dst name run
	# a figure directory left half drawn is replaced: cp -R into an
	# existing directory would nest the archive inside it
	if [ -d "$RESULTS/figures/difficulty" ] && [ ! -s "$WORK/difficulty/difficulty.json" ]; then
		mkdir -p "$WORK/scores"
		rm -rf "$WORK/difficulty"
		cp -R "$RESULTS/figures/difficulty" "$WORK/difficulty"
		cp "$RESULTS/figures/difficulty.md" "$WORK/scores/"
	fi
	if [ -e "$RESULTS/figures/fig5/.done" ] && [ ! -e "$WORK/fig5/.done" ]; then
		rm -rf "$WORK/fig5"
		cp -R "$RESULTS/figures/fig5" "$WORK/fig5"
	fi
	for dst in "$RESULTS"/*/; do
		[ -e "$dst/.archived" ] || continue
		name=$(basename "$dst") run=$WORK/runs/$name
		[ -e "$run/.done" ] && [ -s "$WORK/scores/$name.json" ] && continue
		mkdir -p "$run" "$WORK/hyp" "$WORK/scores" "$WORK/budget"
		cp "$dst/.done" "$dst/run.json" "$run/"
		gzip -dc "$dst/train.log.gz" >"$run/train.log"
		gzip -dc "$dst/metrics.jsonl.gz" >"$run/metrics.jsonl"
		cp "$dst/test.de" "$WORK/hyp/$name.de"
		cp "$dst/$name.txt" "$dst/$name.json" "$WORK/scores/"
		[ -s "$WORK/budget/B" ] || cp "$dst/B" "$WORK/budget/B"
		if [ -d "$dst/budget" ]; then
			cp -Rn "$dst/budget/." "$WORK/budget/"
			[ -s "$dst/budget/dev-outputs.tar.xz" ] && xz -dc "$dst/budget/dev-outputs.tar.xz" | tar -xf - -C "$WORK/budget"
			rm -f "$WORK/budget/dev-outputs.tar.xz"
		fi
		log "restored $name from $dst (trained and evaluated; no checkpoint)"
	done
	return 0
}
