#!/bin/sh
# Rebuild the benchmark-only kernels (bench/kernels/src/*.cl) for gfx1100 with Debian's LLVM 19:
#   bench/kernels/bin/<name>.co       wave32 (default for gfx11), code object v5
#   bench/kernels/bin/<name>.w64.co   wave64
# The other benchmark kernels are the fixtures of kernels/ (kernels/build.sh). The outputs are
# committed; `npm run bench` never compiles. Requires clang-19 and ld.lld-19.
set -eu
cd "$(dirname "$0")"
CLANG=${CLANG:-clang-19}
LLD=${LLD:-ld.lld-19}
CFLAGS="-x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -nogpulib -O2 -cl-kernel-arg-info -I../../kernels/include -mcpu=gfx1100"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p bin
for f in src/*.cl; do
  k=$(basename "$f" .cl)
  # shellcheck disable=SC2086
  $CLANG $CFLAGS -c "$f" -o "$tmp/$k.o"
  $LLD -shared "$tmp/$k.o" -o "bin/$k.co"
  # shellcheck disable=SC2086
  $CLANG $CFLAGS -mwavefrontsize64 -c "$f" -o "$tmp/$k.w64.o"
  $LLD -shared "$tmp/$k.w64.o" -o "bin/$k.w64.co"
done
echo "built $(ls bin/*.co | wc -l) objects"
