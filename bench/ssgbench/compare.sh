#!/usr/bin/env bash
# The same-run comparison in both places: the harness's default folder (disk)
# and RAM, one after the other, each printed as a table (run.sh, table.sh).
#
#   bench/ssgbench/compare.sh N [PEER...]      default peers: sitegen hugo
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
N=${1:?usage: compare.sh N [PEER...]}; shift
peers=("$@"); [ ${#peers[@]} -gt 0 ] || peers=(sitegen hugo)
"$here/run.sh" "$N" "${peers[@]}"
"$here/run.sh" --ram "$N" "${peers[@]}"
