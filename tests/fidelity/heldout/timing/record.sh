#!/bin/bash
# Records the held-out memory and timing pairs of this folder with the unseen pairs' script
# (tests/fidelity/unseen/timing/record.sh: nvcc -O3 -arch=sm_90 -lineinfo, each program run,
# then ncu's duration, cycles, achieved occupancy and memory counters per launch, ncu's L1/L2
# counters, cuobjdump SASS), adding the shared bank conflicts and the global efficiencies:
#   OUT=DIR bash tests/fidelity/heldout/timing/record.sh     (results under $OUT)
# ($PAIRS, when set, is the folder of programs instead of this one: the second held-out set's
# record.sh runs this script on its own folder.)
# A copy of that script runs beside links to these programs.  Its output lies in
# tests/data/groundtruth/fidelity/heldout/timing/ (README.md there).
set -u
HERE=${PAIRS:-$(cd "$(dirname "$0")" && pwd)}
SCRIPTS=$(cd "$(dirname "$0")" && pwd)
STAGE=$(mktemp -d)
cp "$SCRIPTS/../../unseen/timing/record.sh" "$STAGE/"
ln -s "$HERE"/*.cu "$STAGE/"
PROGRAMS=$(cd "$HERE" && ls *.cu | sed 's/\.cu$//')
EXTRA_METRICS=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct,smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct \
  bash "$STAGE/record.sh" $PROGRAMS
status=$?
rm -rf "$STAGE"
exit $status
