# sitegen: the two commands a newcomer needs are `make serve` and `make test`.
SHELL := /bin/bash
PORT ?= 1313
GO ?= go

.PHONY: setup build serve test vet fuzz bench bench-islands clean

# npm packages (islands, icons, fonts), installed from the pinned lock file.
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

setup: node_modules/.package-lock.json

bin/sitegen: setup $(shell find cmd pkg -name '*.go' -not -name '*_test.go') go.mod go.sum
	$(GO) build -o bin/sitegen ./cmd/sitegen

build: bin/sitegen
	./bin/sitegen build

serve: bin/sitegen
	./bin/sitegen serve --port $(PORT)

vet:
	test -z "$$(gofmt -l cmd pkg sitetest bench)" || { gofmt -l cmd pkg sitetest bench; exit 1; }
	$(GO) vet ./...

# Browser tests run wherever Debian's chromium is installed (CI installs it);
# in CI a missing chromium is a failure, not a skip.
test: setup vet
	SITEGEN_BROWSER=$$(command -v chromium >/dev/null && echo 1) $(GO) test ./...
	@$(MAKE) --no-print-directory fuzz

# Fuzz targets as package:FuzzFunc, each run for FUZZTIME (make test runs
# them all; keep the total under a minute). A failing input is saved under
# the package's testdata/fuzz/ and replays in every later `go test`.
FUZZTIME ?= 5s
FUZZ_TARGETS := \
	./pkg/yamlx:FuzzDecode \
	./pkg/content:FuzzParsePage \
	./pkg/content:FuzzParseData \
	./pkg/config:FuzzParse \
	./pkg/sitepath:FuzzCheck

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		echo "fuzz $${t#*:} in $${t%%:*} for $(FUZZTIME)"; \
		$(GO) test "$${t%%:*}" -run '^$$' -fuzz "^$${t#*:}$$" -fuzztime $(FUZZTIME) >/dev/null || \
			{ $(GO) test "$${t%%:*}" -run "^$${t#*:}$$" -count=1; exit 1; }; \
	done

bench: setup
	$(GO) test ./pkg/build -run '^$$' -bench . -benchtime 1x -timeout 30m

clean:
	rm -rf bin public
