#!/bin/bash
# Held-out programs for issue 12, built with nvcc and run on the lent GPU: bash go.sh > out.txt
cd "$(dirname "$0")"
nvcc --version | tail -2; nvidia-smi --query-gpu=name --format=csv,noheader
for f in *.cu; do
  b=/tmp/ho_${f%.cu}
  echo "=== $f"; nvcc -O3 -arch=sm_90 -o $b $f 2>&1 | grep -v "^$" | head -5
  (cd /tmp && timeout 60 $b; echo "exit $?") 2>&1
done
