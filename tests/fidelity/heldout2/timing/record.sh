#!/bin/bash
# Records the second held-out set's memory and timing pairs of this folder with the first
# held-out set's script (tests/fidelity/heldout/timing/record.sh, which runs a copy of
# tests/fidelity/unseen/timing/record.sh: nvcc -O3 -arch=sm_90 -lineinfo, each program run, then
# ncu's duration, cycles, achieved occupancy and memory counters per launch, with the shared bank
# conflicts, the shared store wavefronts and the global efficiencies, ncu's L1/L2 counters,
# cuobjdump SASS):
#   OUT=DIR bash tests/fidelity/heldout2/timing/record.sh     (results under $OUT)
# Its output lies in tests/data/groundtruth/fidelity/heldout2/timing/ (README.md there).
HERE=$(cd "$(dirname "$0")" && pwd)
PAIRS=$HERE exec bash "$HERE/../../heldout/timing/record.sh"
