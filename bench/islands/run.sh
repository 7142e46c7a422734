#!/bin/sh
# Engine measurements for pkg/islands/ENGINES.md. Run from the module root:
#   sh bench/islands/run.sh
set -e
out=$(mktemp -d)
for e in base quickjs goja; do
	# a module of its own, so that goja is no dependency of sitegen
	(cd bench/islands/enginesize && go build -tags enginesize -trimpath -ldflags='-s -w' -o "$out/$e" ./$e)
done
base=$(stat -c %s "$out/base")
for e in base quickjs goja; do
	s=$(stat -c %s "$out/$e")
	echo "$e: $s bytes (+$((s - base)) over base, stripped)"
done
rm -rf "$out"
go test ./pkg/islands -run '^$' -bench 'SSR|Load' -benchtime 1000x -benchmem
