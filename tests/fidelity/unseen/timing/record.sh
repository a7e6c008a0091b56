#!/usr/bin/env bash
# Build and run each program with nvcc on the GPU, ncu's duration, cycles, achieved occupancy
# and memory counters per launch, and the SASS of the kernels (how many loads ptxas keeps in
# flight).  Run as `bash record.sh [PROGRAM...]` with $OUT set; results under $OUT.  The programs
# are named without .cu and lie in the script's folder (default: this folder's four and rowcol);
# $EXTRA_METRICS, when set, is added to the first ncu's metrics (the held-out set's record.sh
# runs a copy of this script beside its own programs, with the bank conflicts and efficiencies).
cd "$(dirname "$0")"
export PATH=/usr/local/cuda/bin:$PATH
{ nvcc --version; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv; ncu --version; } > $OUT/env.txt 2>&1
M=gpu__time_duration.sum,sm__cycles_elapsed.avg,sm__warps_active.avg.pct_of_peak_sustained_active,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed.sum${EXTRA_METRICS:+,$EXTRA_METRICS}
L=l1tex__data_pipe_lsu_wavefronts.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio
for p in ${*:-chase matmul diverge aos rowcol}; do
  echo "=== $p" >> $OUT/programs.out
  src=$p.cu; [ -f $src ] || src=../more/$p.cu   # rowcol: tests/fidelity/unseen/more
  nvcc -O3 -arch=sm_90 -lineinfo -o $p $src >> $OUT/programs.out 2>&1 && ./$p >> $OUT/programs.out 2>&1
  echo "exit $?" >> $OUT/programs.out
  echo "=== $p" >> $OUT/timing.ncu.csv
  ncu --metrics $M --csv ./$p >> $OUT/timing.ncu.csv 2>&1
  echo "=== $p" >> $OUT/l1.ncu.csv
  ncu --metrics $L --csv ./$p >> $OUT/l1.ncu.csv 2>&1 || true
  echo "=== $p" >> $OUT/sass.txt
  cuobjdump -sass $p >> $OUT/sass.txt 2>&1
done
