#!/usr/bin/env bash
# fuzz.sh SECONDS [PACKAGE-PATTERN...]
#
# Runs every Fuzz* target of the repository (or of the given packages) for
# SECONDS each, one after the other, and prints one summary line per target:
#   PACKAGE TARGET executions=N new-corpus=N result=ok|FAIL
# A failing input is left by `go test` in the package's testdata/fuzz/TARGET/
# directory (commit it with the fix: it becomes a regression test).
#
# FUZZ_MINIMIZE (default 0s for runs under 30 s, go's default otherwise) is
# -fuzzminimizetime: in a brief run the deadline can fall while go minimizes
# a new corpus entry, which it reports as a failure ("context deadline
# exceeded") although nothing failed; a real failing input is still written
# to testdata/fuzz, unminimized.
#
# FUZZ_PARALLEL (default 1) is the number of fuzzing workers per target, so a
# shared machine stays usable. FUZZ_LOG (default a temporary directory) keeps
# each target's full output. Exit status: 1 if any target failed.
set -u
secs=${1:?usage: scripts/fuzz.sh SECONDS [PACKAGE-PATTERN...]}
shift
pkgs=("$@")
[ ${#pkgs[@]} -eq 0 ] && pkgs=(./...)
par=${FUZZ_PARALLEL:-1}
minimize=()
if [ -n "${FUZZ_MINIMIZE:-}" ]; then
	minimize=(-fuzzminimizetime "$FUZZ_MINIMIZE")
elif [ "$secs" -lt 30 ]; then
	minimize=(-fuzzminimizetime 0s)
fi
log=${FUZZ_LOG:-$(mktemp -d -t arbiterd-fuzz.XXXXXX)}
mkdir -p "$log"
cd "$(dirname "$0")/.."

# `go test -list` prints a package's matching names, then "ok PKG TIME".
targets=()
names=()
while IFS= read -r line; do
	case "$line" in
	Fuzz*) names+=("$line") ;;
	ok*)
		pkg=$(awk '{print $2}' <<<"$line")
		for n in "${names[@]}"; do targets+=("$pkg $n"); done
		names=()
		;;
	*) names=() ;;
	esac
done < <(go test -list '^Fuzz' "${pkgs[@]}" 2>&1)

if [ ${#targets[@]} -eq 0 ]; then
	echo "fuzz.sh: no Fuzz targets found" >&2
	exit 1
fi
echo "fuzz.sh: ${#targets[@]} targets, ${secs}s each, ${par} worker(s); logs in $log"
# A target fails when go reports a failing input: it writes the input to the
# package's testdata/fuzz/TARGET/ and prints "Failing input written to".
# The fuzzing engine can also fail without any input (a worker that the
# machine was too busy to answer in time: "fuzzing process hung or terminated
# unexpectedly", or the deadline falling during minimization); such a run
# says nothing about the code, so the target is run once more and only a
# second engine failure counts.
#
# One engine failure is not retried but passed: a run whose only error is
# "context deadline exceeded", with no failing input. That is a race in go's
# fuzzing coordinator, not in the code under test: when -fuzztime ends, the
# context package closes the deadline's Done channel before it cancels the
# workers' child context, and a coordinator that wakes in between finds the
# child not yet cancelled and keeps the deadline as the run's error. It hits
# about one run in five on a busy machine, so a rerun does not clear it
# reliably; whatever the target found before the deadline is in the log.
deadline_race() { # log
	! grep -q 'Failing input written to' "$1" &&
		[ "$(grep -v '^\(fuzz: elapsed\|=== \|--- FAIL\|FAIL\|exit status\|ok \|PASS\)' "$1" | grep -c .)" = 1 ] &&
		grep -qx '[[:space:]]*context deadline exceeded' "$1"
}
run_target() { # pkg name out
	go test -run '^$' -fuzz "^${2}\$" -fuzztime "${secs}s" "${minimize[@]}" -parallel "$par" "$1" >"$3" 2>&1
}
fail=0
for t in "${targets[@]}"; do
	read -r pkg name <<<"$t"
	out="$log/$(tr / _ <<<"$pkg").$name.log"
	res=ok
	note=""
	if ! run_target "$pkg" "$name" "$out"; then
		if deadline_race "$out"; then
			note=" (go's coordinator reported the -fuzztime deadline as an error; no failing input)"
		elif grep -q 'Failing input written to' "$out"; then
			res=FAIL
		else
			first=$(grep -v '^\(fuzz: elapsed\|=== \|--- FAIL\|FAIL\|exit status\)' "$out" | grep -m1 . | cut -c1-160)
			mv "$out" "$out.engine-error"
			if run_target "$pkg" "$name" "$out"; then
				note=" (rerun after an engine error without a failing input: ${first})"
			else
				res=FAIL
			fi
		fi
	fi
	[ $res = FAIL ] && fail=1
	execs=$(grep -o 'execs: [0-9]*' "$out" | tail -1 | awk '{print $2}')
	newc=$(grep -o 'new interesting: [0-9]*' "$out" | tail -1 | awk '{print $3}')
	echo "$pkg $name executions=${execs:-0} new-corpus=${newc:-0} result=$res$note"
	if [ $res = FAIL ]; then
		grep -v '^fuzz: elapsed' "$out" | head -12 | sed 's/^/    /'
	fi
done
exit $fail
