#!/bin/bash
# Reproduces the AVIF encoder wasm builds from nothing (needs deb.debian.org):
#   A  = baseline like gen2brain/avif v0.4.4 lib/Makefile.encode (CFLAGS=-O2 + MinSizeRel => -Os)
#   Bp = Release -O3;  B = Release -O3 -msimd128;  B2 = B + -mbulk-memory -mnontrapping-fptoint;  B3 = B2 + LTO
# usage: ./build.sh [A B Bp B2 B3]   (default: A B Bp). Output: build/<variant>/encode.wasm
set -euo pipefail
# It works in $WORK (default /tmp/avifwasm-build), never in the repository.
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=${WORK:-/tmp/avifwasm-build}
mkdir -p "$TOP/shim"
cp "$HERE/wasi.cmake" "$TOP/"
cp "$HERE/shim/setjmp.h" "$TOP/shim/"
cp "$(go env GOMODCACHE)/github.com/gen2brain/avif@v0.4.4/lib/encode.c" "$TOP/encode.c" # unchanged
chmod u+w "$TOP/encode.c"
cd "$TOP"
J=${J:-2}

# --- toolchain (as root) ---
if ! command -v clang-19 >/dev/null || [ ! -f /usr/lib/llvm-19/lib/clang/19/lib/wasi/libclang_rt.builtins-wasm32.a ]; then
  mkdir -p /tmp/apt-archives/partial
  apt-get update
  apt-get -o Dir::Cache::archives=/tmp/apt-archives install -y clang-19 lld-19 libclang-rt-19-dev-wasm32 cmake make
fi

# --- sources (Debian pool; checked against the sha256 in the Sources index) ---
P=http://deb.debian.org/debian/pool/main
mkdir -p dl src
fetch() { [ -f "dl/$2" ] || curl -sSf -o "dl/$2" "$P/$1/$2"; echo "$3  dl/$2" | sha256sum -c -; }
fetch a/aom aom_3.12.1.orig.tar.gz 40c929a41b2a59c24319a699c358351422829b3ae646de31b18cbabed0191962
fetch liba/libavif libavif_1.4.2.orig.tar.gz 2b645287340ba5a631d268b551dc2d72bd73ac33335962dd36dcdb6d8366921d
fetch liby/libyuv 'libyuv_0.0~git20230123.b2528b0.orig.tar.gz' cc22ebe94004ac2e5718acdc45980c6f3b83599f19f5bd768c5ca034de659eef
fetch w/wasi-libc 'wasi-libc_0.0~git20241209.574b88d-2_all.deb' b7716260051d289248b7667f81fa2792c125d888ff51da3fa09c6272cc0bd11d
[ -d wasi-libc/usr ] || { mkdir -p wasi-libc; dpkg-deb -x 'dl/wasi-libc_0.0~git20241209.574b88d-2_all.deb' wasi-libc; }
[ -d src/aom-3.12.1 ] || tar xzf dl/aom_3.12.1.orig.tar.gz -C src
if [ ! -d src/libavif-1.4.2 ]; then
  tar xzf dl/libavif_1.4.2.orig.tar.gz -C src
  # gen2brain deletes these lines; here they become "return AVIF_FALSE;" (no threads in wasm32-wasi; maxThreads=0 never reaches them)
  sed -i 's/^\(\s*\)return pthread_\(create\|join\)(.*$/\1return AVIF_FALSE;/' src/libavif-1.4.2/src/reformat.c
fi
if [ ! -d src/libyuv ]; then
  mkdir -p src/libyuv; tar xzf 'dl/libyuv_0.0~git20230123.b2528b0.orig.tar.gz' -C src/libyuv --strip-components=1
  sed -i '/^ADD_EXECUTABLE\|^TARGET_LINK_LIBRARIES/d' src/libyuv/CMakeLists.txt   # as gen2brain does
fi

TC=$TOP/wasi.cmake
SHIM="-I$TOP/shim"   # setjmp.h shim, see shim/setjmp.h
CC="clang-19 --target=wasm32-wasi --sysroot=$TOP/wasi-libc/usr -fuse-ld=lld"

