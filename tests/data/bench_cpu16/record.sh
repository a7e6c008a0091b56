#!/bin/bash
# minicuda bench on the lent machine's CPUs (no GPU use): the JIT's kernels at 16, 2 and 1 workers, native C baseline
cd "$(dirname "$0")"
exec > >(tee $OUT/log.txt) 2>&1
set -x
nproc; lscpu | grep -i "model name"; python3 --version
python3 -c "import llvmlite, numpy, networkx; print('llvmlite', llvmlite.__version__, 'numpy', numpy.__version__)"
python3 -m pip install -q --no-index --no-deps --target /tmp/site whl/*.whl || exit 1
python3 -m pip install -q --no-index --no-deps --no-build-isolation --target /tmp/mc ./tree || exit 1
export PYTHONPATH=/tmp/mc:/tmp/site PYTHONUNBUFFERED=1 MINICUDA_CACHE_DIR=/tmp/mccache
which cc gcc
B="python3 -m minicuda.bench --engine jit --skip pocl,numba,e2e --samples tree/samples"
timeout 120 $B --jobs 16 --json $OUT/bench16.json > $OUT/bench16.txt 2>&1; echo rc16=$?
tail -45 $OUT/bench16.txt
timeout 90 $B --skip native --jobs 2 --json $OUT/bench2.json > $OUT/bench2.txt 2>&1; echo rc2=$?
tail -25 $OUT/bench2.txt
timeout 60 $B --skip native --jobs 1 --only reduceInteger --json $OUT/bench1.json > $OUT/bench1.txt 2>&1; echo rc1=$?
tail -16 $OUT/bench1.txt
