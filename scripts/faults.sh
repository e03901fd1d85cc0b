#!/usr/bin/env bash
# faults.sh [TRIALS] [SEED]
#
# Runs arbiterd's fault-injection suite (internal/testkit/faults) with TRIALS trials
# per fault (default 100: the full form; CI runs the reduced form, 10) and
# master seed SEED (default 1). Every trial plays a real game through a
# pseudo-terminal; the SIGKILL trials build and run `arbiterd serve`.
# A failing trial prints its seed; rerun one fault with, e.g.,
#   ARBITERD_FAULT_TRIAL_SEED=S go test -count=1 -run '^TestFaults/unplug$' -v ./internal/testkit/faults/
# (a failure prints that command with its S).
# The last lines summarise each fault: trials equal to the undisturbed
# game, trials that differ but were reported, failures.
# ARBITERD_FAULT_PARALLEL (default 3) sets how many games play at once; a
# game uses little CPU, but at 20x real time an overloaded machine shows
# in the trials (docs/RELIABILITY.md, load artefacts).
set -u
cd "$(dirname "$0")/.."
trials=${1:-100}
seed=${2:-1}
log=${FAULTS_LOG:-$(mktemp -t arbiterd-faults.XXXXXX)}
ARBITERD_TRIALS=$trials ARBITERD_FAULT_SEED=$seed \
	go test -count=1 -v -timeout 4h \
	-run 'TestFaults|TestDiskFull|TestBoardPowerBlip|TestHostStall|TestKillDaemon|TestRestartResync' \
	./internal/testkit/faults/ >"$log" 2>&1
status=$?
grep -E '^(--- |\s+\S+_test\.go:[0-9]+: (trial|[a-z-]+: [0-9]+ trials)|ok|FAIL)' "$log" | cut -c1-240
echo "full log: $log"
exit $status
