#!/usr/bin/env bash
# sitegen alone in RAM at growing sizes: one line per size with wall time,
# pages/s and peak RSS (medians of RUNS, default 1), to see that time grows
# linearly and memory stays flat.
#
#   bench/ssgbench/scale.sh [N...]     default: 1000 5000 25000 50000 per locale
#                                      (2,000, 10,000, 50,000, 100,000 pages)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sizes=("$@"); [ ${#sizes[@]} -gt 0 ] || sizes=(1000 5000 25000 50000)
work=${RAM_DIR:-/dev/shm/ssgbench}
export RUNS=${RUNS:-1}
export SITEGEN_BIN=$work/sitegen-scale
mkdir -p "$work"
(cd "$here/../.." && go build -tags=nodynamic -trimpath -o "$SITEGEN_BIN" ./cmd/sitegen)
lines=()
for n in "${sizes[@]}"; do
  "$here/run.sh" --ram "$n" sitegen >&2
  res=$(ls -d "$work"/results/*-N"$n" | sort | tail -1)
  col() { awk -F'\t' -v c="$1" 'NR > 1 && $1 == "sitegen" && $4 == "ok" { print $c }' "$res/runs.tsv" | sort -g; }
  k=$(col 5 | wc -l)
  [ "$k" -gt 0 ] || { lines+=("| $((2 * n)) | failed: see $res | | | 0 |"); continue; }
  w=$(col 5 | sed -n "$(((k + 1) / 2))p"); r=$(col 7 | sed -n "$(((k + 1) / 2))p")
  lines+=("$(awk -v p=$((2 * n)) -v w="$w" -v r="$r" -v k="$k" 'BEGIN { printf "| %d | %.2f | %.0f | %.0f | %d |", p, w, p / w, r / 1024, k }')")
  rm -rf "$work/content/$n-seed"* # the corpus of 100,000 pages alone is 800 MB of RAM
done
echo
echo "**sitegen $(cd "$here/../.." && git rev-parse --short HEAD) in RAM ($work), $(date -u +%Y-%m-%d), $(nproc) cores, RUNS=$RUNS**"
echo
echo "| pages | wall s | pages/s | peak RSS MB | runs |"
echo "| ---: | ---: | ---: | ---: | ---: |"
printf '%s\n' "${lines[@]}"
