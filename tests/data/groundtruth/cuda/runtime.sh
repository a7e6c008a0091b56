#!/bin/bash
# Builds and runs the CUDA runtime programs (tests/programs/cuda_runtime/*.cu) on the GPU
# machine, from the repository root: bash tests/data/groundtruth/cuda/runtime.sh
# One file, $OUT/runtime.txt (default tests/data/groundtruth/cuda/out): nvcc --version and
# the GPU at the top, then per program "=== NAME exit=STATUS", its stdout, "--- stderr" and
# its stderr; a failed build is "=== NAME build-failed" with nvcc's output. Each program is
# built with `nvcc -std=c++17 -arch=sm_90` plus the options of its first line
# (`// minicuda-run: -rdc=true`, which nvcc takes as minicuda does) and runs in an empty
# scratch folder under timeout 60.
ROOT=$(pwd)
OUTDIR=${OUT:-$ROOT/tests/data/groundtruth/cuda/out}
mkdir -p "$OUTDIR"
RESULT=$OUTDIR/runtime.txt
WORK=$(mktemp -d)
{
  echo "# nvcc --version"
  nvcc --version
  echo "# nvidia-smi"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
} > "$RESULT" 2>&1
for src in "$ROOT"/tests/programs/cuda_runtime/*.cu; do
  name=$(basename "$src" .cu)
  flags=$(head -1 "$src" | sed -n 's|^// minicuda-run:||p')
  case " $flags " in *" -arch="*|*" -arch "*) arch= ;; *) arch=-arch=sm_90 ;; esac
  cmd="nvcc -std=c++17 $arch $flags -o $WORK/$name $src"
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
