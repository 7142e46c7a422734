#!/usr/bin/env bash
# The hostile-input probes of issues 24 and 36, each on a small site made in a
# temporary folder, measured with /usr/bin/time -v: exit code, wall time,
# peak memory (maximum resident set) and the first line sitegen printed.
# Prints a Markdown table (bench/probes/README.md holds one run's).
#
#   bash bench/probes/run.sh [SITEGEN]
#
# Run it from the repository root; SITEGEN defaults to a fresh build of
# ./cmd/sitegen. The island probes need node_modules (make setup).
set -euo pipefail
root=$(pwd)
work=$(mktemp -d)
trap 'umount "$work/fdb" "$work/fullfs" 2>/dev/null; rm -rf "$work"' EXIT
export GOFLAGS=-tags=nodynamic
# Every probe starts cold: the caches (pages, images) go to a fresh user
# cache folder.
export XDG_CACHE_HOME=$work/xdg
sg=${1:-}
if [ -z "$sg" ]; then
	sg=$work/sitegen
	go build -o "$sg" ./cmd/sitegen
fi
gen=$work/gen
go build -o "$gen" ./bench/probes/gen

# site DIR: a one-page site (Polish only) with a partial and a layout.
site() {
	mkdir -p "$1"/content/pl "$1"/templates/layouts "$1"/templates/partials "$1"/assets/images
	cat >"$1"/site.yaml <<-'E'
	baseURL: https://example.test
	title: Probe
	locales:
	  - {code: pl, name: Polski, prefix: /pl, default: true}
	E
	printf -- '---\nid: home\ntitle: Start\ndescription: Opis.\n---\nTekst.\n' >"$1"/content/pl/index.md
	echo '<!doctype html><html><head>{{ scripts }}</head><body><main>{{ block "main" . }}{{ end }}</main>{{ partial "partials/footer.html" . }}</body></html>' >"$1"/templates/base.html
	echo '<footer>Probe</footer>' >"$1"/templates/partials/footer.html
	echo '{{ define "main" }}{{ .Page.Content }}{{ end }}' >"$1"/templates/layouts/page.html
}

# island DIR NAME BODY: the page renders island NAME, whose component is BODY.
island() {
	mkdir -p "$1"/assets/islands
	ln -s "$root"/node_modules "$1"/node_modules
	echo "{{ define \"main\" }}{{ island \"$2\" (dict) \"load\" }}{{ end }}" >"$1"/templates/layouts/page.html
	printf '%s\n' "$3" >"$1"/assets/islands/"$2".jsx
}

# measure ROW DIR ARGS...: runs sitegen ARGS in DIR and prints a table row.
measure() {
	local row=$1 dir=$2
	shift 2
	local code=0
	(cd "$dir" && /usr/bin/time -v -o "$work/time" "$sg" "$@" >"$work/stdout" 2>"$work/stderr") || code=$?
	local secs kb line
	secs=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; printf "%.2f", s }' "$work/time")
	kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$work/time")
	line=$(grep -v '^\s*$' "$work/stderr" | head -1 | cut -c1-150 | sed 's/|/\\|/g' || true)
	[ -n "$line" ] || line=$(grep -v '^\s*$' "$work/stdout" | grep -m1 -i -E 'warning|erased|could not' | cut -c1-150 | sed 's/|/\\|/g' || true)
	printf '| %s | %s | %s | %d | %s |\n' "$row" "$code" "$secs" $((kb / 1024)) "$line"
}

echo "| probe | exit | time (s) | peak RSS (MB) | first line of the output |"
echo "|---|---|---|---|---|"

# forms erase: 200 submissions of jan@example.com among 400, written into a
# WAL-mode SQLite database with the schema sitegen made; after the erasure,
# how many copies of the address and of the erased rows' text the database
# file and its WAL still hold.
if command -v sqlite3 >/dev/null; then
	d=$work/forms
	mkdir -p "$d"
	"$sg" forms export --db sqlite:"$d"/f.db --format json >/dev/null
	{
		echo 'PRAGMA journal_mode=WAL; BEGIN;'
		for i in $(seq 1 400); do
			who=jan@example.com
			[ $((i % 2)) = 0 ] || who=ewa$i@example.com
			echo "INSERT INTO submissions VALUES ('id$i', 'k$i', '2026-01-01T00:00:00Z', 'pl', '/pl/kontakt/', '$who', '{\"email\":\"$who\",\"message\":\"Tajna wiadomość $who\"}', '', 'h');"
		done
		echo 'COMMIT;'
	} | sqlite3 "$d"/f.db >/dev/null
	measure "forms erase --email on SQLite (200 of 400 rows)" "$d" forms erase --db sqlite:f.db --email jan@example.com
	left=$(cat "$d"/f.db* | { grep -a -o 'jan@example.com' || true; } | wc -l)
	text=$(cat "$d"/f.db* | { grep -a -o 'Tajna wiadomość jan' || true; } | wc -l)
	echo "|   after the erasure | | | | $left copies of the address and $text of the erased text in f.db and its WAL |"
