#!/bin/bash
# Records the memory-counter and occupancy ground truth on a machine with an NVIDIA GPU:
#   bash tests/fidelity/memory/record.sh [OUT_DIR]      (default: $OUT, else memory-out)
# Builds every tests/fidelity/memory/NAME.cu with `nvcc -O3 -arch=sm_90`, runs it under Nsight
# Compute twice (the memory metrics below; the Occupancy and LaunchStats sections), and writes
#   NAME.csv            ncu --csv --print-units base of the memory metrics, one row per launch and metric
#   NAME.occupancy.csv  the same for the occupancy sections, metrics by their ncu names
#   versions.txt        nvcc, ncu, driver, GPU, the commands, and the programs' own output
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
DEST=${1:-$(mktemp -d)}
WORK=$(mktemp -d)
mkdir -p "$DEST"
{ nvcc --version | tail -2; ncu --version | tail -1
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader; } > "$DEST/versions.txt" 2>&1
ncu --query-metrics > "$WORK/query.txt" 2>&1
grep -E "^(l1tex__t_(sectors|requests)_pipe_lsu_mem_(global|local)|l1tex__data_(bank|pipe_lsu_wave)|smsp__sass_(average_data|data_bytes|sectors|inst_executed_op_(shared|global|local))|sm__maxwarps|smsp__inst_executed_op_(shared|global|local))" \
  "$WORK/query.txt" | cut -c1-120 > "$DEST/query_metrics.txt"
METRICS=""
for m in l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum \
         l1tex__t_requests_pipe_lsu_mem_global_op_st.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum \
         l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum \
         l1tex__t_requests_pipe_lsu_mem_local_op_st.sum l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum \
         smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct \
         smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct \
         smsp__sass_data_bytes_mem_global_op_ld.sum smsp__sass_data_bytes_mem_global_op_st.sum \
         smsp__sass_sectors_mem_global_op_ld.sum smsp__sass_sectors_mem_global_op_st.sum \
         smsp__sass_inst_executed_op_shared_ld.sum smsp__sass_inst_executed_op_shared_st.sum \
         smsp__sass_inst_executed_op_global_ld.sum smsp__sass_inst_executed_op_global_st.sum \
         smsp__inst_executed_op_shared_ld.sum smsp__inst_executed_op_shared_st.sum \
         l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum \
         l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum \
         sm__maxwarps_per_active_cycle_pct; do
  base=${m%.*}
  if grep -q "^$base " "$WORK/query.txt"; then METRICS="$METRICS,$m"; else echo "not known to this ncu: $m" >> "$DEST/versions.txt"; fi
done
METRICS="${METRICS#,},launch__occupancy_limit_blocks,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps,launch__registers_per_thread"
CMD_MEM="ncu --csv --print-units base --print-kernel-base function --clock-control none --metrics $METRICS"
CMD_OCC="ncu --csv --print-units base --print-kernel-base function --print-metric-name name --section Occupancy --section LaunchStats"
echo "build: nvcc -O3 -arch=sm_90 -o NAME NAME.cu" >> "$DEST/versions.txt"
echo "memory: $CMD_MEM ./NAME" >> "$DEST/versions.txt"
echo "occupancy: $CMD_OCC ./NAME" >> "$DEST/versions.txt"
for f in "$HERE"/*.cu; do
  name=$(basename "$f" .cu)
  nvcc -O3 -arch=sm_90 -o "$WORK/$name" "$f" >> "$DEST/versions.txt" 2>&1 || { echo "BUILD FAIL $name" >> "$DEST/versions.txt"; continue; }
  $CMD_MEM "$WORK/$name" > "$DEST/$name.csv" 2> "$WORK/$name.err" || cat "$WORK/$name.err" >> "$DEST/versions.txt"
  $CMD_OCC "$WORK/$name" > "$DEST/$name.occupancy.csv" 2>> "$WORK/$name.err"
  "$WORK/$name" >> "$DEST/versions.txt" 2>&1
  cuobjdump -sass "$WORK/$name" | grep -E "Function|LD|ST" > "$DEST/$name.sass" 2>&1
done
# $OUT takes 8 files at most: pack them
if [ -n "${OUT:-}" ]; then tar czf "$OUT/memory.tgz" -C "$DEST" . ; cp "$DEST/versions.txt" "$OUT/"; fi
rm -rf "$WORK"
