#!/bin/bash
# Records both held-out sets on a machine with an NVIDIA GPU, with $OUT set:
#   bash tests/fidelity/heldout/record.sh
# the memory/timing pairs under $OUT/timing (timing/record.sh), then the branch kernels under
# $OUT/fidelity and $OUT/fidelity.tgz (branches/record.sh).
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/timing"
start=$(date +%s)
OUT=$OUT/timing bash "$HERE/timing/record.sh"
echo "timing pairs recorded in $(( $(date +%s) - start )) s" >> "$OUT/timing/env.txt"
bash "$HERE/branches/record.sh"
