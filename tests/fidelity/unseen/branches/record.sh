#!/bin/bash
# Records the GPU's counters for the kernels of this folder exactly as tests/fidelity/record.sh
# does for the fidelity suite (nvcc -O3 and -G for sm_90, one ncu per build, cuobjdump SASS):
#   bash tests/fidelity/unseen/branches/record.sh [OUT_DIR]    (default: $OUT/fidelity)
# record.sh reads its kernels from the folder beside it, so this puts record.sh and
# record_tsv.py beside a `kernels` link to this folder (or to $KERNELS, when set: the held-out
# set's record.sh runs this one on its own folder) and runs that copy.  Its output lies in
# tests/data/groundtruth/fidelity/unseen/ (README.md there: the command and versions).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
FIDELITY=$(cd "$HERE/../.." && pwd)
STAGE=$(mktemp -d)
cp "$FIDELITY/record.sh" "$FIDELITY/record_tsv.py" "$STAGE/"
ln -s "${KERNELS:-$HERE}" "$STAGE/kernels"
bash "$STAGE/record.sh" "$@"
status=$?
rm -rf "$STAGE"
exit $status
