"""The JIT engine: bytecode compiled to native code with llvmlite (see engine.py)."""
