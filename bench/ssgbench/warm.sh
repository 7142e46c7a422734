#!/usr/bin/env bash
# Cold, warm (nothing changed) and one-edit builds of sitegen, with Hugo's
# cold build as the comparison (Hugo has no warm mode), on the harness's
# corpus, in RAM and on disk, interleaved RUNS times (default 3); prints one
# markdown table per place with the medians, how busy the machine was with
# other processes (others%: their CPU time ÷ (wall × cores), as bench.sh
# counts it) and the load average before.
#
#   bench/ssgbench/warm.sh N [ram|disk]...    default: ram disk
#
# Each round, in one sitegen project: the output, the cache and the keep
# folder are deleted; then
#   cold       sitegen build --cache-dir .sitegen-cache   (writes everything)
#   unchanged  the same again, nothing changed            (nothing to do)
#   edit 1     one page's body edited: the first build that changes the
#              output after a cold one (no spare tree yet: the whole tree is
#              staged anew)
#   edit 2     the same page edited again: the steady state of an author
#              building after each edit (the spare is reused)
# then the page is put back and Hugo builds cold (its output and caches
# deleted first). The projects are those of bench/ssgbench/run.sh; a place
# whose sitegen project does not hold 2N pages is prepared with
# `RUNS=1 run.sh [--ram] N sitegen hugo` first (which runs one cold round of
# its own).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
N=${1:?usage: warm.sh N [ram|disk]...}; shift
places=("$@"); [ ${#places[@]} -gt 0 ] || places=(ram disk)
runs=${RUNS:-3}
cores=$(nproc); hz=$(getconf CLK_TCK)
bin=$(mktemp -d); trap 'rm -rf "$bin"' EXIT
(cd "$repo" && go build -tags=nodynamic -trimpath -o "$bin/sitegen" ./cmd/sitegen)
busy() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat; }

# timed NAME TSV CMD...: runs CMD, appends NAME wall cpu others% to TSV.
timed() {
  local name=$1 tsv=$2; shift 2
  local b0 b1 t
  t=$(mktemp)
  b0=$(busy)
  /usr/bin/time -f "%e %U %S" -o "$t" "$@" > "$bin/last.log" 2>&1 || { cat "$bin/last.log" >&2; exit 1; }
  b1=$(busy)
  read -r wall user sys < "$t"; rm -f "$t"
  awk -v n="$name" -v w="$wall" -v u="$user" -v s="$sys" -v b="$((b1 - b0))" -v hz="$hz" -v c="$cores" 'BEGIN {
    cpu = u + s; others = b / hz - cpu; if (others < 0) others = 0
    printf "%s\t%s\t%.2f\t%.0f\n", n, w, cpu, 100 * others / (w * c) }' >> "$tsv"
}

for place in "${places[@]}"; do
  case $place in
    ram) work=${RAM_DIR:-/dev/shm/ssgbench}; flag=(--ram) ;;
    disk) work=${BENCH_DIR:-/tmp/ssgbench}; flag=() ;;
    *) echo "unknown place $place (ram or disk)" >&2; exit 2 ;;
  esac
  proj=$work/peers/sitegen hugo=$work/peers/hugo
  have=$({ find "$proj/content" -maxdepth 2 -name '*.md' 2>/dev/null || true; } | wc -l)
  if [ "$have" -ne $((2 * N)) ] || [ ! -d "$hugo/content" ]; then
    RUNS=1 QUIET_WAIT=0 SITEGEN_BIN="$bin/sitegen" "$here/run.sh" "${flag[@]}" "$N" sitegen hugo > "$bin/prepare.log" 2>&1 ||
      { cat "$bin/prepare.log" >&2; exit 1; }
  fi
  [ -x "$work/peers/bin/hugo" ] || { echo "no Hugo in $work/peers/bin: run SETUP=1 bench/ssgbench/run.sh first" >&2; exit 1; }
  page=$(find "$proj/content/pl" -maxdepth 1 -name '*.md' | sort | sed -n 1p)
  cp "$page" "$bin/page.md"
  tsv=$bin/$place.tsv; : > "$tsv"
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  sg=("$bin/sitegen" build --date 2026-01-01 --cache-dir .sitegen-cache)
  for i in $(seq "$runs"); do
    cd "$proj"
    rm -rf public .sitegen-cache .sitegen-keep-public
    timed cold "$tsv" "${sg[@]}"
    timed unchanged "$tsv" "${sg[@]}"
    echo "edited once" >> "$page"
    timed "edit 1" "$tsv" "${sg[@]}"
    echo "edited twice" >> "$page"
    timed "edit 2" "$tsv" "${sg[@]}"
    grep -o 'files: [0-9]* written' "$bin/last.log" | head -1 > "$bin/written.txt" || true
    cp "$bin/page.md" "$page"
    cd "$hugo"
    rm -rf public resources .hugo_cache .hugo_build.lock
    timed "hugo cold" "$tsv" "$work/peers/bin/hugo" --quiet --cacheDir "$hugo/.hugo_cache"
  done
  cd "$proj" && rm -rf public .sitegen-cache .sitegen-keep-public
  rm -rf "$hugo/public" "$hugo/resources" "$hugo/.hugo_cache"
  fstype=$(df --output=fstype "$work" | tail -1)
  echo
  echo "**$((2 * N)) pages, $place ($work, $fstype), sitegen $(cd "$repo" && git rev-parse --short HEAD)$(cd "$repo" && git diff --quiet HEAD -- cmd pkg || echo +dirty), $("$work/peers/bin/hugo" version | awk '{print $1, $2}'), $(date -u +%Y-%m-%dT%H:%MZ), $cores cores, $runs interleaved rounds, load average before: $load**"
  echo
  echo "| build | wall s (median) | wall range | CPU s (median) | others% (median) | ÷ Hugo cold (wall) |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: |"
  hw=$(awk -F'\t' '$1 == "hugo cold" { print $2 }' "$tsv" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  for b in cold unchanged "edit 1" "edit 2" "hugo cold"; do
    awk -F'\t' -v b="$b" -v hw="$hw" '$1 == b { w[++n] = $2; c[n] = $3; o[n] = $4 }
      function med(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }; return a[int((n + 1) / 2)] }
      END { lo = w[1]; hi = w[1]; for (i = 1; i <= n; i++) { if (w[i] < lo) lo = w[i]; if (w[i] > hi) hi = w[i] }
        mw = med(w, n); printf "| %s | %.2f | %.2f–%.2f | %.2f | %d | %.2f× |\n", b, mw, lo, hi, med(c, n), med(o, n), mw / hw }' "$tsv"
  done
  echo
  echo "(edit 2, last round: $(cat "$bin/written.txt" 2>/dev/null) of the output's files; command: \`bench/ssgbench/warm.sh $N $place\`)"
done
