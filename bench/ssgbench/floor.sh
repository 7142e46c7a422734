#!/usr/bin/env bash
# A full sitegen build against the write floor (bench/floor: goldmark with
# the same extensions, every core, each page written, nothing else), the
# contract floor (the same, plus each page's page data at the URL the
# output contract fixes: bench/floor -contract) and the library floor (the
# contract floor, plus each page's front matter decoded by yaml.v3 and the
# page laid out by html/template: bench/floor -contract -library), all in
# RAM on the harness's corpus, interleaved RUNS times (default 5); prints
# the medians and the ratios. Run bench/ssgbench/run.sh --ram N sitegen first: it
# prepares the corpus in the sitegen project of the RAM copy of the harness.
#
#   bench/ssgbench/floor.sh [N]      default N=5000 per locale (10,000 pages)
#
# SITEGEN_BIN=path measures that sitegen binary instead of building this
# checkout's; RAM_DIR and RUNS as for run.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
N=${1:-5000}
work=${RAM_DIR:-/dev/shm/ssgbench}
proj=$work/peers/sitegen
runs=${RUNS:-5}
[ -d "$proj/content" ] || { echo "no corpus in $proj: run bench/ssgbench/run.sh --ram $N sitegen first" >&2; exit 1; }
have=$(find "$proj/content" -maxdepth 2 -name '*.md' | wc -l)
# Exactly: the project holds the corpus of the last run.sh --ram, whatever its size.
[ "$have" -eq $((2 * N)) ] || { echo "$proj holds $have pages, not $((2 * N)): run bench/ssgbench/run.sh --ram $N sitegen first (or give floor.sh $((have / 2)))" >&2; exit 1; }
bin=$work/bin-floor; mkdir -p "$bin"
(cd "$here/../.." && go build -tags=nodynamic -trimpath -o "$bin/floor" ./bench/floor)
if [ -n "${SITEGEN_BIN:-}" ]; then  # a binary built before, as run.sh takes it (e.g. another commit's)
  cp "$SITEGEN_BIN" "$bin/sitegen"
else
  (cd "$here/../.." && go build -tags=nodynamic -trimpath -o "$bin/sitegen" ./cmd/sitegen)
fi
tsv=$(mktemp); trap 'rm -f "$tsv"; rm -rf "$work/floor-out" "$proj/floor-public" "$proj/.floor-cache"' EXIT
for i in $(seq "$runs"); do
  rm -rf "$work/floor-out"
  /usr/bin/time -f "floor\t%e\t%U\t%S\t%M" -a -o "$tsv" "$bin/floor" -src "$proj/content" -out "$work/floor-out" >/dev/null
  rm -rf "$work/floor-out"
  /usr/bin/time -f "contract\t%e\t%U\t%S\t%M" -a -o "$tsv" "$bin/floor" -contract -src "$proj/content" -out "$work/floor-out" >/dev/null
  rm -rf "$work/floor-out"
  /usr/bin/time -f "library\t%e\t%U\t%S\t%M" -a -o "$tsv" "$bin/floor" -contract -library -src "$proj/content" -out "$work/floor-out" >/dev/null
  rm -rf "$proj/floor-public" "$proj/.floor-cache" "$proj/.sitegen-keep-floor-public"
  (cd "$proj" && /usr/bin/time -f "sitegen\t%e\t%U\t%S\t%M" -a -o "$tsv" "$bin/sitegen" build --date 2026-01-01 --cache-dir .floor-cache -o floor-public >/dev/null)
done
med() { awk -F'\t' -v p="$1" -v c="$2" '$1 == p { print $c }' "$tsv" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
cpu() { awk -F'\t' -v p="$1" '$1 == p { print $3 + $4 }' "$tsv" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
fw=$(med floor 2); cw=$(med contract 2); lw=$(med library 2); sw=$(med sitegen 2)
fc=$(cpu floor); cc=$(cpu contract); lc=$(cpu library); sc=$(cpu sitegen)
echo
echo "**Write floor, $((2 * N)) pages in RAM ($work), sitegen ${SITEGEN_BIN:-$(cd "$here/../.." && git rev-parse --short HEAD)}, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $runs interleaved runs, load average before: $(cut -d' ' -f1 /proc/loadavg)**"
echo
echo "| | wall s (median) | CPU s (median) | peak RSS MB |"
echo "| --- | ---: | ---: | ---: |"
echo "| floor (goldmark + writes) | $fw | $fc | $(awk -v m="$(med floor 5)" 'BEGIN { printf "%.0f", m / 1024 }') |"
echo "| contract floor (+ page data) | $cw | $cc | $(awk -v m="$(med contract 5)" 'BEGIN { printf "%.0f", m / 1024 }') |"
echo "| library floor (+ yaml.v3 front matter, html/template layout) | $lw | $lc | $(awk -v m="$(med library 5)" 'BEGIN { printf "%.0f", m / 1024 }') |"
echo "| sitegen build | $sw | $sc | $(awk -v m="$(med sitegen 5)" 'BEGIN { printf "%.0f", m / 1024 }') |"
awk -v a="$sw" -v b="$fw" -v c="$sc" -v d="$fc" 'BEGIN { printf "\nsitegen ÷ floor: %.2f× wall, %.2f× CPU\n", a / b, c / d }'
awk -v a="$sw" -v b="$cw" -v c="$sc" -v d="$cc" 'BEGIN { printf "sitegen ÷ contract floor: %.2f× wall, %.2f× CPU\n", a / b, c / d }'
awk -v a="$sw" -v b="$lw" -v c="$sc" -v d="$lc" 'BEGIN { printf "sitegen ÷ library floor: %.2f× wall, %.2f× CPU\n", a / b, c / d }'
awk -v a="$cw" -v b="$fw" 'BEGIN { printf "contract floor ÷ floor: %.2f× wall\n", a / b }'
awk -v a="$lw" -v b="$cw" -v c="$lc" -v d="$cc" 'BEGIN { printf "library floor ÷ contract floor: %.2f× wall, %.2f× CPU\n", a / b, c / d }'
