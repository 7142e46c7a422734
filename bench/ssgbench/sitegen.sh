# Peer adapter for ../shared/bench (ssgbench): sitegen. run.sh copies it into
# the harness as peers.d/sitegen.sh; bench.sh sources it with ROOT set.
DIR=$ROOT/peers/sitegen
OUT=public
# A cold build: the output, the build cache and the kept previous output
# (.sitegen-keep-public) are deleted before each run
# (the cache is kept in the project so that CLEAN reaches it).
CLEAN=(public .sitegen-cache .sitegen-keep-public)
BUILD=("$ROOT/peers/bin/sitegen" build --date 2026-01-01 --cache-dir .sitegen-cache)
BUILD_ENV=()
available() { [ -x "$ROOT/peers/bin/sitegen" ]; }
# `sitegen version` prints several lines; runs.tsv keeps one per run.
version() { echo "$("$ROOT/peers/bin/sitegen" version | head -n 1) (built with $(go version "$ROOT/peers/bin/sitegen" | awk '{print $2}'))"; }
# The corpus is written for Hugo; sitegen's content model differs in three
# names, converted here (not timed, like every peer's copy step):
#   translationKey -> id; aliases relative to the locale root -> absolute;
#   data/cards.yaml (a plain list) -> a typed data set (type: card, without ids).
prepare() {
  rm -rf "$DIR/content" && mkdir -p "$DIR/content/pl/data" "$DIR/content/en/data"
  for l in pl en; do
    cp -r "$1/$l/." "$DIR/content/$l/"
    # find -exec ... +: at 25,000 pages per locale a glob overflows the argument list.
    find "$DIR/content/$l" -maxdepth 1 -name '*.md' -exec sed -i -e 's/^translationKey:/id:/' -e "s#^aliases: \[\"/#aliases: [\"/$l/#" {} +
    { echo "cards:"; echo "  type: card"; echo "  items:"; grep -v '^#' "$1/data/cards.yaml" | grep -v '^- id:' | sed -e 's/^  title:/    - title:/;t' -e 's/^  /      /'; } > "$DIR/content/$l/data/cards.yaml"
  done
}
