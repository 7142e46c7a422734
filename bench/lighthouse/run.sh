#!/usr/bin/env bash
# Lighthouse over the built site, served as a CDN would: builds the site
# into a fresh temporary folder, serves it with a real nginx (gzip, the
# _nginx.conf the build writes) on 127.0.0.1, and runs Lighthouse's mobile
# preset (simulated throttling) in Debian's chromium over one page per page
# type and language. Prints a Markdown table.
#
#   bench/lighthouse/run.sh                  # every page type, both languages
#   bench/lighthouse/run.sh home post-blog   # only these types
#   LH_RUNS=3 bench/lighthouse/run.sh        # median of 3 runs per page
#   LH_KEEP=1 ...                            # keep the temp folder (JSON reports)
#   LH_TRACE=1 LH_KEEP=1 ...                 # and each run's trace and DevTools log
#   LH_SITE=DIR ...                          # serve this built folder instead of building
#
# Needs Go, Node 20 (lighthouse 12.8.2 is pinned in package-lock.json; 13
# needs Node 22), /usr/sbin/nginx and /usr/bin/chromium.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

# The pinned Lighthouse, installed from the lock file when it changed.
if [ ! -f "$here/node_modules/.package-lock.json" ] || [ "$here/package-lock.json" -nt "$here/node_modules/.package-lock.json" ]; then
	npm ci --prefix "$here" --no-audit --no-fund --loglevel=error
	touch "$here/node_modules/.package-lock.json"
fi

export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
NGINX=${NGINX:-/usr/sbin/nginx}
[ -x "$NGINX" ] || NGINX=$(command -v nginx) || { echo "lighthouse: nginx not found (apt-get install nginx-light)" >&2; exit 1; }
[ -x "$CHROME_PATH" ] || { echo "lighthouse: $CHROME_PATH not found (apt-get install chromium)" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sitegen-lighthouse.XXXXXX")
nginx_pid=""
cleanup() {
	if [ -n "$nginx_pid" ]; then kill "$nginx_pid" 2>/dev/null || true; wait "$nginx_pid" 2>/dev/null || true; fi
	if [ -z "${LH_KEEP:-}" ]; then rm -rf "$tmp"; else echo "lighthouse: kept $tmp" >&2; fi
}
trap cleanup EXIT

site=$tmp/public
if [ -n "${LH_SITE:-}" ]; then
	site=$(cd "$LH_SITE" && pwd)
	echo "lighthouse: serving $site as built" >&2
else
	echo "lighthouse: building sitegen and the site into $site" >&2
	(cd "$repo" && go build -tags=nodynamic -o "$tmp/sitegen" ./cmd/sitegen)
	"$tmp/sitegen" build --source "$repo" --out "$site" >&2
fi

# nginx as a CDN would serve it: gzip for text types, the generated
# snippet for redirects, 404 pages and headers.
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
mkdir -p "$tmp/nginx/tmp" "$tmp/nginx/logs"
cat >"$tmp/nginx/nginx.conf" <<EOF
daemon off;
master_process off;
worker_processes 1;
pid $tmp/nginx/nginx.pid;
error_log stderr warn;
events { worker_connections 256; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log off;
    sendfile on;
    tcp_nopush on;
    gzip on;
    gzip_vary on;
    gzip_comp_level 6;
    gzip_min_length 256;
    gzip_types text/css application/javascript text/javascript application/json application/manifest+json image/svg+xml text/xml application/xml text/plain;
    client_body_temp_path $tmp/nginx/tmp/body;
    proxy_temp_path $tmp/nginx/tmp/proxy;
    fastcgi_temp_path $tmp/nginx/tmp/fastcgi;
    uwsgi_temp_path $tmp/nginx/tmp/uwsgi;
    scgi_temp_path $tmp/nginx/tmp/scgi;
    server {
        listen 127.0.0.1:$port;
        server_name localhost;
        root $site;
        include $site/_nginx.conf;
    }
}
EOF
"$NGINX" -t -q -p "$tmp/nginx" -c "$tmp/nginx/nginx.conf" -e stderr
"$NGINX" -p "$tmp/nginx" -c "$tmp/nginx/nginx.conf" -e stderr &
nginx_pid=$!
for _ in $(seq 100); do
	curl -fso /dev/null "http://127.0.0.1:$port/pl/" && break
	sleep 0.1
done

node "$here/run.mjs" --base "http://127.0.0.1:$port" --root "$site" --reports "$tmp/reports" "$@"
