#!/bin/bash
# Loop-unroll probes: nvcc -O3 for sm_90, PTX (NVVM's unrolling) and SASS (after ptxas).
set -u
D=gpurec/o3unroll
nvcc --version > $OUT/versions.txt 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv >> $OUT/versions.txt 2>&1
cp $D/probes.cu $D/record.sh $OUT/
nvcc -O3 -arch=sm_90 -ptx -o $OUT/probes.ptx $D/probes.cu 2> $OUT/nvcc_ptx.err
nvcc -O3 -arch=sm_90 -cubin -o $OUT/probes.cubin $D/probes.cu 2> $OUT/nvcc_cubin.err
cuobjdump -sass $OUT/probes.cubin > $OUT/probes_sm_90_O3.sass 2>&1
rm -f $OUT/probes.cubin
echo done
# NVVM's output for the suite's and the unseen kernels (which loops NVVM unrolled, which ptxas)
mkdir -p $OUT/ptx_suite
for f in tests/fidelity/kernels/*.cu tests/fidelity/unseen/branches/*.cu; do
  nvcc -O3 -arch=sm_90 -ptx -o $OUT/ptx_suite/$(basename $f .cu).ptx $f 2>> $OUT/nvcc_ptx.err
done
echo suite done
