#!/bin/bash
# Compile the probe kernels for sm_90 at -O3 and record their SASS (run on the device machine
# from the repository root: bash gpurec/o3pred/record.sh; results under $OUT).
set -u
cd "$(dirname "$0")"
{ nvcc --version; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$OUT/versions.txt" 2>&1
nvcc -O3 -arch=sm_90 -cubin -o /tmp/probes.cubin probes.cu 2> "$OUT/nvcc_stderr.txt"
cuobjdump -sass /tmp/probes.cubin > "$OUT/sm_90_O3.sass"
echo "nvcc -O3 -arch=sm_90 -cubin -o probes.cubin probes.cu; cuobjdump -sass probes.cubin" > "$OUT/command.txt"
grep -c "Function" "$OUT/sm_90_O3.sass"
