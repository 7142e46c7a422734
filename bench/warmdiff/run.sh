#!/usr/bin/env bash
# The differential test of warm builds at length (issue 32): SEEDS seeded
# sequences (default 40) of STEPS mutations (default 10) on every fixture
# site under testdata/sites/, and WEBSITE_SEEDS sequences (default 2) on
# this website; after each mutation a warm build's output must equal a
# build without a cache, byte for byte, and a dev server kept for the whole
# sequence, told of the change as its watcher reports it, must answer every
# URL with that build's bytes (pkg/build TestDifferential). Prints the
# number of mutations checked.
#
#   bench/warmdiff/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
seeds=${SEEDS:-40} steps=${STEPS:-10} wseeds=${WEBSITE_SEEDS:-2}
bin=$(mktemp -d); trap 'rm -rf "$bin"' EXIT
go test -tags=nodynamic -c -o "$bin/build.test" ./pkg/build
total=0
run() { # SITES SEED
  out=$(cd pkg/build && SITEGEN_DIFF_SITES=$1 SITEGEN_DIFF_SEED=$2 SITEGEN_DIFF_STEPS=$steps \
    "$bin/build.test" -test.run '^TestDifferential$' -test.count=1 -test.v 2>&1) || { echo "$out" | tail -40; echo "FAILED: sites $1, seed $2"; exit 1; }
  n=$(echo "$out" | sed -n 's/.* \([0-9]*\) mutations checked.*/\1/p')
  total=$((total + n))
  echo "seed $2, $1: $(echo "$out" | grep -o '[0-9]* mutations checked.*')"
}
# Every fixture site there is (the list is derived, never written down).
fixtures=$(cd testdata/sites && ls -d */ | tr -d / | paste -sd, -)
for s in $(seq "$seeds"); do run "$fixtures" "$s"; done
for s in $(seq "$wseeds"); do run website "$s"; done
echo "all passed: $total mutations checked"