fi

d=$work/metadata
site "$d"
mkdir -p "$d"/assets/static/uploads
"$gen" gps-jpeg "$d"/assets/static/uploads/photo.jpg
echo '![Zdjęcie](/uploads/photo.jpg)' >>"$d"/content/pl/index.md
measure "photo with GPS and author in assets/static/uploads" "$d" build --date 2026-01-01

for px in 60000 20000; do
	d=$work/png$px
	site "$d"
	"$gen" png $px $px "$d"/assets/images/big.png
	echo '![Duży](/big.png)' >>"$d"/content/pl/index.md
	measure "PNG declaring ${px}×${px} ($(($(stat -c %s "$d"/assets/images/big.png) / 1024)) KB)" "$d" build --date 2026-01-01
done

d=$work/hog
site "$d"
island "$d" Hog 'export default function Hog() { const kept = []; for (let i = 0; ; i++) kept.push(String(i).padEnd(1 << 20, "x")); }'
measure "island keeping 1 MB strings in a loop" "$d" build --date 2026-01-01

d=$work/churn
site "$d"
island "$d" Churn 'export default function Churn() { let s = ""; for (let i = 0; ; i++) s = String(i).padEnd(1 << 20, "x"); return <p>{s}</p>; }'
measure "island making 1 MB strings in a loop, keeping none" "$d" build --date 2026-01-01

d=$work/selftemplate
site "$d"
echo '<footer>{{ template "partials/footer.html" . }}</footer>' >"$d"/templates/partials/footer.html
measure 'partial including itself with {{ template }}' "$d" build --date 2026-01-01

d=$work/mutual
site "$d"
echo '{{ define "a" }}<i>{{ template "b" . }}</i>{{ end }}{{ define "b" }}<b>{{ template "a" . }}</b>{{ end }}<footer>{{ template "a" . }}</footer>' >"$d"/templates/partials/footer.html
measure 'mutual {{ template }} recursion' "$d" build --date 2026-01-01

d=$work/fifo
site "$d"
"$sg" build --source "$d" --out "$work/fifo-out" --cache-dir "$work/fifo-cache" --date 2026-01-01 >/dev/null
seg=$(find "$work/fifo-cache" -name 'seg-*.sgc' | head -1)
mkfifo "$(dirname "$seg")/seg-00000000000000000001-1.sgc"
echo 'Zmiana.' >>"$d"/content/pl/index.md
measure "FIFO named like a cache segment in --cache-dir" "$d" build --date 2026-01-01 --out "$work/fifo-out" --cache-dir "$work/fifo-cache"

d=$work/date
site "$d"
printf -- '---\nid: home\ntitle: Start\ndescription: Opis.\ndate: 2026-02-30\n---\nTekst.\n' >"$d"/content/pl/index.md
measure "date: 2026-02-30 in front matter" "$d" build --date 2026-01-01

d=$work/utf8
site "$d"
printf 'Zły bajt: \xff\xfe.\n' >>"$d"/content/pl/index.md
measure "invalid UTF-8 in a Markdown body" "$d" build --date 2026-01-01

for n in 2000 10000; do
	d=$work/list$n
	site "$d"
	"$gen" deep-list $n "$work/list"
	cat "$work/list" >>"$d"/content/pl/index.md
	measure "list nested $n deep ($(($(stat -c %s "$d"/content/pl/index.md) / 1024 / 1024)) MB)" "$d" build --date 2026-01-01
done

d=$work/siblings
site "$d"
for i in $(seq 1 40); do printf -- '---\nid: p%d\ntitle: P%d\ndescription: Opis.\n---\nTekst.\n' "$i" "$i" >"$d"/content/pl/p$i.md; done
mkdir -p "$work/siblings-out"
"$sg" build --source "$d" --out "$work/siblings-out/a" --date 2026-01-01 --no-cache >/dev/null 2>"$work/sibling-a" &
a=$!
measure "two builds into sibling folders at once (the second)" "$d" build --date 2026-01-01 --no-cache --out "$work/siblings-out/b"
wait $a && echo "|   first build | 0 | | | (exit of the build beside it) |" || echo "|   first build | $? | | | $(head -1 "$work/sibling-a") |"

