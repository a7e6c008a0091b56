"""Native code for the JIT's functions: loaded from the disk cache, or compiled by LLVM.

The one module of the JIT that imports llvmlite; the engine imports it when it first
runs a function natively, so a run on the interpreter never loads LLVM.  A function's
native code is found by its `description` (vm/jit/engine.py's `code_description`: the
function's instructions and variant, never the LLVM text) with this CPU, this minicuda
(its version and sources, minicuda/cache_entry.py's fingerprint) and LLVM: a second
run loads the object code of its entry (vm/jit/cache.py) into an execution engine
without generating or parsing LLVM IR.  An entry's payload is the pcs native code can
be entered at (one line), then the object code.
"""
from __future__ import annotations

import threading

import llvmlite.binding as llvm

from minicuda.cache_entry import sources_fingerprint
from minicuda.vm.jit import cache as jit_cache
from minicuda.vm.jit import ops

ENTRIES = b"ENTRIES"


class LLVM:
    """llvmlite's native target, set up once per process."""
    _instance = None

    def __init__(self):
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        self.target = llvm.Target.from_default_triple()
        self.cpu, self.features = llvm.get_host_cpu_name(), llvm.get_host_cpu_features().flatten()
        for name, address in ops.libm_symbols().items():
            llvm.add_symbol(name, address)
        self.lock = threading.Lock()

    @classmethod
    def get(cls) -> "LLVM":
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    def entry_key(self, description: str) -> str:
        """The name of the disk cache's entry for the function `description` on this CPU."""
        return jit_cache.entry_key(description, sources_fingerprint(), self.cpu, self.features)

    def target_machine(self, opt: int = 3):
        """A target machine whose code generator runs at -O`opt` (an execution engine owns its
        target machine: one each)."""
        return self.target.create_target_machine(cpu=self.cpu, features=self.features, opt=opt, reloc="default",
                                                 codemodel="jitdefault")

    def load(self, key: str) -> tuple[object, list[int]] | None:
        """(an execution engine, the entry pcs) from the disk cache's entry `key`; None when
        there is none, or it is damaged or foreign (discarded with a warning)."""
        path = jit_cache.entry_path(key)
        payload = jit_cache.load(path, key)
        if payload is None:
            return None
        try:
            entries, obj = unpack(payload)
        except ValueError:   # a sound checksum over a payload that is no (entries, object)
            jit_cache.ENTRIES.discard(path, "no entry pcs before the object code")
            return None
        with self.lock:
            engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), self.target_machine())
            engine.add_object_file(llvm.ObjectFileRef.from_data(obj))
            engine.finalize_object()
        return engine, entries

    def compile(self, text: str, speed: int, key: str, entries: list[int]):
        """An execution engine for the module `text`, its object code (with `entries`) kept
        in the disk cache as entry `key`."""
        path = jit_cache.entry_path(key)
        with self.lock:
            module = llvm.parse_assembly(text)
            module.verify()
            # a kernel's module (speed < 0) has its code generator at -O1: the backend is three
            # quarters of its compile (the greedy register allocator a third), -O1's backend
            # takes 12% less time and its kernels run as fast (docs/jit.md, "Cold compile")
            tm = self.target_machine(1 if speed < 0 else 3)
            pb = llvm.create_pass_builder(tm, llvm.create_pipeline_tuning_options(speed_level=max(speed, 0)))
            if speed >= 0:
                pb.getModulePassManager().run(module, pb)
            else:   # registers into SSA, a clean CFG, and a warp register's value carried from the
                # instruction that wrote it to the next that reads it (instcombine, GVN, dead
                # stores): most of the speed for a fraction of -O1's time
                pm = llvm.create_new_module_pass_manager()
                pm.add_always_inliner_pass()
                pm.add_sroa_pass()
                pm.add_simplify_cfg_pass()
                pm.add_sroa_pass()
                pm.add_instruction_combine_pass()
                pm.add_new_gvn_pass()
                pm.add_dead_store_elimination_pass()
                pm.add_simplify_cfg_pass()
                pm.run(module, pb)
            engine = llvm.create_mcjit_compiler(module, tm)
            engine.set_object_cache(lambda _module, data: jit_cache.save(path, key, pack(entries, data)),
                                    lambda _module: None)
            engine.finalize_object()
        return engine


def pack(entries: list[int], obj: bytes) -> bytes:
    return b" ".join([ENTRIES, *(str(pc).encode() for pc in entries)]) + b"\n" + obj


def unpack(payload: bytes) -> tuple[list[int], bytes]:
    """The entry pcs and the object code of a payload `pack` made (its checksum verified)."""
    end = payload.index(b"\n")
    return [int(pc) for pc in payload[:end].split()[1:]], payload[end + 1:]
