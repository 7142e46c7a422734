#!/usr/bin/env bash
# Prints one ssgbench result folder (runs.tsv) as a Markdown table: median
# wall time and its spread (min-max over the runs), pages/s, median peak RSS
# and CPU, others%, and sitegen's wall time and RSS as a fraction of each peer's.
#
#   bench/ssgbench/table.sh RESULTS_DIR [WHERE] [COMMIT]
set -euo pipefail
res=$1 where=${2:-} commit=${3:-}
raw=$res/runs.tsv
n=$(basename "$res" | sed 's/.*-N//')
when=$(basename "$res" | sed 's/-N.*//')
echo
echo "**N = $n per locale ($((2 * n)) pages), $where; sitegen ${commit:-?}; $when; $(nproc) cores**"
echo
echo "| peer | pages | wall s (median) | wall range | pages/s | peak RSS MB | CPU s | others% | runs | sitegen wall ÷ this | sitegen RSS ÷ this |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
awk -F'\t' -v pages=$((2 * n)) -v cores="$(nproc)" '
  NR == 1 { next }
  $4 != "ok" { bad[$1] = $4; if (!($1 in seen)) { seen[$1] = 1; order[++np] = $1 }; next }
  {
    if (!($1 in seen)) { seen[$1] = 1; order[++np] = $1 }
    k = ++cnt[$1]; W[$1, k] = $5; C[$1, k] = $6; R[$1, k] = $7; O[$1] += $9; WS[$1] += $5
  }
  function med(a, p, m,   i, j, t, v) {
    for (i = 1; i <= m; i++) v[i] = a[p, i]
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
    return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
  }
  function lo(a, p, m,   i, x) { x = a[p, 1]; for (i = 2; i <= m; i++) if (a[p, i] < x) x = a[p, i]; return x }
  function hi(a, p, m,   i, x) { x = a[p, 1]; for (i = 2; i <= m; i++) if (a[p, i] > x) x = a[p, i]; return x }
  END {
    if ("sitegen" in cnt) { sw = med(W, "sitegen", cnt["sitegen"]); sr = med(R, "sitegen", cnt["sitegen"]) }
    for (i = 1; i <= np; i++) {
      p = order[i]; m = cnt[p]
      if (!m) { printf "| %s | %d | %s | | | | | | 0 | | |\n", p, pages, bad[p]; continue }
      w = med(W, p, m); r = med(R, p, m) / 1024
      printf "| %s | %d | %.2f | %.2f–%.2f | %.0f | %.0f | %.2f | %.0f | %d | %s | %s |\n", p, pages, w, lo(W, p, m), hi(W, p, m),
        pages / w, r, med(C, p, m), 100 * O[p] / (WS[p] * cores), m,
        sw ? sprintf("%.2f", sw / w) : "", sr ? sprintf("%.2f", sr / (r * 1024)) : ""
    }
  }' "$raw"
echo
echo "(raw: $raw)"