d=$work/serve
site "$d"
"$gen" gps-jpeg "$d"/assets/images/p.jpg
echo '![P](/p.jpg)' >>"$d"/content/pl/index.md
(cd "$d" && find . | sort) >"$work/serve-before"
(cd "$d" && exec "$sg" serve --port 18391 >/dev/null 2>&1) &
s=$!
for _ in $(seq 1 100); do curl -fs -o /dev/null http://127.0.0.1:18391/pl/ && break; sleep 0.2; done
kill -INT $s
wait $s || true
(cd "$d" && find . | sort) >"$work/serve-after"
new=$(comm -13 "$work/serve-before" "$work/serve-after" | wc -l)
echo "| sitegen serve, one page with a picture | | | | $new new paths in the site folder after serving a page |"

d=$work/cachedir
site "$d"
measure "--cache-dir content" "$d" build --date 2026-01-01 --cache-dir content
measure "--cache-dir ." "$d" build --date 2026-01-01 --cache-dir .

d=$work/slug
site "$d"
printf -- '---\nid: long\ntitle: Długi\ndescription: Opis.\nslug: %s\n---\nTekst.\n' "$(printf 'a%.0s' $(seq 1 300))" >"$d"/content/pl/long.md
measure "slug of 300 characters" "$d" build --date 2026-01-01

d=$work/badimage
site "$d"
printf '\x89PNG\r\n\x1a\nnot a png at all' >"$d"/assets/images/bad.png
echo '![Zły](/bad.png)' >>"$d"/content/pl/index.md
measure "undecodable PNG used in a page" "$d" build --date 2026-01-01

# Issue 36. 1: the AVIF encoder's old variables set, stdin /dev/null: a
# normal build (it exited 0 in 0.4 s and wrote nothing).
d=$work/avifenv
site "$d"
(
	export SITEGEN_AVIF_ENCODER=1 SITEGEN_AVIF_ENCODER_MAX_PIXELS=1000 SITEGEN_AVIF_ENCODER_WORKERS=1
	measure "SITEGEN_AVIF_ENCODER=1 (and its bounds) set, build </dev/null" "$d" build --date 2026-01-01 </dev/null
)
echo "|   after it | | | | $(find "$d"/public -type f 2>/dev/null | wc -l) files in public/ |"

# 2: kill -9 of the encoder process during a cold build with photos, once
# (restarted, the build goes on) and twice (the build fails at once).
d=$work/encoderkill
site "$d"
for i in $(seq 1 8); do
	"$gen" photo 1600 1200 "$i" "$d"/assets/images/p$i.jpg
	echo "![Zdjęcie $i](/p$i.jpg)" >>"$d"/content/pl/index.md
done
for kills in 1 2; do
	rm -rf "$XDG_CACHE_HOME" "$d"/public
	(cd "$d" && exec "$sg" build --date 2026-01-01 >"$work/stdout" 2>"$work/stderr") &
	b=$!
	last=
	killed=$(date +%s.%N)
	for _ in $(seq 1 "$kills"); do
		pid=
		for _ in $(seq 1 600); do
			pid=$(pgrep -P "$b" -f 'AVIF encoder' || true)
			[ -n "$pid" ] && [ "$pid" != "$last" ] && break
			pid=
			sleep 0.05
		done
		[ -n "$pid" ] || break
		sleep 1 # into its encodes
		kill -9 "$pid"
		killed=$(date +%s.%N)
		last=$pid
	done
	code=0
	wait $b || code=$?
	secs=$(echo "$(date +%s.%N) - $killed" | bc)
	line=$(grep -v '^\s*$' "$work/stderr" | head -1 | cut -c1-150 | sed 's/|/\\|/g' || true)
	printf '| AVIF encoder killed (kill -9) %d× during a cold build of 8 photos | %s | %.2f after the last kill | | %s |\n' "$kills" "$code" "$secs" "$line"
done

# 3: a form endpoint that is not a path or an https:// URL.
d=$work/endpoint
site "$d"
printf 'forms:\n  demo:\n    endpoint: "javascript:alert(1)"\n' >>"$d"/site.yaml
measure 'forms.demo.endpoint: "javascript:alert(1)"' "$d" build --date 2026-01-01

