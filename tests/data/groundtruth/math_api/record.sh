#!/bin/bash
# Records the GPU's results of the math functions minicuda adds (tests/data/groundtruth/math_api/).
set -x
cd "$(dirname "$0")"
nvcc --version > "$OUT/nvcc_version.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv > "$OUT/gpu.txt"
nvcc -O3 -arch=sm_90 -o /tmp/math_device math_device.cu 2> "$OUT/nvcc_stderr.txt"
/tmp/math_device > "$OUT/math_device.gpu"
echo "rc=$?"
