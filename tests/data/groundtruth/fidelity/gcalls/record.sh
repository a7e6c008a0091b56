#!/bin/bash
# nvcc -G (and -O3) for sm_90 of headercalls.cu, its SASS, and ncu's branch counters per launch.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
D=$OUT/gcalls; mkdir -p "$D"; start=$(date +%s)
{ nvcc --version | tail -2; ncu --version | tail -1
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader; } > "$D/versions.txt" 2>&1
cd "$D"
cp "$HERE/headercalls.cu" .
nvcc -G -arch=sm_90 -o hc_G headercalls.cu > build_G.log 2>&1
nvcc -O3 -arch=sm_90 -o hc_O3 headercalls.cu > build_O3.log 2>&1
cuobjdump -sass hc_G > sm_90_G.sass 2>&1
cuobjdump -sass hc_O3 > sm_90_O3.sass 2>&1
./hc_G > out_G.txt 2>&1; ./hc_O3 > out_O3.txt 2>&1
echo "built and ran in $(( $(date +%s) - start )) s" >> versions.txt
M=smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__inst_executed.sum,smsp__thread_inst_executed.sum
for b in G O3; do
  timeout 100 ncu --csv --print-units base --print-kernel-base function --clock-control none --metrics $M ./hc_$b > ncu_$b.csv 2> ncu_$b.log
  echo "ncu $b done at $(( $(date +%s) - start )) s" >> versions.txt
done
rm -f hc_G hc_O3
