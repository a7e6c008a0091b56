#!/bin/bash
# Records the o3loop probes on a machine with an NVIDIA GPU (run from the repository root:
# bash tests/data/groundtruth/fidelity/o3loop/record.sh; results under $OUT).  The metrics and the ncu command are those of
# tests/fidelity/record.sh; record_tsv.py turns ncu's CSV into the fidelity table format.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(pwd)   # the repository root
cd "$HERE"
W=$(mktemp -d)
{ nvcc --version | tail -2; ncu --version | tail -1
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader; } > "$OUT/versions.txt" 2>&1
nvcc -O3 -arch=sm_90 -o "$W/probes" probes.cu 2> "$OUT/nvcc_stderr.txt"
nvcc -O3 -arch=sm_90 -ptx -o "$OUT/probes.ptx" probes.cu 2>> "$OUT/nvcc_stderr.txt"
cuobjdump -sass "$W/probes" > "$W/sm_90_O3.raw" 2>&1
python3 "$ROOT/tests/fidelity/record_tsv.py" sass "$OUT" "$W/sm_90_O3.raw"
"$W/probes" > "$OUT/programs_O3.txt" 2>&1
METRICS=smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_branch_targets_threads_uniform.sum,smsp__sass_inst_executed_op_branch.sum,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,smsp__thread_inst_executed_pred_on.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
ncu --csv --print-units base --print-kernel-base function --clock-control none \
    --metrics "$METRICS" "$W/probes" > "$OUT/ncu_O3.csv" 2> "$OUT/ncu_O3.log"
echo "ncu rc $?" >> "$OUT/versions.txt"
: > "$W/empty.csv"
python3 "$ROOT/tests/fidelity/record_tsv.py" tsv "$OUT/probes.tsv" "$OUT/ncu_O3.csv" "$W/empty.csv"
cat > "$OUT/command.txt" <<CMD
nvcc -O3 -arch=sm_90 -o probes probes.cu
nvcc -O3 -arch=sm_90 -ptx -o probes.ptx probes.cu
cuobjdump -sass probes   (cut by tests/fidelity/record_tsv.py sass into sm_90_O3.sass)
ncu --csv --print-units base --print-kernel-base function --clock-control none --metrics $METRICS ./probes
  (cut by tests/fidelity/record_tsv.py tsv into probes.tsv)
CMD
ls -la "$OUT"; head -5 "$OUT/probes.tsv"; tail -3 "$OUT/ncu_O3.log"
