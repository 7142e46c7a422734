# sitegen: the two commands a newcomer needs are `make serve` and `make test`.
SHELL := /bin/bash
PORT ?= 1313
GO ?= go
# The image encoders (gen2brain/avif, webp) run as WebAssembly everywhere:
# without this tag they would use a system libavif/libwebp when one is
# installed, and the output (and the encoder id in the cache key) would
# depend on the machine.
export GOFLAGS := $(strip $(GOFLAGS) -tags=nodynamic)

.PHONY: setup host-tools browser-tools build serve dist test vet fuzz fuzz-warm bench bench-devloop bench-devfirst bench-islands bench-forms pagebytes lighthouse clean

# npm packages (islands, icons, fonts), installed from the pinned lock file.
# A node_modules that is a link (a git worktree sharing another checkout's
# packages) is left alone: npm ci would empty the folder it points to.
node_modules/.package-lock.json: package.json package-lock.json
	@if [ -L node_modules ]; then echo "node_modules is a link: not reinstalling"; else npm ci --no-audit --no-fund --loglevel=error && touch $@; fi

setup: node_modules/.package-lock.json

# The hosts' own software for the hosting tests (internal/hosttest): Cloudflare's
# wrangler and Netlify's rule parsers, pinned in tools/hosts. Not needed to
# build or serve a site.
tools/hosts/node_modules/.package-lock.json: tools/hosts/package.json tools/hosts/package-lock.json
	cd tools/hosts && npm ci --no-audit --no-fund --loglevel=error && touch node_modules/.package-lock.json

host-tools: tools/hosts/node_modules/.package-lock.json

# A second browser engine for the runtime's journeys (sitetest/firefox):
# puppeteer-core, pinned in tools/browsers, drives Debian's firefox-esr over
# WebDriver BiDi. It downloads no browser. Not needed to build or serve.
tools/browsers/node_modules/.package-lock.json: tools/browsers/package.json tools/browsers/package-lock.json
	cd tools/browsers && npm ci --no-audit --no-fund --loglevel=error && touch node_modules/.package-lock.json

browser-tools: tools/browsers/node_modules/.package-lock.json

bin/sitegen: setup $(shell find cmd pkg -name '*.go' -not -name '*_test.go') go.mod go.sum
	$(GO) build -o bin/sitegen ./cmd/sitegen

build: bin/sitegen
	./bin/sitegen build

serve: bin/sitegen
	./bin/sitegen serve --port $(PORT)

vet:
	test -z "$$(gofmt -l cmd pkg sitetest bench)" || { gofmt -l cmd pkg sitetest bench; exit 1; }
	$(GO) vet ./...

# Browser tests run wherever Debian's chromium is installed (CI installs it),
# the hosting test wherever nginx is; in CI a missing one is a failure, not a
# skip. Without them, make test says so before and after the run.
test: setup host-tools browser-tools vet
	@skipped=""; \
	command -v chromium >/dev/null || skipped="$$skipped\nmake test: chromium not found: the browser tests (sitetest) were SKIPPED; install it to run them: sudo apt-get install chromium"; \
	{ command -v nginx >/dev/null || test -x /usr/sbin/nginx; } || skipped="$$skipped\nmake test: nginx not found: the nginx hosting tests (TestHosts*/nginx) were SKIPPED; install it to run them: sudo apt-get install nginx"; \
	{ command -v firefox-esr >/dev/null || command -v firefox >/dev/null; } || skipped="$$skipped\nmake test: firefox-esr not found: the Firefox journeys (TestFirefox) were SKIPPED; install it to run them: sudo apt-get install firefox-esr"; \
	test -x /usr/sbin/apache2 || skipped="$$skipped\nmake test: apache2 not found: the Apache hosting tests (TestHosts*/apache) were SKIPPED; install it to run them: sudo apt-get install apache2"; \
	command -v xmllint >/dev/null || skipped="$$skipped\nmake test: xmllint not found: the feed schema test (TestPolyglotFeedSchemas) was SKIPPED; install it to run it: sudo apt-get install libxml2-utils"; \
	command -v avifenc >/dev/null || skipped="$$skipped\nmake test: avifenc not found: the native AVIF encoder's test (TestNativeAVIFKeepsQuality) was SKIPPED; install it to run it: sudo apt-get install libavif-bin"; \
	test -z "$$skipped" || echo -e "$${skipped#\\n}"; \
	SITEGEN_BROWSER=$$(command -v chromium >/dev/null && echo 1) $(GO) test -timeout 20m ./...; status=$$?; \
	test -z "$$skipped" || echo -e "$${skipped#\\n}"; \
	test $$status -eq 0 || exit $$status; \
	$(MAKE) --no-print-directory fuzz

