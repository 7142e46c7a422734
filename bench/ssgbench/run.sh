#!/usr/bin/env bash
# Runs ../shared/bench (ssgbench) with sitegen added as a peer, in a scratch
# copy of the harness (the shared folder is read-only), and prints a same-run
# comparison table (bench/ssgbench/table.sh) after the harness's own summary.
#
#   bench/ssgbench/run.sh [--ram] N [PEER...]     e.g. run.sh 5000 sitegen hugo
#
# Without --ram the copy lives in the harness's default folder, /tmp/ssgbench
# (BENCH_DIR overrides it): the machine's disk (ext4). With --ram (or RAM=1)
# it lives in /dev/shm/ssgbench (RAM_DIR overrides it): corpus, projects and
# output all in RAM, and the peers installed in the disk copy are copied
# there, so Hugo is compiled once.
#
# Peers other than sitegen run only if installed: SETUP=1 runs the harness's
# setup.sh in the disk copy first (about 6 minutes: Hugo is compiled).
#
# SITEGEN_BIN=path times that sitegen binary instead of building this
# checkout's. SITEGEN_ALSO="NAME=path ..." adds more sitegen binaries as
# peers of their own, sitegen-NAME (each with its own project, so no two
# share a cache or an output), interleaved with the others when named:
#
#   SITEGEN_ALSO="before=/tmp/sitegen-old" run.sh --ram 25000 sitegen sitegen-before hugo
# Every other setting (RUNS, QUIET_WAIT, SETTLE, TIMEOUT, ...) goes to
# bench.sh as it is; see the head of ../shared/bench/bench.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# The harness sits beside the repository (../shared/bench); from a git
# worktree elsewhere, beside the main checkout.
harness=${HARNESS:-$repo/../shared/bench}
if [ ! -d "$harness" ]; then
  harness=$(cd "$repo" && cd "$(git rev-parse --git-common-dir)/../.." && pwd)/shared/bench
fi
disk=${BENCH_DIR:-/tmp/ssgbench}
ram=${RAM:-0}
if [ "${1:-}" = --ram ]; then ram=1; shift; fi
if [ $# -lt 1 ]; then
  echo "usage: $0 [--ram] N [PEER...]" >&2
  exit 2
fi
N=$1; shift
peers=("$@")

copy_harness() {
  mkdir -p "$1"
  cp -r "$harness/." "$1/"
  chmod -R u+w "$1"
}
copy_harness "$disk"
if [ "${SETUP:-0}" = 1 ]; then (cd "$disk" && ./setup.sh); fi
work=$disk
if [ "$ram" = 1 ]; then
  work=${RAM_DIR:-/dev/shm/ssgbench}
  copy_harness "$work"
  # The peers installed on disk, copied into RAM (only those asked for).
  for p in "${peers[@]}"; do
    [ "$p" != sitegen ] && [ -d "$disk/peers/$p" ] && cp -a "$disk/peers/$p/." "$work/peers/$p/"
  done
  [ -d "$disk/peers/bin" ] && mkdir -p "$work/peers/bin" && cp -a "$disk/peers/bin/." "$work/peers/bin/"
fi
mkdir -p "$work/peers/bin" "$work/peers/sitegen"
if [ -n "${SITEGEN_BIN:-}" ]; then  # a binary built before (scale.sh builds once)
  cp "$SITEGEN_BIN" "$work/peers/bin/sitegen"
else
  (cd "$repo" && go build -tags=nodynamic -trimpath -o "$work/peers/bin/sitegen" ./cmd/sitegen)
fi
cp -r "$here/sitegen/." "$work/peers/sitegen/"
cp "$here/sitegen.sh" "$work/peers.d/sitegen.sh"
for also in ${SITEGEN_ALSO:-}; do
  name=${also%%=*} bin=${also#*=}
  mkdir -p "$work/peers/sitegen-$name"
  cp "$bin" "$work/peers/bin/sitegen-$name"
  cp -r "$here/sitegen/." "$work/peers/sitegen-$name/"
  sed -e "s#peers/bin/sitegen\b#peers/bin/sitegen-$name#g" -e "s#^DIR=\$ROOT/peers/sitegen\$#DIR=\$ROOT/peers/sitegen-$name#" \
    "$here/sitegen.sh" > "$work/peers.d/sitegen-$name.sh"
done
(cd "$work" && ./bench.sh "$N" "${peers[@]}")
res=$(ls -d "$work"/results/*-N"$N" | sort | tail -1)
where="the harness's default folder ($work, $(df --output=fstype "$work" | tail -1))"
[ "$ram" = 1 ] && where="RAM ($work, $(df --output=fstype "$work" | tail -1))"
"$here/table.sh" "$res" "$where" "$(cd "$repo" && git rev-parse --short HEAD)$(cd "$repo" && git diff --quiet HEAD -- cmd pkg || echo +dirty)"
