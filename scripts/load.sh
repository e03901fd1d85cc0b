#!/usr/bin/env bash
# load.sh [BOARDS] [SPEED]
#
# Runs the load test (internal/testkit/loadtest): BOARDS emulated boards (default
# 500) served by one process, first in a time scramble (everyone moves
# within 1–3 s, real time), then in tournament play (classical think times
# at SPEED× real time, default 10). Each phase is run again with the
# emulators alone, so arbiterd's own share of CPU and memory can be told
# apart. Prints CPU, memory per board, press→complete latency (p50/p99) and
# the count of lost or misattributed moves (must be 0).
set -euo pipefail
cd "$(dirname "$0")/.."
ARBITERD_LOAD=${1:-500} ARBITERD_LOAD_SPEED=${2:-10} \
	go test -count=1 -v -timeout 1h -run 'TestLoad$' ./internal/testkit/loadtest/
