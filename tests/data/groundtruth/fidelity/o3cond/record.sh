#!/bin/bash
# Records the probe programs' -O3 counters and SASS on a machine with an NVIDIA GPU, with
# tests/fidelity/record.sh's steps for its -O3 build only (nvcc -O3 -arch=sm_90, one ncu over
# all the programs with the fidelity suite's metrics, cuobjdump -sass), results under $OUT:
#   bash record.sh        (from anywhere; RECORD_TSV: record_tsv.py, else tests/fidelity/record_tsv.py)
# $OUT/fidelity.tsv (`# build O3` rows; the G block left empty), $OUT/sass/sm_90_O3.sass,
# $OUT/versions.txt, $OUT/programs_O3.txt, $OUT/command.txt.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TSV=${RECORD_TSV:-$HERE/../../../../fidelity/record_tsv.py}
WORK=$(mktemp -d)
mkdir -p "$OUT/sass" "$OUT/raw" "$WORK/O3"
start=$(date +%s)
{ nvcc --version | tail -2; ncu --version | tail -1
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader; } > "$OUT/versions.txt" 2>&1
METRICS=smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_branch_targets_threads_uniform.sum,smsp__sass_inst_executed_op_branch.sum,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,smsp__thread_inst_executed_pred_on.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
echo "metrics: $METRICS" >> "$OUT/versions.txt"
ls "$HERE"/programs/*.cu | xargs -P 16 -I{} bash -c 'nvcc -O3 -arch=sm_90 -o "$0/O3/$(basename {} .cu)" {} || echo "BUILD FAIL {}"' "$WORK" > "$OUT/raw/build.log" 2>&1
echo "built in $(( $(date +%s) - start )) s" >> "$OUT/versions.txt"
for exe in "$WORK/O3"/*; do cuobjdump -sass "$exe"; done > "$WORK/sm_90_O3.raw" 2>&1
python3 "$TSV" sass "$OUT/sass" "$WORK/sm_90_O3.raw"
{ echo '#!/bin/bash'; for exe in "$WORK/O3"/*; do echo "'$exe' >> '$OUT/programs_O3.txt' 2>&1"; done; } > "$WORK/run.sh"
: > "$OUT/programs_O3.txt"
ncu --csv --print-units base --print-kernel-base function --clock-control none \
    --target-processes all --metrics "$METRICS" bash "$WORK/run.sh" > "$OUT/raw/ncu_O3.csv" 2> "$OUT/raw/ncu_O3.log"
: > "$WORK/empty.csv"
python3 "$TSV" tsv "$OUT/fidelity.tsv" "$OUT/raw/ncu_O3.csv" "$WORK/empty.csv"
grep -c ' OK$' "$OUT/programs_O3.txt" >> "$OUT/versions.txt"
echo "ncu done in $(( $(date +%s) - start )) s" >> "$OUT/versions.txt"
cat > "$OUT/command.txt" <<'CMD'
for each programs/NAME.cu: nvcc -O3 -arch=sm_90 -o NAME NAME.cu
cuobjdump -sass NAME (all programs)  | record_tsv.py sass          -> sass/sm_90_O3.sass
ncu --csv --print-units base --print-kernel-base function --clock-control none --target-processes all --metrics METRICS bash run_all.sh
                                     | record_tsv.py tsv           -> fidelity.tsv
CMD
rm -rf "$WORK"
cat "$OUT/versions.txt"
