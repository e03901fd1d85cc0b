#!/usr/bin/env bash
# readme.sh — runs the README's shell snippets as written, as a new user
# pasting them would, and checks what they leave.
#
# Every ```sh block of README.md is run, line by line, by bash from the
# repository's root, exactly as it stands in the README. Two things are
# the harness's own:
#   - the README's test command, `go test -short ./...`, is not run again
#     (it is a step of CI's own);
#   - a block that starts the daemon (`arbiterd serve`) is run in the
#     background until its game is over, then stopped with SIGINT as a
#     person stops it with Ctrl-C; the daemon must stop cleanly, and the
#     journal must hold the finished game with its provenance.
# The daemon block's data directory (/tmp/arbiterd-data, from
# docs/examples/emulated.yaml) is cleared first, as on a first run; port
# 8080 must be free.
#
# README_TIMEOUT (default 600) bounds each block in seconds. Exit status 1
# on the first failure, with the block's output.
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${README_TIMEOUT:-600}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Extract the blocks: block-N.sh, one per ```sh fence.
awk -v dir="$work" '
	/^```sh[[:space:]]*$/ { n++; f = sprintf("%s/block-%d.sh", dir, n); inblock = 1; next }
	/^```/ && inblock { inblock = 0; close(f); next }
	inblock { print > f }
' README.md
blocks=$(ls "$work"/block-*.sh 2>/dev/null | sort -V)
[ -n "$blocks" ] || { echo "readme: no sh blocks in README.md"; exit 1; }

fail() {
	echo "readme: $1"
	[ -f "$2" ] && { echo "---- output"; tail -n 60 "$2"; }
	exit 1
}

for b in $blocks; do
	name=$(basename "$b" .sh)
	out="$work/$name.out"
	grep -v '^go test -short ./...$' "$b" > "$b.run" || true
	echo "== README $name:"; sed 's/^/   /' "$b"
	start=$(date +%s)
	if grep -q 'arbiterd serve' "$b"; then
		rm -rf /tmp/arbiterd-data
		setsid bash -euo pipefail "$b.run" > "$out" 2>&1 &
		pid=$!
		pgn=/tmp/arbiterd-data/round-1/board-1.pgn
		until [ -f "$pgn" ] && ! grep -q '^\[Result "\*"\]' "$pgn"; do
			kill -0 "$pid" 2>/dev/null || { wait "$pid" || true; fail "$name: the daemon stopped before the game was over" "$out"; }
			[ $(( $(date +%s) - start )) -lt "$limit" ] || { kill -KILL -- -"$pid"; fail "$name: no game over in ${limit}s" "$out"; }
			sleep 2
		done
		curl -fsS http://127.0.0.1:8080/healthz > /dev/null || { kill -KILL -- -"$pid"; fail "$name: the dashboard's server does not answer on 127.0.0.1:8080" "$out"; }
		kill -INT -- -"$pid"
		wait "$pid" || true # `go run` exits 1 when interrupted, whatever the program did
		grep -q 'stopped; every capture synced and closed' "$out" || fail "$name: the daemon did not stop cleanly on Ctrl-C" "$out"
		grep -q '^\[Result "1-0"\]' "$pgn" || fail "$name: the game's PGN has no 1-0 result" "$pgn"
		grep -q "^\[Date \"$(date +%Y.%m.%d)\"\]" "$pgn" || fail "$name: the game's PGN has no Date of today" "$pgn"
		for key in arbiterd-version arbiterd-revision started; do
			grep -q "^#meta $key=" /tmp/arbiterd-data/round-1/board-1.capture || fail "$name: the capture has no $key" "$out"
		done
		if grep -E 'level=(ERROR|WARN)' "$out" | grep -v 'does not exist: is the board plugged in' | grep -q .; then
			fail "$name: warnings or errors beyond the port not there yet" "$out"
		fi
	else
		timeout "$limit" bash -euo pipefail "$b.run" > "$out" 2>&1 || fail "$name: exited with status $?" "$out"
	fi
	case "$name" in
	block-1) grep -q 'verdict: LOSS' "$out" || fail "$name: the demo gave no verdict" "$out" ;;
	esac
	echo "   ok in $(( $(date +%s) - start ))s"
done
