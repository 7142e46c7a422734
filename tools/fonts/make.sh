#!/usr/bin/env bash
# Makes the web fonts in assets/fonts/ from the pinned @fontsource-variable
# packages (node_modules, package-lock.json): the latin files with their
# weight axis cut to the weights the stylesheet uses and only the OpenType
# features the site uses (every page preloads them, assets/fonts/README.md), and the Polish letters
# (ąćęłńśźż ĄĆĘŁŃŚŹŻ; Óó are latin) as a file of their own. Polish pages
# then fetch 5 KB (Inter) and 3 KB (Space Grotesk) for their letters instead
# of the 85 KB and 19 KB latin-ext files, which stay for any other letter
# (fonts.css). Measured with bench/lighthouse: the fonts a page fetches
# before its first paint count in the mobile FCP/LCP.
#
# Needs Debian's python3-fonttools and python3-brotli (apt-get install
# python3-fonttools python3-brotli). The output is committed; run this
# again after updating the font packages.
set -euo pipefail
cd "$(dirname "$0")/../.."
py=/usr/bin/python3
# The same bytes on every run: fontTools stamps head.modified with this.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1700000000}
src=node_modules/@fontsource-variable
out=assets/fonts
PL="U+0104-0107,U+0118-0119,U+0141-0144,U+015A-015B,U+0179-017C"
# fontsource's latin range (what the latin files hold; fonts.css says the same).
LATIN="U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD"
# The OpenType features the site's text needs (tabular-nums in the tables and
# figures, the default shaping set); the fractions, numerator/denominator and
# stylistic sets it never asks for are left out: Inter's latin file 37 -> 29 KB.
FEATURES="kern,liga,calt,ccmp,locl,mark,mkmk,tnum,case"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# family file axis(min:max) name
make() {
	local family=$1 file=$2 axis=$3 name=$4
	"$py" -m fontTools.varLib.instancer -q "$src/$family/files/$file-latin-wght-normal.woff2" "wght=$axis" -o "$tmp/$name-latin.ttf"
	"$py" -m fontTools.subset "$tmp/$name-latin.ttf" --unicodes="$LATIN" --layout-features="$FEATURES" --flavor=woff2 \
		--output-file="$out/$name-latin-wght.woff2"
	"$py" -m fontTools.varLib.instancer -q "$src/$family/files/$file-latin-ext-wght-normal.woff2" "wght=$axis" -o "$tmp/$name-ext.ttf"
	"$py" -m fontTools.subset "$tmp/$name-ext.ttf" --unicodes="$PL" --layout-features="$FEATURES" --flavor=woff2 \
		--output-file="$out/$name-pl-wght.woff2"
}
make inter inter 400:800 inter
make space-grotesk space-grotesk 400:700 space-grotesk
ls -l "$out"/*.woff2
