#!/usr/bin/env bash
# The image stage against the native encoder, on two sets: this website
# now, and the issue's (the website at 9c51bb6, its content built by this
# engine: 144 variants, 72 AVIF). For each (bench/images/native):
#   1. its AVIF variants (the very pixels sitegen encodes) encoded one at a
#      time by sitegen's portable encoder (speed 9, the default; speed 8,
#      the old one), by its native choice (images.avif: native: avifenc as
#      sitegen runs it) and by Debian's avifenc run by hand (libavif-bin,
#      where installed; -j 1, from PNG) at a sweep of quantizers at each of
#      ASPEEDS, with bytes and SSIM: the quantizer whose SSIM first matches
#      the portable encoder's is the match of that speed;
#   2. ROUNDS rounds of sitegen's whole image stage of a cold build
#      (decoding, resizing, the AVIF and JPEG encodes of every variant),
#      with the portable encoder and with the native choice, against
#      avifenc's encodes at each match, interleaved, with each round's
#      ratios, the load, and the medians.
# CPU seconds are user + system of every process, the encoder processes
# included. The user cache folder is an empty temporary one, so the first
# encoder start compiles the module (shown apart); the stage rounds run with
# it compiled.
#
#   bench/images/native.sh [SITE...]    (default: . and the issue's set)
#   ROUNDS=3 SPEEDS=9,8 ASPEEDS=8,9 MINMAX=24,26,28,30,32,34
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d "$( [ -d /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}" )/sitegen-native-XXXX")
trap 'rm -rf "$tmp"' EXIT
go build -tags=nodynamic -o "$tmp/native" ./bench/images/native
sites=("$@")
if [ ${#sites[@]} -eq 0 ]; then
	mkdir "$tmp/issue"
	git archive 9c51bb6 | tar -x -C "$tmp/issue"
	[ -e node_modules ] && ln -s "$PWD/node_modules" "$tmp/issue/node_modules"
	sites=(. "$tmp/issue")
fi
command -v avifenc >/dev/null || echo "avifenc not installed (apt-get install libavif-bin): sitegen's side only"
for site in "${sites[@]}"; do
	name=$site
	[ "$site" = "$tmp/issue" ] && name="the issue's set (9c51bb6)"
	echo "== $name, load: $(uptime)"
	XDG_CACHE_HOME="$tmp/xdg" "$tmp/native" -site "$site" -tmp "$tmp" -speeds "${SPEEDS:-9,8}" \
		-minmax "${MINMAX:-24,26,28,30,32,34}" -avifenc-speeds "${ASPEEDS:-8,9}" -stage "${ROUNDS:-3}"
	rm -rf "$tmp/xdg"
done
echo "load: $(uptime)"
