#!/bin/bash
# Records the timing ground truth on a machine with an NVIDIA GPU:
#   bash tests/fidelity/timing/record.sh [OUT_DIR]      (default: $OUT, else a temporary folder)
# Builds every tests/fidelity/timing/NAME.cu with `nvcc -O3 -arch=sm_90`, runs it under Nsight
# Compute at its default size and at the book's size (SIZES below), and writes
#   NAME.SIZE.csv        ncu --csv of the timing metrics (duration, cycles, clock, achieved occupancy, ...)
#   NAME.SIZE.stall.csv  ncu --csv of the WarpStateStats section (stall reasons; the default size only)
#   versions.txt         nvcc, ncu, driver, GPU, the commands, and the programs' own output
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
DEST=${1:-${OUT:-$(mktemp -d)}}
WORK=$(mktemp -d)
mkdir -p "$DEST"
{ nvcc --version | tail -2; ncu --version | tail -1
  nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.max.sm,clocks.max.mem --format=csv,noheader; } > "$DEST/versions.txt" 2>&1
METRICS=gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg,sm__cycles_elapsed.avg.per_second,sm__cycles_active.avg,smsp__inst_executed.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,sm__maximum_warps_per_active_cycle_pct,launch__registers_per_thread,launch__waves_per_multiprocessor
CMD="ncu --csv --print-units base --print-kernel-base function --metrics $METRICS"
CMD_STALL="ncu --csv --print-units base --print-kernel-base function --section WarpStateStats"
echo "build: nvcc -O3 -arch=sm_90 -o NAME NAME.cu" >> "$DEST/versions.txt"
echo "timing: $CMD ./NAME SIZE" >> "$DEST/versions.txt"
echo "stalls: $CMD_STALL ./NAME SIZE" >> "$DEST/versions.txt"
declare -A SIZES=([transpose_naive]="1024 2048" [transpose_shared]="1024 2048" [sum_matrix]="1024 2048"
                  [strided_copy]="1048576 4194304" [reduce]="1048576 16777216" [matmul_tiled]="128 256 1024")
for f in "$HERE"/${ONLY:-*}.cu; do
  name=$(basename "$f" .cu)
  nvcc -O3 -arch=sm_90 -I"$HERE" -o "$WORK/$name" "$f" >> "$DEST/versions.txt" 2>&1 || { echo "BUILD FAIL $name" >> "$DEST/versions.txt"; continue; }
  if [ "$name" = copy_bw ]; then "$WORK/$name" 64 >> "$DEST/versions.txt" 2>&1; continue; fi
  for size in ${SIZES[$name]}; do
    $CMD "$WORK/$name" "$size" > "$DEST/$name.$size.csv" 2> "$WORK/$name.err" || cat "$WORK/$name.err" >> "$DEST/versions.txt"
    first=${SIZES[$name]%% *}
    [ "$size" = "$first" ] && $CMD_STALL "$WORK/$name" "$size" > "$DEST/$name.$size.stall.csv" 2>> "$WORK/$name.err"
    echo "$name $size: $("$WORK/$name" "$size" 2>&1)" >> "$DEST/versions.txt"
  done
done
# $OUT takes few files: pack them
if [ -n "${OUT:-}" ] && [ "$DEST" = "$OUT" ]; then tar czf "$WORK/timing.tgz" -C "$DEST" . && rm -f "$DEST"/*.csv && mv "$WORK/timing.tgz" "$DEST/"; fi
rm -rf "$WORK"
