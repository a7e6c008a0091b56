#!/bin/bash
# Builds and runs the programs of tests/programs/cuda_features/ (flush-to-zero, vector
# constant loads, aggregates in registers) on the GPU machine, from the repository root:
#   bash tests/data/groundtruth/cuda/features.sh   (PROGRAMS=DIR to take them from elsewhere)
# Writes under $OUT (default tests/data/groundtruth/cuda/out): features.txt, in the format
# of runtime.sh (nvcc --version and the GPU at the top, then per program "=== NAME
# exit=STATUS", its stdout, "--- stderr", its stderr), and features_sass.txt: per program
# the ptxas resource report (-Xptxas -v) and `cuobjdump -sass` of its kernels.  Each
# program is built with `nvcc -std=c++17 -arch=sm_90` plus the options of its first line
# (`// minicuda-run: -ftz=true`) and runs in an empty scratch folder under timeout 60.
ROOT=$(pwd)
PROGRAMS=${PROGRAMS:-$ROOT/tests/programs/cuda_features}
OUTDIR=${OUT:-$ROOT/tests/data/groundtruth/cuda/out}
mkdir -p "$OUTDIR"
RESULT=$OUTDIR/features.txt
SASS=$OUTDIR/features_sass.txt
WORK=$(mktemp -d)
{
  echo "# nvcc --version"
  nvcc --version
  echo "# nvidia-smi"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
} > "$RESULT" 2>&1
: > "$SASS"
for src in "$PROGRAMS"/*.cu; do
  name=$(basename "$src" .cu)
  flags=$(head -1 "$src" | sed -n 's|^// minicuda-run:||p')
  cmd="nvcc -std=c++17 -arch=sm_90 $flags -Xptxas -v -o $WORK/$name $src"
  if ! $cmd > "$WORK/$name.build" 2>&1; then
    { echo "=== $name build-failed"; echo "\$ $cmd"; cat "$WORK/$name.build"; } >> "$RESULT"
    continue
  fi
  { echo "=== $name"; echo "\$ $cmd"; cat "$WORK/$name.build"; cuobjdump -sass "$WORK/$name"; } >> "$SASS" 2>&1
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
echo "wrote $RESULT and $SASS"
