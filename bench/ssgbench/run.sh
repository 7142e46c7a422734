#!/usr/bin/env bash
# Runs ../shared/bench (ssgbench) with sitegen added as a peer, in a scratch
# copy of the harness (the shared folder is read-only).
#
#   bench/ssgbench/run.sh N [PEER...]     e.g. run.sh 1000 sitegen hugo
#
# Peers other than sitegen run only if installed in the copy: set
# SETUP=1 to run the harness's setup.sh (about 6 minutes: Hugo is compiled).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
harness=${HARNESS:-$repo/../shared/bench}
work=${BENCH_DIR:-/tmp/ssgbench}
mkdir -p "$work"
cp -r "$harness/." "$work/"
chmod -R u+w "$work"
[ "${SETUP:-0}" = 1 ] && (cd "$work" && ./setup.sh)
mkdir -p "$work/peers/bin" "$work/peers/sitegen"
(cd "$repo" && go build -trimpath -o "$work/peers/bin/sitegen" ./cmd/sitegen)
cp -r "$here/sitegen/." "$work/peers/sitegen/"
cp "$here/sitegen.sh" "$work/peers.d/sitegen.sh"
cd "$work" && ./bench.sh "$@"
