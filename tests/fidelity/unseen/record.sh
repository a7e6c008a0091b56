#!/usr/bin/env bash
# Build and run the programs with nvcc 13 on the GPU; ncu's memory counters for the transposes,
# compute-sanitizer's racecheck for the histogram (tests/data/groundtruth/unseen/README.md).
cd "$(dirname "$0")"
export PATH=/usr/local/cuda/bin:$PATH
{ nvcc --version; nvidia-smi --query-gpu=name,driver_version --format=csv; nproc; } > $OUT/env.txt 2>&1
for p in gauss transpose racyhist; do
  echo "=== $p" >> $OUT/programs.out
  nvcc -O3 -arch=sm_90 -lineinfo -o $p $p.cu >> $OUT/programs.out 2>&1 && ./$p >> $OUT/programs.out 2>&1
  echo "exit $?" >> $OUT/programs.out
done
ncu --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct,smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct,gpu__time_duration.sum --csv ./transpose > $OUT/transpose.ncu.csv 2>&1
compute-sanitizer --tool racecheck --racecheck-report all ./racyhist > $OUT/racyhist.racecheck.txt 2>&1
echo "exit $?" >> $OUT/racyhist.racecheck.txt
