#!/bin/bash
# Builds and runs the C++ language programs (tests/programs/cxx_language/*.cu) and the CUDA
# intrinsics programs (tests/programs/cuda_intrinsics, but legacy_warp: sm_60 only) on the GPU
# machine, from the repository root: bash tests/data/groundtruth/cxx/language.sh [PROGRAM.cu ...]
# (the programs named, else all of them).
# One file, $OUT/language.txt (default tests/data/groundtruth/cxx/out): nvcc --version and
# the GPU at the top, then per program "=== NAME exit=STATUS", its stdout, "--- stderr" and
# its stderr; a failed build is "=== NAME build-failed" with nvcc's output. Each program is
# built with `nvcc -std=c++17 --extended-lambda -arch=sm_90` (and --expt-relaxed-constexpr
# where the program says so, and the options of a first line `// minicuda-run: OPTIONS`,
# nvcc's spelling, e.g. -use_fast_math) and runs in an empty scratch
# folder (the files it writes are its own) under timeout 60.
ROOT=$(pwd)
OUTDIR=${OUT:-$ROOT/tests/data/groundtruth/cxx/out}
mkdir -p "$OUTDIR"
RESULT=$OUTDIR/language.txt
WORK=$(mktemp -d)
{
  echo "# nvcc --version"
  nvcc --version
  echo "# nvidia-smi"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  echo "# host compiler"
  g++ --version | head -1
} > "$RESULT" 2>&1
if [ $# -gt 0 ]; then
  PROGRAMS=("$@")
else
  PROGRAMS=("$ROOT"/tests/programs/cxx_language/*.cu
            "$ROOT"/tests/programs/cuda_intrinsics/{bit_intrinsics,conversions,fast_math,fast_math_option}.cu)
fi
for src in "${PROGRAMS[@]}"; do
  name=$(basename "$src" .cu)
  flags=$(grep -q "expt-relaxed-constexpr" "$src" && echo --expt-relaxed-constexpr)
  flags="$flags $(head -1 "$src" | sed -n 's|^// minicuda-run:||p')"; cmd="nvcc -std=c++17 --extended-lambda $flags -arch=sm_90 -o $WORK/$name $src"
  if ! $cmd > "$WORK/$name.build" 2>&1; then
    { echo "=== $name build-failed"; echo "\$ $cmd"; cat "$WORK/$name.build"; } >> "$RESULT"
    continue
  fi
  run=$WORK/run/$name
  mkdir -p "$run"
  (cd "$run" && exec timeout 60 "$WORK/$name") > "$WORK/$name.out" 2> "$WORK/$name.err"
  status=$?
  {
    echo "=== $name exit=$status"
    cat "$WORK/$name.out"; [ -n "$(tail -c1 "$WORK/$name.out")" ] && echo
    echo "--- stderr"
    cat "$WORK/$name.err"; [ -n "$(tail -c1 "$WORK/$name.err")" ] && echo
  } >> "$RESULT"
done
echo "=== end" >> "$RESULT"
rm -rf "$WORK"
echo "wrote $RESULT"
