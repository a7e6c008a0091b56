"""`python -m minicuda.bench`: the benchmark's command line, and the end-to-end targets' child process."""
import os
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")   # as `minicuda` (minicuda/cli.py), before numpy's import

from minicuda.bench.command import main   # noqa: E402

sys.exit(main())
