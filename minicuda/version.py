"""minicuda's version: one definition, read by the package, the command lines and the
JIT's disk cache (a new version never reuses another's compiled code)."""
__version__ = "0.1.0"
