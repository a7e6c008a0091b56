#!/bin/bash
# Records the second held-out set's whole programs on a machine with an NVIDIA GPU:
#   OUT=DIR bash tests/fidelity/heldout2/programs/record.sh     (results under $OUT)
# Each program is built with nvcc for sm_90 twice (-O3 -lineinfo and -G) and run once per
# build; then ncu gives each launch of the -O3 build its duration, cycles, achieved occupancy
# and warp instructions (the programs' own cudaEvent times are printed under ncu too, longer).
# $OUT receives:
#   programs.out       "=== NAME BUILD", what the program printed (stdout and stderr), "exit N"
#   programs.ncu.csv   "=== NAME", ncu --csv of the -O3 build
#   sass.txt           "=== NAME BUILD", cuobjdump -sass
#   env.txt            nvcc, GPU, driver and ncu versions
# Its output lies in tests/data/groundtruth/fidelity/heldout2/programs/ (README.md there).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
export PATH=/usr/local/cuda/bin:$PATH
WORK=$(mktemp -d)
{ nvcc --version; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv; ncu --version; } > "$OUT/env.txt" 2>&1
M=gpu__time_duration.sum,sm__cycles_elapsed.avg,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,launch__registers_per_thread
for src in "$HERE"/*.cu; do
  p=$(basename "$src" .cu)
  nvcc -O3 -arch=sm_90 -lineinfo -o "$WORK/$p.O3" "$src" > "$WORK/$p.O3.log" 2>&1 &
  nvcc -G -arch=sm_90 -o "$WORK/$p.G" "$src" > "$WORK/$p.G.log" 2>&1 &
done
wait
for src in "$HERE"/*.cu; do
  p=$(basename "$src" .cu)
  for b in O3 G; do
    echo "=== $p $b" >> "$OUT/programs.out"
    cat "$WORK/$p.$b.log" >> "$OUT/programs.out"
    "$WORK/$p.$b" >> "$OUT/programs.out" 2>&1
    echo "exit $?" >> "$OUT/programs.out"
    echo "=== $p $b" >> "$OUT/sass.txt"
    cuobjdump -sass "$WORK/$p.$b" >> "$OUT/sass.txt" 2>&1
  done
  echo "=== $p" >> "$OUT/programs.ncu.csv"
  ncu --metrics $M --csv "$WORK/$p.O3" >> "$OUT/programs.ncu.csv" 2>&1
done
rm -rf "$WORK"