# 4: /healthz of the form handler with its SQLite database on a full file
# system (a 16 MB tmpfs, filled once the handler runs; needs root to mount
# it). The handler wants 4 MB free for its commits.
d=$work/verein
cp -r "$root"/testdata/sites/verein "$d"
ln -s "$root"/node_modules "$d"/node_modules
mkdir -p "$work/fdb"
if "$sg" build --source "$d" --out "$d"/public --date 2026-01-01 >/dev/null 2>&1 && mount -t tmpfs -o size=16m tmpfs "$work/fdb" 2>/dev/null; then
	"$sg" forms serve --listen 127.0.0.1:18392 --db sqlite:"$work/fdb/f.db" --schema "$d"/public/_forms/newsletter.schema.json >/dev/null 2>&1 &
	f=$!
	for _ in $(seq 1 100); do curl -fs -o /dev/null http://127.0.0.1:18392/healthz && break; sleep 0.1; done
	before=$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:18392/healthz)
	dd if=/dev/zero of="$work/fdb/filler" bs=4k 2>/dev/null || true
	sleep 11 # past the probe's window
	after=$(curl -s -w ' %{http_code}' http://127.0.0.1:18392/healthz | tr -d '\n')
	post=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' -H 'Accept: application/json' \
		-d '{"email":"jan@example.com","newsletter":true,"lang":"de","page":"/de/","idempotencyKey":"probe-key-00000001"}' http://127.0.0.1:18392/api/newsletter)
	kill -INT $f
	wait $f || true
	umount "$work/fdb"
	echo "| /healthz, the SQLite database's file system full | | | | before: $before; full: $after; a post: $post |"
else
	echo "| /healthz, the SQLite database's file system full | | | | (skipped: no tmpfs without root) |"
fi

# 5: --cache-dir on a full file system (a 128 KB tmpfs, filled).
d=$work/fullcache
site "$d"
mkdir -p "$work/fullfs"
if mount -t tmpfs -o size=128k tmpfs "$work/fullfs" 2>/dev/null; then
	mkdir "$work/fullfs/cache"
	dd if=/dev/zero of="$work/fullfs/filler" bs=4k 2>/dev/null || true
	measure "--cache-dir on a full file system" "$d" build --date 2026-01-01 --cache-dir "$work/fullfs/cache"
	umount "$work/fullfs"
else
	echo "| --cache-dir on a full file system | | | | (skipped: no tmpfs without root) |"
fi

# 6: a page of 20 MB (over the 2 MB limit), one just under the limit, and
# one just under it of nothing but broken links (100 reported).
for mb in 20 2; do
	d=$work/big$mb
	site "$d"
	yes $'Zażółć **gęślą** jaźń, [odnośnik](https://example.com/) i `kod`; lorem _ipsum_ dolor sit amet.\n' | head -c $((mb * 1024 * 1024 - 200)) >>"$d"/content/pl/index.md || true
	measure "a Markdown page of $mb MB" "$d" build --date 2026-01-01
done
d=$work/links
site "$d"
yes "$(printf '[a](/x) %.0s' $(seq 1 200))"$'\n' | head -c $((2 * 1024 * 1024 - 200)) >>"$d"/content/pl/index.md || true
measure "a Markdown page of 2 MB, 260,000 broken links" "$d" build --date 2026-01-01

# 7: init into a regular file, a named pipe, a link to nothing.
d=$work/init
mkdir -p "$d"
touch "$d"/afile
mkfifo "$d"/fifo
ln -s nowhere "$d"/dangling
for t in afile fifo dangling; do measure "init $t" "$d" init "$t"; done

# 8: a --out name of 250 bytes; a file name that is not UTF-8; a locale
# prefix with a space.
d=$work/longout
site "$d"
measure "--out of 250 characters" "$d" build --date 2026-01-01 --out "$(printf 'o%.0s' $(seq 1 250))"
d=$work/badname
site "$d"
printf -- '---\nid: other\ntitle: Inna\ndescription: Opis.\n---\nTekst.\n' >"$d"/content/pl/$'\xff\xfe'.md
measure "a page file name that is not UTF-8" "$d" build --date 2026-01-01
d=$work/prefix
site "$d"
sed -i 's|prefix: /pl|prefix: "/p l"|' "$d"/site.yaml
measure 'locale prefix "/p l"' "$d" build --date 2026-01-01

echo
echo "load average before the last probe: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
