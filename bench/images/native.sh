#!/usr/bin/env bash
# The image stage of a site against the native encoder: sitegen's image
# stage, cold and warm (bench/images/pipeline), then its AVIF variants
# encoded by sitegen's encoder and by Debian's avifenc (libavif-bin, where
# installed) on the same pixels, avifenc's quantizer swept to match
# sitegen's SSIM (bench/images/native). CPU seconds are user + system of
# every process, the encoder processes included. The user cache folder is
# an empty temporary one, so the first encoder start compiles the module.
#
#   bench/images/native.sh [SITE]    (default: this repository's site)
set -euo pipefail
cd "$(dirname "$0")/../.."
site=${1:-.}
tmp=$(mktemp -d "$( [ -d /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}" )/sitegen-native-XXXX")
trap 'rm -rf "$tmp"' EXIT
go build -tags=nodynamic -o "$tmp/pipeline" ./bench/images/pipeline
go build -tags=nodynamic -o "$tmp/native" ./bench/images/native
echo "load: $(uptime)"
echo "== sitegen's image stage (every variant: AVIF and the JPEG/PNG fallbacks)"
XDG_CACHE_HOME="$tmp/xdg" "$tmp/pipeline" -site "$site" -tmp "$tmp"
rm -rf "$tmp/xdg"
echo "== the AVIF variants, one encode at a time: sitegen (speed 9, the default; speed 8, the old one) and avifenc -s 8"
XDG_CACHE_HOME="$tmp/xdg" "$tmp/native" -site "$site" -tmp "$tmp" -speeds 9,8 -minmax "${MINMAX:-24,26,28,30,32,34}"
echo "load: $(uptime)"
