"""`python -m minicuda.bench`: the benchmark's command line, and the end-to-end targets' child process."""
import sys

from minicuda.bench.command import main

sys.exit(main())
