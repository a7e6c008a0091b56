#!/bin/bash
# Records which multiply-add pairs ptxas contracts (tests/data/groundtruth/fma/).
cd "$(dirname "$0")"
nvcc --version > "$OUT/nvcc_version.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv > "$OUT/gpu.txt"
# the device returns a limited number of files: everything goes into one archive
mkdir -p /tmp/fma_out; REAL_OUT=$OUT; OUT=/tmp/fma_out
for v in O3 G nofmad fastmath O0 Xptxas_O0; do
  case $v in
    O3) flags="-O3";; G) flags="-G";; nofmad) flags="-O3 --fmad=false";;
    fastmath) flags="-O3 -use_fast_math";; O0) flags="-O0";; Xptxas_O0) flags="-O3 -Xptxas -O0";;
  esac
  echo "nvcc -arch=sm_90 $flags" > "$OUT/flags_$v.txt"
  nvcc -arch=sm_90 $flags -cubin -o /tmp/fma_$v.cubin fma_cases.cu 2> "$OUT/nvcc_stderr_$v.txt"
  cuobjdump -sass /tmp/fma_$v.cubin > "$OUT/fma_cases_$v.sass"
  nvcc -arch=sm_90 $flags -ptx -o "$OUT/fma_cases_$v.ptx" fma_cases.cu
  nvcc -arch=sm_90 $flags -o /tmp/fma_$v fma_cases.cu 2>> "$OUT/nvcc_stderr_$v.txt"
  /tmp/fma_$v > "$OUT/fma_cases_$v.gpu"
  echo "$v rc=$?"
done
tar -C /tmp/fma_out -czf "$REAL_OUT/fma_record.tgz" .