variant() { # name buildtype cflags linkflags [release-config-flags]
  local N=$1 BT=$2 CF=$3 LF=$4 RF=${5:-} O=$TOP/build/$1
  echo "=== variant $N: CMAKE_BUILD_TYPE=$BT CFLAGS='$CF' link='$LF'"
  mkdir -p $O/aom $O/yuv $O/avif $O/prefix
  local COMMON=(-DCMAKE_TOOLCHAIN_FILE=$TC -DCMAKE_BUILD_TYPE=$BT -DBUILD_SHARED_LIBS=0 -DCMAKE_INSTALL_PREFIX=$O/prefix)
  # flags that must stay out of CMake's compiler checks (-flto objects are bitcode: CMake's ABI detection fails)
  [ -n "$RF" ] && COMMON+=("-DCMAKE_C_FLAGS_RELEASE=-O3 -DNDEBUG $RF" "-DCMAKE_CXX_FLAGS_RELEASE=-O3 -DNDEBUG $RF")
  (cd $O/aom && CFLAGS="$CF" CXXFLAGS="$CF" cmake $TOP/src/aom-3.12.1 "${COMMON[@]}" \
      -DENABLE_DOCS=0 -DENABLE_EXAMPLES=0 -DENABLE_TESTDATA=0 -DENABLE_TESTS=0 -DENABLE_TOOLS=0 \
      -DAOM_TARGET_CPU=generic -DCONFIG_RUNTIME_CPU_DETECT=0 -DCONFIG_MULTITHREAD=0 -DCONFIG_WEBM_IO=0 \
      -DCONFIG_AV1_DECODER=0 -DCONFIG_AV1_ENCODER=1 > cmake.log && make -j$J aom > make.log \
      && mkdir -p $O/prefix/lib $O/prefix/include/aom && cp libaom.a $O/prefix/lib/ && cp $TOP/src/aom-3.12.1/aom/*.h $O/prefix/include/aom/)
  (cd $O/yuv && CFLAGS="$CF" CXXFLAGS="$CF" cmake $TOP/src/libyuv "${COMMON[@]}" > cmake.log && make -j$J yuv > make.log \
      && mkdir -p $O/prefix/lib $O/prefix/include && cp libyuv.a $O/prefix/lib/ && cp -r $TOP/src/libyuv/include/* $O/prefix/include/)
  (cd $O/avif && CFLAGS="$CF" CXXFLAGS="$CF" cmake $TOP/src/libavif-1.4.2 "${COMMON[@]}" \
      -DAVIF_CODEC_AOM=SYSTEM -DAVIF_CODEC_AOM_DECODE=0 -DAVIF_CODEC_AOM_ENCODE=1 \
      -DAOM_INCLUDE_DIR=$O/prefix/include -DAOM_LIBRARY=$O/prefix/lib/libaom.a \
      -DAVIF_LIBYUV=SYSTEM -DLIBYUV_INCLUDE_DIR=$O/prefix/include -DLIBYUV_LIBRARY=$O/prefix/lib/libyuv.a \
      -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON -DAVIF_LIBSHARPYUV=OFF -DAVIF_ZLIBPNG=OFF -DAVIF_JPEG=OFF -DAVIF_LIBXML2=OFF > cmake.log && make -j$J avif > make.log)
  grep -i 'libyuv' $O/avif/cmake.log || true
  $CC -O3 $LF -Wl,--no-entry -Wl,--export=malloc -Wl,--export=free -Wl,--export=encode \
      -mexec-model=reactor -mnontrapping-fptoint -z stack-size=1048576 \
      -I $TOP/src/libavif-1.4.2/include -o $O/encode.wasm -Wall $TOP/encode.c \
      $O/avif/libavif_internal.a $O/prefix/lib/libyuv.a $O/prefix/lib/libaom.a
  ls -la $O/encode.wasm
}

for v in "${@:-A B Bp}"; do
  for w in $v; do
    case $w in
      A)  variant A  MinSizeRel "-O2 $SHIM"            "" ;;   # gen2brain: export CFLAGS=-O2 + MinSizeRel (-Os -DNDEBUG appended)
      B)  variant B  Release    "-O3 -msimd128 $SHIM"  "-msimd128" ;;
      Bp) variant Bp Release    "-O3 $SHIM"            "" ;;
      # extras: B2 = B + bulk-memory (memcpy/memset as memory.copy/fill) + non-trapping float-to-int everywhere;
      #         B3 = B2 + LTO (whole-program optimisation at the wasm-ld link)
      B2) variant B2 Release "-O3 -msimd128 -mbulk-memory -mnontrapping-fptoint $SHIM" "-msimd128 -mbulk-memory" ;;
      B3) variant B3 Release "-O3 -msimd128 -mbulk-memory -mnontrapping-fptoint $SHIM" "-msimd128 -mbulk-memory -flto -Wl,--lto-O3" "-flto" ;;
      *) echo "unknown variant $w"; exit 1 ;;
    esac
  done
done
