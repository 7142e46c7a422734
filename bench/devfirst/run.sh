#!/usr/bin/env bash
# bench/devfirst: the first answer of `sitegen serve` on a large site, and its
# memory. Generates the ssgbench corpus (bench/ssgbench, gen.py of the shared
# harness: N pages per locale, pl + en), converts it for sitegen the way the
# ssgbench adapter does, and for each sitegen binary given (default: one built
# from this tree) and `hugo server` (when `hugo` is on PATH, on the harness's
# Hugo project) measures:
#   first_s   time from starting the server to the first 200 of one page
#   cpu_s     the CPU time (user + system) the server had used by then,
#             which a busy machine moves less than first_s
#   load_ms   sitegen's own report of loading the site (front matter, routes,
#             data, templates, bundles: "loaded N pages in X ms"; a binary
#             that renders every page first says "built N pages in X ms")
#   read_ms   of it, reading and parsing the content files (front matter)
#   rss_mb    the server's resident memory after 100 random page requests
# and, for scale, the peak RSS of `sitegen build` of the same site.
#
# REPEAT=k measures each sitegen binary's server k times, the binaries
# taking turns (the build's peak once), for a machine whose load moves.
#
#   bench/devfirst/run.sh 5000                 # 10,000 pages
#   bench/devfirst/run.sh 25000 /tmp/old /tmp/new   # 50,000 pages, two binaries
#   REPEAT=3 bench/devfirst/run.sh 25000 /tmp/old /tmp/new
set -euo pipefail
N=${1:-5000}
shift || true
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HARNESS=${SSGBENCH:-/work/shared/bench}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/devfirst.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
BINS=("$@")
if [ ${#BINS[@]} -eq 0 ]; then
  (cd "$ROOT" && go build -tags=nodynamic -o "$WORK/sitegen" ./cmd/sitegen)
  BINS=("$WORK/sitegen")
fi
python3 "$HARNESS/gen.py" "$N" "$WORK/corpus" --seed 1 >/dev/null
# The sitegen project, as the ssgbench adapter prepares it.
mkdir -p "$WORK/peers"
cp -r "$ROOT/bench/ssgbench/sitegen" "$WORK/peers/sitegen"
ROOT_SAVE=$ROOT
ROOT=$WORK
# shellcheck source=../ssgbench/sitegen.sh
. "$ROOT_SAVE/bench/ssgbench/sitegen.sh"
prepare "$WORK/corpus"
ROOT=$ROOT_SAVE
SITE=$WORK/peers/sitegen
# 100 random pages (the same for every server) and the first one.
find "$WORK/corpus/pl" "$WORK/corpus/en" -name '*.md' | shuf -n 101 --random-source=<(yes) |
  while read -r f; do l=$(basename "$(dirname "$f")"); s=$(sed -n 's/^slug: "\(.*\)"/\1/p' "$f"); echo "/$l/$s/"; done > "$WORK/urls"
FIRST=$(head -n 1 "$WORK/urls")
PORT=$((20000 + RANDOM % 20000))

rss_mb() { awk '/VmRSS/ {printf "%.0f", $2/1024}' "/proc/$1/status"; }
TICK=$(getconf CLK_TCK)
cpu_s() { awk -v t="$TICK" '{printf "%.2f", ($14 + $15) / t}' "/proc/$1/stat"; }

# measure NAME CMD...: starts the server, times the first 200 of $FIRST,
# requests the 100 pages, reads the RSS, stops it.
measure() {
  local name=$1; shift
  local log=$WORK/$name.log start now pid first
  start=$(date +%s.%N)
  "$@" >"$log" 2>&1 &
  pid=$!
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT$FIRST" || true)" = 200 ]; do
    if ! kill -0 "$pid" 2>/dev/null; then echo "$name: the server exited:"; cat "$log"; return 1; fi
    sleep 0.05
  done
  now=$(date +%s.%N)
  cpu=$(cpu_s "$pid")
  first=$(echo "$now - $start" | bc)
  tail -n 100 "$WORK/urls" | while read -r u; do curl -s -o /dev/null "http://127.0.0.1:$PORT$u"; done
  local rss load
  rss=$(rss_mb "$pid")
  # Hugo reports neither (grep finds nothing: not an error under pipefail).
  load=$(grep -o '[0-9]* pages in [0-9]* ms' "$log" | head -n 1 | awk '{print $4}' || true)
  read=$(grep -o 'content files read in [0-9]* ms' "$log" | head -n 1 | awk '{print $5}' || true)
  kill "$pid"; wait "$pid" 2>/dev/null || true
  printf "%-28s %8s %8.2f %8s %8s %8s %8s\n" "$name" 100 "$first" "$cpu" "${load:--}" "${read:--}" "$rss"
}

echo "pages: $((2 * N)); $(uptime)"
printf '%-28s %8s %8s %8s %8s %8s %8s\n' server requests first_s cpu_s load_ms read_ms rss_mb
for round in $(seq "${REPEAT:-1}"); do
  for bin in "${BINS[@]}"; do
    measure "sitegen serve ($(basename "$bin"))" "$bin" serve --source "$SITE" --port "$PORT" --date 2026-01-01
  done
done
for bin in "${BINS[@]}"; do
  peak=$(/usr/bin/time -f '%M' "$bin" build --source "$SITE" --out "$WORK/public" --date 2026-01-01 --no-cache 2>&1 >/dev/null | tail -n 1)
  printf '%-28s %8s %8s %8s %8s %8s %8.0f\n' "sitegen build ($(basename "$bin"))" - - - - - "$(echo "$peak / 1024" | bc -l)"
  rm -rf "$WORK/public" "$WORK/.sitegen-keep-public" "$WORK/.sitegen-lock-public"
done
if command -v hugo >/dev/null; then
  HUGO=$WORK/peers/hugo
  cp -r "$HARNESS/peers/hugo" "$HUGO"
  mkdir -p "$HUGO/content" "$HUGO/data"
  cp -r "$WORK/corpus/pl" "$WORK/corpus/en" "$HUGO/content/" && cp "$WORK/corpus/data/cards.yaml" "$HUGO/data/"
  measure "hugo server" hugo server --source "$HUGO" --port "$PORT" --bind 127.0.0.1 --renderToMemory --disableLiveReload
else
  echo "hugo server: not installed (no hugo on PATH)"
fi
echo "done: $(uptime)"
