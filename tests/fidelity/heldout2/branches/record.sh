#!/bin/bash
# Records the GPU's counters for the second held-out set's kernels of this folder with the
# unseen kernels' wrapper of tests/fidelity/record.sh (nvcc -O3 and -G for sm_90, one ncu per
# build, cuobjdump SASS), pointed at this folder:
#   bash tests/fidelity/heldout2/branches/record.sh [OUT_DIR]    (default: $OUT/fidelity)
# Its output lies in tests/data/groundtruth/fidelity/heldout2/ (README.md there).
HERE=$(cd "$(dirname "$0")" && pwd)
KERNELS=$HERE exec bash "$HERE/../../unseen/branches/record.sh" "$@"
