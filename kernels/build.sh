#!/bin/sh
# Rebuild every kernel fixture from kernels/src/*.cl with Debian's LLVM 19.
#
#   kernels/bin/<cpu>/<name>.co               default build (wave32 on gfx10+, wave64 on gfx9; code object v5)
#   kernels/bin/<cpu>/<name>.w64.co           wave64 build (gfx1100, gfx1030)
#   kernels/bin/gfx1100/<name>.v4.co/.v6.co   code object v4 / v6 builds of a few kernels
#   kernels/bin/gfx1100/<name>.o              relocatable object (clang -c output, not linked) of a few kernels
# and next to each object:
#   <obj>.objdump.txt   llvm-objdump -d --mcpu=<cpu>   (reference disassembly)
#   <obj>.facts.json    facts read off LLVM: llvm-readobj's ELF header/sections/symbols/notes and
#                       the .amdhsa_* directives clang emits for each kernel descriptor (kernels/facts.py)
#
# Kernels that include "gpusim_cl.h" build with -nogpulib on that header (the original fixtures,
# kept byte-stable because decoder tests pin them). Every other kernel uses the OpenCL builtins of
# libclc-19 (Debian package libclc-19): clang's default OpenCL header plus libclc's amdgcn-amdhsa
# bitcode linked with -mlink-builtin-bitcode (so its functions take the kernel's -mcpu/features).
#
# Tests never run this; they read the committed outputs. Requires clang-19, ld.lld-19,
# llvm-objdump-19, llvm-readobj-19, libclc-19 and python3 with PyYAML.
set -eu
cd "$(dirname "$0")"
CLANG=${CLANG:-clang-19}
LLD=${LLD:-ld.lld-19}
OBJDUMP=${OBJDUMP:-llvm-objdump-19}
READOBJ=${READOBJ:-llvm-readobj-19}
CFLAGS="-x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -nogpulib -O2 -cl-kernel-arg-info -Iinclude"
LIBCLC=${LIBCLC:-/usr/lib/clc/amdgcn--amdhsa.bc}
# libclc's bitcode says amdgcn-unknown-amdhsa, clang says amdgcn-amd-amdhsa: same target, silence the warning.
CLCFLAGS="-Xclang -finclude-default-header -Xclang -mlink-builtin-bitcode -Xclang $LIBCLC -Wno-linker-warnings"
# Kernels also built as code object v4 and v6 and as relocatable objects.
COV_KERNELS="vadd reduce_dynlds global_offset multi"
REL_KERNELS="vadd multi"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# build <src> <cpu> <out basename> <extra clang flags...>
build() {
  src=$1; cpu=$2; out=$3; shift 3
  dir=bin/$cpu
  mkdir -p "$dir"
  name=$(basename "$out")
  flags=$CFLAGS
  grep -q '#include "gpusim_cl.h"' "src/$src.cl" || flags="$CFLAGS $CLCFLAGS"
  # A kernel may ask for extra clang flags with a line "// build: <flags>".
  extra=$(sed -n 's|^// build: ||p' "src/$src.cl")
  [ -z "$extra" ] || flags="$flags $extra"
  # shellcheck disable=SC2086
  $CLANG $flags -mcpu="$cpu" "$@" -c "src/$src.cl" -o "$tmp/$name.o" 2>"$tmp/err" || { cat "$tmp/err"; exit 1; }
  # shellcheck disable=SC2086
  $CLANG $flags -mcpu="$cpu" "$@" -S "src/$src.cl" -o "$tmp/$name.s" 2>/dev/null
  case $out in
    *.o) cp "$tmp/$name.o" "$dir/$name" ;;
    *) $LLD -shared "$tmp/$name.o" -o "$dir/$name" ;;
  esac
  (cd "$dir" && $OBJDUMP -d --mcpu="$cpu" "$name" > "$name.objdump.txt")
  (cd "$dir" && $READOBJ --elf-output-style=JSON -h -S --symbols --dyn-syms --notes "$name") > "$tmp/$name.readobj.json"
  python3 facts.py "$cpu" "$tmp/$name.readobj.json" "$tmp/$name.s" > "$dir/$name.facts.json"
}

# kernels/build.sh [name...] rebuilds only the named kernels (default: all of src/*.cl).
only=" $* "
want() { [ "$only" = "  " ] || case $only in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

for f in src/*.cl; do
  k=$(basename "$f" .cl)
  want "$k" || continue
  for cpu in gfx1100 gfx1030 gfx900; do
    build "$k" "$cpu" "$k.co"
  done
  for cpu in gfx1100 gfx1030; do
    build "$k" "$cpu" "$k.w64.co" -mwavefrontsize64
  done
done
for k in $COV_KERNELS; do
  want "$k" || continue
  build "$k" gfx1100 "$k.v4.co" -mcode-object-version=4
  build "$k" gfx1100 "$k.v6.co" -mcode-object-version=6
done
for k in $REL_KERNELS; do
  want "$k" || continue
  build "$k" gfx1100 "$k.o"
done
echo "built $(ls bin/*/*.co bin/*/*.o | wc -l) objects"