# Fuzz targets as package:FuzzFunc, each run for FUZZTIME (make test runs
# them all; keep the total under a minute). A failing input is saved under
# the package's testdata/fuzz/ and replays in every later `go test`.
FUZZTIME ?= 5s
FUZZ_TARGETS := \
	./pkg/yamlx:FuzzDecode \
	./pkg/yamlx:FuzzDecodeNodes \
	./pkg/content:FuzzParsePage \
	./pkg/content:FuzzParseData \
	./pkg/content:FuzzSlugAndIDGrammar \
	./pkg/config:FuzzParse \
	./pkg/forms:FuzzValidateForm \
	./pkg/forms:FuzzValidateJSON \
	./pkg/sitepath:FuzzCheck \
	./pkg/output:FuzzRedirectWriters \
	./pkg/output:FuzzBetween \
	./pkg/htmlmin:FuzzCompact \
	./pkg/images:FuzzImageHeader \
	./pkg/images:FuzzAVIFRequest \
	./pkg/render:FuzzTemplateRecursion \
	./pkg/markdown:FuzzQuickLinkify

# A failing input is saved under testdata/fuzz/ and replayed: that always
# fails. A fuzz run that fails without leaving a reproducible input (the
# engine's own trouble, e.g. a worker that stopped) prints its output and is
# run once more; failing twice fails.
fuzz:
	@set -e; log=$$(mktemp); trap 'rm -f $$log' EXIT; \
	for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; fn=$${t#*:}; \
		echo "fuzz $$fn in $$pkg for $(FUZZTIME)"; \
		$(GO) test "$$pkg" -run '^$$' -fuzz "^$$fn$$" -fuzztime $(FUZZTIME) >$$log 2>&1 && continue; \
		grep -v '^fuzz: elapsed' $$log | tail -40; \
		$(GO) test "$$pkg" -run "^$$fn$$" -count=1 || exit 1; \
		echo "fuzz $$fn: failed without a reproducible input; running it once more"; \
		$(GO) test "$$pkg" -run '^$$' -fuzz "^$$fn$$" -fuzztime $(FUZZTIME) >$$log 2>&1 || \
			{ grep -v '^fuzz: elapsed' $$log | tail -40; exit 1; }; \
	done

# The differential test of warm builds at length (docs/incremental.md):
# about 5,000 seeded mutations of the fixture sites and this website, a
# warm build equal to a build without the cache after each.
fuzz-warm: setup
	bench/warmdiff/run.sh

# The Go benchmarks, then the same-run comparison with the peers of the
# shared harness on disk and in RAM (bench/ssgbench/RESULTS.md; SETUP=1 installs
# the peers once; BENCH_N pages per locale).
BENCH_N ?= 1000
BENCH_PEERS ?= sitegen hugo
bench: setup
	$(GO) test ./pkg/build -run '^$$' -bench . -benchtime 1x -timeout 30m
	bench/ssgbench/compare.sh $(BENCH_N) $(BENCH_PEERS)

# The authoring loop: write -> reload event for page, data and template edits
# on the real site and on 10,000 generated pages, and the server's memory;
# and the time from starting `sitegen serve` on a fresh clone (empty caches)
# to its first 200 answer (BenchmarkFirstAnswer, s/first-answer).
bench-devloop: setup
	$(GO) test ./bench/devloop -run '^$$' -bench . -benchtime 5x -timeout 30m -v

# `sitegen serve` on 10,000 generated pages (DEVFIRST_N per locale): the first
# answer, the load, the memory after 100 random pages (and hugo server where
# installed); docs/benchmarks.md.
DEVFIRST_N ?= 5000
bench-devfirst:
	bench/devfirst/run.sh $(DEVFIRST_N)

# The demo-request handler under load on loopback: durable submissions/s and
# p99 for SQLite (WAL, synchronous=FULL; on disk and in RAM) and, when
# SITEGEN_TEST_POSTGRES is set, PostgreSQL.
bench-forms:
	$(GO) run ./bench/forms -db sqlite -dir $${TMPDIR:-/tmp}
	$(GO) run ./bench/forms -db sqlite -dir /dev/shm
	@if [ -n "$$SITEGEN_TEST_POSTGRES" ]; then $(GO) run ./bench/forms -db "$$SITEGEN_TEST_POSTGRES"; else echo "bench-forms: SITEGEN_TEST_POSTGRES not set: PostgreSQL skipped"; fi

# Bytes per page type and language (HTML, CSS, JS; images above the fold
# measured in headless Chromium at 390 and 1280 px), built in temporary
# folders at PAGEBYTES_BEFORE (default: the site before the image pipeline)
# and PAGEBYTES_AFTER (default: the working tree). See bench/pagebytes.
pagebytes: setup
	PAGEBYTES_BEFORE="$(PAGEBYTES_BEFORE)" PAGEBYTES_AFTER="$(PAGEBYTES_AFTER)" $(GO) run ./bench/pagebytes

# Lighthouse's mobile preset over one page per page type and language, the
# site built into a temporary folder and served by nginx as a CDN would
# (bench/lighthouse/run.sh; installs its pinned lighthouse with npm ci).
# LH_RUNS=3 for the median of three runs per page.
lighthouse:
	bench/lighthouse/run.sh

# Release archives for linux, darwin and windows on amd64 and arm64, with
# SHA256SUMS, built reproducibly from the commit (tools/dist).
dist:
	rm -rf dist
	$(GO) run ./tools/dist -out dist

clean:
	rm -rf bin public dist
