#!/usr/bin/env bash
# Interleaved one-edit (steady: the spare reused) and unchanged builds of several
# sitegen binaries, each on its own copy of the RAM corpus (bench/ssgbench/run.sh
# --ram N sitegen first); prints each binary's sorted wall and CPU times. Unlike
# oneedit.sh, a binary's unchanged build follows its own edit build.
#
#   bench/ssgbench/warmcmp.sh BIN...
set -euo pipefail
work=${RAM_DIR:-/dev/shm/ssgbench}; base=$work/peers/sitegen
rounds=${ROUNDS:-5}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bins=("$@")
for i in "${!bins[@]}"; do
  d=$work/warmcmp-$i; rm -rf $d; mkdir -p "$d"; cp -a $base $d/proj
  page=$(find "$d/proj/content/pl" -maxdepth 1 -name '*.md' | sort | sed -n 1p)
  (cd "$d/proj" && "${bins[$i]}" build --date 2026-01-01 --cache-dir "$d/cache" -o "$d/public" >/dev/null)
  echo "first edit" >> "$page"
  (cd "$d/proj" && "${bins[$i]}" build --date 2026-01-01 --cache-dir "$d/cache" -o "$d/public" >/dev/null)
done
sleep 2.1
for r in $(seq "$rounds"); do
  for i in "${!bins[@]}"; do
    d=$work/warmcmp-$i
    page=$(find "$d/proj/content/pl" -maxdepth 1 -name '*.md' | sort | sed -n 1p)
    echo "edit $r" >> "$page"
    (cd "$d/proj" && /usr/bin/time -a -o "$tmp/t$i" -f "%e %U %S" "${bins[$i]}" build --date 2026-01-01 --cache-dir "$d/cache" -o "$d/public" > $tmp/laste$i)
    (cd "$d/proj" && /usr/bin/time -a -o "$tmp/u$i" -f "%e %U %S" "${bins[$i]}" build --date 2026-01-01 --cache-dir "$d/cache" -o "$d/public" > $tmp/lastu$i)
  done
done
for i in "${!bins[@]}"; do
  echo "${bins[$i]}: one edit  wall $(awk '{print $1}' "$tmp/t$i" | sort -g | tr '\n' ' ')s CPU $(awk '{print $2 + $3}' "$tmp/t$i" | sort -g | tr '\n' ' ')s"
  echo "${bins[$i]}: unchanged wall $(awk '{print $1}' "$tmp/u$i" | sort -g | tr '\n' ' ')s CPU $(awk '{print $2 + $3}' "$tmp/u$i" | sort -g | tr '\n' ' ')s"
  tail -1 $tmp/laste$i; tail -1 $tmp/lastu$i
done
