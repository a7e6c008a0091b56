#!/bin/bash
# nvcc -G for sm_90 of loopshape.cu: its SASS, its output and ncu's counters per launch (the
# fidelity suite's metrics, tests/fidelity/record.sh); and samples/warpLock.cu built -G, run in
# both modes under a time limit, with its SASS (does nvcc -G's loop BSSY/BSYNC deadlock a spin lock?).
#   OUT=dir bash tests/data/groundtruth/fidelity/gshape/record.sh   (from the repository root)
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
D=$OUT/gshape; mkdir -p "$D"; start=$(date +%s)
{ nvcc --version | tail -2; ncu --version | tail -1
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader; } > "$D/versions.txt" 2>&1
cp "$HERE/loopshape.cu" "$D/"
cp samples/warpLock.cu "$D/warpLock.cu"
cd "$D"
nvcc -G -arch=sm_90 -o ls_G loopshape.cu > build_G.log 2>&1
nvcc -G -arch=sm_90 -o wl_G warpLock.cu >> build_G.log 2>&1
nvcc -O3 -arch=sm_90 -o wl_O3 warpLock.cu >> build_G.log 2>&1
cuobjdump -sass ls_G > sm_90_G.sass 2>&1
cuobjdump -sass wl_G | grep -v "^\s*/\* [0-9a-fx]* \*/\s*$" | sed 's|;.*||' | grep -v "^\s*$" > warpLock_sm_90_G.sass 2>&1
./ls_G > out_G.txt 2>&1
for b in G O3; do for mode in 0 1; do
  echo "== warpLock $b 32 1 $mode" >> warpLock_runs.txt
  timeout 20 ./wl_$b 32 1 $mode >> warpLock_runs.txt 2>&1; echo "rc $?" >> warpLock_runs.txt
done; done
echo "built and ran in $(( $(date +%s) - start )) s" >> versions.txt
M=smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_branch_targets_threads_uniform.sum,smsp__inst_executed.sum,smsp__thread_inst_executed.sum
echo "metrics: $M" >> versions.txt
timeout 120 ncu --csv --print-units base --print-kernel-base function --clock-control none --metrics $M ./ls_G > ncu_G.csv 2> ncu_G.log
echo "ncu done at $(( $(date +%s) - start )) s" >> versions.txt
rm -f ls_G wl_G wl_O3
# (sm_90_G.sass was then compacted here: python3 tests/fidelity/record_tsv.py sass DIR sm_90_G.raw)
