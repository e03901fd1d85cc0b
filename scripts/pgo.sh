#!/bin/sh
# pgo.sh writes cmd/arbiterd/default.pgo, the CPU profile the Go compiler
# optimises arbiterd with: `go build` (and the release build) uses a
# default.pgo in the main package's directory by itself. The profile is of
# the 6.9 analyzer, the program's hot path, on the flag-fall positions of
# timeouts-30k: quick mode over the whole file twenty times, then full mode
# over its first 1,000 queries. lichess-65k and positions.txt stay out of
# it, so that the speed measured on them is not that of the positions the
# compiler was trained on (docs/PERFORMANCE.md). Run it again after a
# change to the analyzer's hot code; a stale profile costs speed, never
# correctness.
set -eu
cd "$(dirname "$0")/.."
data=../shared/data/unwinnability/timeouts-30k.txt
if [ ! -f "$data" ]; then
	echo "pgo.sh: $data not found (the shared data is needed)" >&2
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -pgo=off -o "$tmp/arbiterd" ./cmd/arbiterd
i=0
while [ $i -lt 20 ]; do
	cat "$data"
	i=$((i + 1))
done | "$tmp/arbiterd" unwinnable --quick --cpuprofile "$tmp/quick.prof" - >/dev/null
head -n 1000 "$data" | "$tmp/arbiterd" unwinnable --full --cpuprofile "$tmp/full.prof" - >/dev/null
go tool pprof -proto "$tmp/quick.prof" "$tmp/full.prof" >cmd/arbiterd/default.pgo
echo "pgo.sh: wrote cmd/arbiterd/default.pgo ($(wc -c <cmd/arbiterd/default.pgo) bytes)"
