#!/bin/bash
# Records the fidelity suite's ground truth on a machine with an NVIDIA GPU (run from the repo root):
#   tests/fidelity/record.sh [OUT_DIR]        (default: $OUT, else fidelity-out)
# For every tests/fidelity/kernels/NAME.cu it builds NAME with nvcc for sm_90 twice (-O3 and -G),
# runs both builds under Nsight Compute (one ncu per build, following every process of a script
# that runs all the programs), dumps their SASS with cuobjdump, and compiles -O3/-G cubins for
# older architectures (sm_80, sm_75, and sm_70/sm_60 where this nvcc still supports them) for
# their SASS only. OUT_DIR receives:
#   fidelity.tsv          per launch counters, the columns of tests/data/groundtruth/h200_seed_kernels.tsv
#   versions.txt          nvcc, ncu, driver and GPU
#   sass/ARCH_BUILD.sass  compact SASS (function bodies only) of every kernel
#   raw/                  ncu's CSV, the programs' output, the build log, the metric list
# and, when $OUT is set, $OUT/fidelity.tgz holds all of it.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
DEST=${1:-${OUT:-fidelity-out}/fidelity}
KERNELS=$HERE/kernels
WORK=$(mktemp -d)
mkdir -p "$DEST/sass" "$DEST/raw" "$WORK/O3" "$WORK/G" "$WORK/cubin"
start=$(date +%s)

{ nvcc --version | tail -2; ncu --version | tail -1
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader; } > "$DEST/versions.txt" 2>&1
ls -d /usr/local/cuda* >> "$DEST/versions.txt" 2>&1

# The metrics, by the names this ncu knows.
ncu --query-metrics > "$DEST/raw/query_metrics.txt" 2>&1
METRICS=""
for m in smsp__sass_branch_targets smsp__sass_branch_targets_threads_divergent \
         smsp__sass_branch_targets_threads_uniform smsp__sass_inst_executed_op_branch \
         smsp__inst_executed smsp__thread_inst_executed smsp__thread_inst_executed_pred_on \
         sm__warps_active; do
  if grep -q "^$m " "$DEST/raw/query_metrics.txt"; then
    case $m in
      sm__warps_active) METRICS="$METRICS,$m.avg.pct_of_peak_sustained_active" ;;
      *) METRICS="$METRICS,$m.sum" ;;
    esac
  else
    echo "metric $m: not known to this ncu" >> "$DEST/versions.txt"
  fi
done
METRICS="${METRICS#,},launch__registers_per_thread"   # launch metrics are not in the query's list
echo "metrics: $METRICS" >> "$DEST/versions.txt"

# Build: sm_90 programs (-O3, -G) and cubins for the older architectures.
build_one() {
  f=$1; name=$(basename "$f" .cu)
  nvcc -O3 -arch=sm_90 -o "$WORK/O3/$name" "$f" || echo "BUILD FAIL $name O3"
  nvcc -G -arch=sm_90 -o "$WORK/G/$name" "$f" || echo "BUILD FAIL $name G"
  for arch in sm_80 sm_75 sm_70 sm_60; do
    nvcc -O3 -arch=$arch -cubin -o "$WORK/cubin/${name}.${arch}_O3.cubin" "$f" 2>/dev/null || echo "no cubin $name $arch O3"
    nvcc -G -arch=$arch -cubin -o "$WORK/cubin/${name}.${arch}_G.cubin" "$f" 2>/dev/null || echo "no cubin $name $arch G"
  done
}
export -f build_one; export WORK
ls "$KERNELS"/*.cu | xargs -P 16 -I{} bash -c 'build_one {}' > "$DEST/raw/build.log" 2>&1
echo "built in $(( $(date +%s) - start )) s" >> "$DEST/versions.txt"

# SASS: cuobjdump of the sm_90 programs and of each cubin.
for b in O3 G; do
  for exe in "$WORK/$b"/*; do cuobjdump -sass "$exe"; done > "$WORK/sm_90_$b.raw" 2>&1
  for arch in sm_80 sm_75 sm_70 sm_60; do
    ls "$WORK/cubin/"*."${arch}_$b.cubin" > /dev/null 2>&1 || continue
    for c in "$WORK/cubin/"*."${arch}_$b.cubin"; do cuobjdump -sass "$c"; done > "$WORK/${arch}_$b.raw" 2>&1
  done
done
python3 "$HERE/record_tsv.py" sass "$DEST/sass" "$WORK"/*.raw

# Counters: one ncu per build, following every program the script runs.
for b in O3 G; do
  : > "$DEST/raw/programs_$b.txt"
  { echo '#!/bin/bash'
    for exe in "$WORK/$b"/*; do echo "'$exe' >> '$DEST/raw/programs_$b.txt' 2>&1"; done; } > "$WORK/run_$b.sh"
  ncu --csv --print-units base --print-kernel-base function --clock-control none \
      --target-processes all --metrics "$METRICS" bash "$WORK/run_$b.sh" \
      > "$DEST/raw/ncu_$b.csv" 2> "$DEST/raw/ncu_$b.log"
  echo "ncu $b done at $(( $(date +%s) - start )) s" >> "$DEST/versions.txt"
done
python3 "$HERE/record_tsv.py" tsv "$DEST/fidelity.tsv" "$DEST/raw/ncu_O3.csv" "$DEST/raw/ncu_G.csv"
grep -c ' OK$' "$DEST/raw/programs_O3.txt" "$DEST/raw/programs_G.txt" >> "$DEST/versions.txt"
grep -v ' OK$' "$DEST/raw/programs_O3.txt" "$DEST/raw/programs_G.txt" >> "$DEST/versions.txt"
if [ -n "${OUT:-}" ]; then tar czf "$OUT/fidelity.tgz" -C "$(dirname "$DEST")" "$(basename "$DEST")"; fi
rm -rf "$WORK"
echo "done in $(( $(date +%s) - start )) s"
