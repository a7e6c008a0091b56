#!/bin/bash
# Records the whole second held-out set on a machine with an NVIDIA GPU, with $OUT set:
#   bash tests/fidelity/heldout2/record.sh
# the memory/timing pairs under $OUT/timing (timing/record.sh), the whole programs under
# $OUT/programs (programs/record.sh), then the branch kernels under $OUT/fidelity and
# $OUT/fidelity.tgz (branches/record.sh).  The pairs' second recording, for their run-to-run
# spread, is `OUT=DIR bash tests/fidelity/heldout2/timing/record.sh` again.
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/timing" "$OUT/programs"
start=$(date +%s)
OUT=$OUT/timing bash "$HERE/timing/record.sh"
echo "timing pairs recorded in $(( $(date +%s) - start )) s" >> "$OUT/timing/env.txt"
start=$(date +%s)
OUT=$OUT/programs bash "$HERE/programs/record.sh"
echo "programs recorded in $(( $(date +%s) - start )) s" >> "$OUT/programs/env.txt"
bash "$HERE/branches/record.sh"
