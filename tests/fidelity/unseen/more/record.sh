#!/usr/bin/env bash
# Build and run each program with nvcc on the GPU; ncu's memory and timing counters for the
# memory programs; compute-sanitizer's verdicts for the sanitizer programs.
cd "$(dirname "$0")"   # tests/fidelity/unseen/more (the device runs it as bash tests/fidelity/unseen/more/record.sh)
export PATH=/usr/local/cuda/bin:$PATH
{ nvcc --version; nvidia-smi --query-gpu=name,driver_version --format=csv; ncu --version; compute-sanitizer --version; } > $OUT/env.txt 2>&1
for p in stencilrace barrierskip halfinit streamchunks cgtiles managedvec rowcol aos3 banks; do
  echo "=== $p" >> $OUT/programs.out
  nvcc -O3 -arch=sm_90 -lineinfo -o $p $p.cu >> $OUT/programs.out 2>&1 && ./$p >> $OUT/programs.out 2>&1
  echo "exit $?" >> $OUT/programs.out
done
M=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct,smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg
for p in rowcol aos3 banks; do
  echo "=== $p" >> $OUT/memory.ncu.csv
  ncu --metrics $M --csv ./$p >> $OUT/memory.ncu.csv 2>&1
done
{
for t in racecheck synccheck initcheck memcheck; do
  for p in stencilrace barrierskip halfinit; do
    echo "=== $p $t"
    extra=""; [ $t = racecheck ] && extra="--racecheck-report all"; [ $t = memcheck ] && extra="--leak-check full"
    compute-sanitizer --tool $t $extra ./$p 2>&1
    echo "exit $?"
  done
done
} > $OUT/sanitize.txt
