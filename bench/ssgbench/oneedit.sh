#!/usr/bin/env bash
# Steady one-edit builds of several sitegen binaries, interleaved: for each
# binary a project's cache and output are made (a cold build and a first
# edit, so that a spare tree exists), then ROUNDS (default 5) rounds each
# edit the first Polish page and build once with every binary in turn.
# Prints each binary's sorted wall and CPU times. Run in the RAM copy of
# the harness (bench/ssgbench/run.sh --ram N sitegen first).
#
#   bench/ssgbench/oneedit.sh BIN...
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 SITEGEN_BINARY..." >&2; exit 2; }
work=${RAM_DIR:-/dev/shm/ssgbench}
proj=$work/peers/sitegen
rounds=${ROUNDS:-5}
[ -d "$proj/content/pl" ] || { echo "no corpus in $proj: run bench/ssgbench/run.sh --ram N sitegen first" >&2; exit 1; }
page=$(find "$proj/content/pl" -maxdepth 1 -name '*.md' | sort | sed -n 1p)
tmp=$(mktemp -d); cp "$page" "$tmp/page.md"
trap 'cp "$tmp/page.md" "$page"; rm -rf "$tmp"' EXIT
bins=("$@")
for i in "${!bins[@]}"; do
  d=$tmp/b$i; mkdir -p "$d"
  (cd "$proj" && "${bins[$i]}" build --date 2026-01-01 --cache-dir "$d/cache" -o "$d/public" >/dev/null)
  echo "first edit" >> "$page"
  (cd "$proj" && "${bins[$i]}" build --date 2026-01-01 --cache-dir "$d/cache" -o "$d/public" >/dev/null)
done
sleep 2.1 # the edits below are the only files changed within 2 s of a build
for r in $(seq "$rounds"); do
  for i in "${!bins[@]}"; do
    echo "edit $r of ${bins[$i]}" >> "$page"
    (cd "$proj" && /usr/bin/time -a -o "$tmp/t$i" -f "%e %U %S" "${bins[$i]}" build --date 2026-01-01 --cache-dir "$tmp/b$i/cache" -o "$tmp/b$i/public" >/dev/null)
  done
done
for i in "${!bins[@]}"; do
  echo "${bins[$i]}: wall $(awk '{print $1}' "$tmp/t$i" | sort -g | tr '\n' ' ')s; CPU $(awk '{print $2 + $3}' "$tmp/t$i" | sort -g | tr '\n' ' ')s"
done
