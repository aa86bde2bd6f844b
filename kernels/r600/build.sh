#!/bin/sh
# Rebuild the R600-family fixtures from kernels/r600/src/*.cl with Debian's clang-19 and libclc-19.
#
#   kernels/r600/bin/<mcpu>/<name>.o   clang -c output (ELF32, EM_AMDGPU, code in .text)
#   kernels/r600/bin/<mcpu>/<name>.s   clang -S output for the same compile: the reference listing
#                                      the gpusim r600 disassembler must reproduce and its assembler
#                                      must turn back into the .o's .text bytes
#
# cypress (Evergreen, VLIW5) and cayman (Northern Islands, VLIW4) build every kernel. rv770 (R700) is not built: LLVM 19's r600 backend cannot select any global,
# local or sub-dword store or atomic for it ("Cannot select: store ... addrspace 1/3"); effect-free kernels compile to CF_END only, and the
# one thing that survives (volatile private arrays kept in GPRs) is written as a malformed .o (see src/r600/README.md).
# Tests never run this; they read the committed outputs.
set -eu
cd "$(dirname "$0")"
CLANG=${CLANG:-clang-19}
CLC=${CLC:-/usr/lib/clc}

build() {
  name=$1; cpu=$2; lib=$3
  mkdir -p "bin/$cpu"
  flags="-x cl -target r600 -mcpu=$cpu -nogpulib -O2 -Xclang -mlink-builtin-bitcode -Xclang $CLC/$lib-r600--.bc -include clc/clc.h"
  # shellcheck disable=SC2086
  $CLANG $flags -c "src/$name.cl" -o "bin/$cpu/$name.o"
  # shellcheck disable=SC2086
  $CLANG $flags -S "src/$name.cl" -o "bin/$cpu/$name.s"
}

for f in src/*.cl; do build "$(basename "$f" .cl)" cypress cypress; done
for f in src/*.cl; do build "$(basename "$f" .cl)" cayman cayman; done
# The other Evergreen chips: a subset. LLVM 19 emits byte-identical code for them (their differences,
# FMA / double precision, are data: see R600_CHIPS and r600.alu.no-fp64).
for cpu in redwood juniper cedar sumo; do
  for name in vadd loop_break nested_loop divergent_loop lds_reduce collatz switch_case helper_call; do build "$name" "$cpu" "$cpu"; done
done
