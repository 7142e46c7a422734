#!/usr/bin/env bash
# Makes the web fonts in assets/fonts/ from the pinned @fontsource-variable
# packages (node_modules, package-lock.json): the latin files with their
# weight axis cut to the weights the stylesheet uses, and the Polish letters
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
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# family file axis(min:max) name
make() {
	local family=$1 file=$2 axis=$3 name=$4
	"$py" -m fontTools.varLib.instancer -q "$src/$family/files/$file-latin-wght-normal.woff2" "wght=$axis" -o "$out/$name-latin-wght.woff2"
	"$py" -m fontTools.varLib.instancer -q "$src/$family/files/$file-latin-ext-wght-normal.woff2" "wght=$axis" -o "$tmp/$name-ext.woff2"
	"$py" -m fontTools.subset "$tmp/$name-ext.woff2" --unicodes="$PL" --layout-features='*' --flavor=woff2 \
		--output-file="$out/$name-pl-wght.woff2"
}
make inter inter 400:800 inter
make space-grotesk space-grotesk 400:700 space-grotesk
ls -l "$out"/*.woff2
