"""A warp's load round trips and arithmetic chains (vm/load_rounds.py), stepped in native code.

The timing model's variant (the check "loadrounds") steps vm/load_rounds.py's LoadRounds at
every instruction a warp issues, as the interpreter does before it runs one: what the
instruction reads and writes is known when it is compiled, so each step is straight-line
code over the warp's state words (vm/state.py's `rounds`: the head, then per register name
its pending epoch plus one for each kind, 0 when not pending, and its chain step).  The
round trips and chain steps go to the context's counters (GLOBAL_ROUNDS, SHARED_ROUNDS,
ALU_CHAIN).  An instruction handed to the interpreter steps there, on the same words
(vm/jit/engine.py's bail: `from_words`, `to_words`).
"""
from __future__ import annotations

from minicuda.vm.jit import layout as L
from minicuda.vm.load_rounds import (DEPTH, E_GLOBAL, E_SHARED, FIELDS, FLOOR, HEAD, KINDS, N_GLOBAL, N_SHARED, STEPS,
                                     STORED, STORES, operand_names, register_names, state_words)
from minicuda.vm.timing_model import instruction_class

ROUND_COUNTERS = {"global": L.GLOBAL_ROUNDS, "shared": L.SHARED_ROUNDS}
EPOCH = {"global": E_GLOBAL, "shared": E_SHARED}
LOADS = {"global": N_GLOBAL, "shared": N_SHARED}


class RoundsLowering:
    """The round-trip step of each instruction, for FunctionCodegen (when `self.rounds`)."""

    def rounds_entry(self) -> None:
        """Entry-block lines: the warp's state words (%rounds) and the cap of loads in flight."""
        stride = state_words(self.code) * 8
        base = self.ctx_field(L.ROUNDS, "ptr")
        self.line(f"%rounds = getelementptr i8, ptr {base}, i64 {self.op(f'mul i64 %wi, {stride}')}")
        self.line(f"%roundlimit = load i64, ptr {self.op(f'getelementptr i64, ptr %ctx, i64 {L.ROUND_LIMIT}')}")

    def word(self, index: int) -> str:
        return self.op(f"getelementptr i64, ptr %rounds, i64 {index}")

    def get_word(self, index: int) -> str:
        return self.op(f"load i64, ptr {self.word(index)}")

    def set_word(self, index: int, value: str) -> None:
        self.line(f"store i64 {value}, ptr {self.word(index)}")

    def add_counter(self, index: int, value) -> None:
        p = self.op(f"getelementptr i64, ptr %counters, i64 {index}")
        old = self.op(f"load i64, ptr {p}")
        self.line(f"store i64 {self.op(f'add i64 {old}, {value}')}, ptr {p}")

    def step_rounds(self, pc: int, on_bits: str) -> None:
        """LoadRounds.step for code[pc], issued by this warp (`on_bits`: the lanes whose guard
        holds, an i32 or "1")."""
        ins = self.code.instrs[pc]
        names = register_names(self.code)
        n, index = len(names), {name: i for i, name in enumerate(names)}
        uses, dsts = operand_names(self.code)[pc]
        uses, dsts = [index[r] for r in uses], [index[r] for r in dsts]
        load = KINDS.get(ins.op)
        barrier = ins.op.startswith("BAR")
        waits = barrier or load is not None or ins.op in STORES or ins.op == "BRA"
        for k, kind in enumerate(FIELDS):
            epoch = self.get_word(EPOCH[kind])
            tag = self.op(f"add i64 {epoch}, 1")   # a pending register's word in this epoch
            blocked = "false"
            for r in uses:
                hit = self.op(f"icmp eq i64 {self.get_word(HEAD + k * n + r)}, {tag}")
                blocked = hit if blocked == "false" else self.op(f"or i1 {blocked}, {hit}")
            reset = "true" if barrier else (blocked if waits else "false")
            if reset != "false":
                loads = self.get_word(LOADS[kind])
                depth, floor = self.get_word(DEPTH), self.get_word(FLOOR)
                epoch = self.op(f"select i1 {reset}, i64 {tag}, i64 {epoch}")
                tag = self.op(f"add i64 {epoch}, 1")
                self.set_word(EPOCH[kind], epoch)
                self.set_word(LOADS[kind], self.op(f"select i1 {reset}, i64 0, i64 {loads}"))
                self.set_word(FLOOR, self.op(f"select i1 {reset}, i64 {depth}, i64 {floor}"))
                if kind == "global":
                    stored = self.get_word(STORED)
                    self.set_word(STORED, self.op(f"select i1 {reset}, i64 0, i64 {stored}"))
                blocked = "false" if reset == "true" else self.op(f"and i1 {blocked}, {self.op(f'xor i1 {reset}, true')}")
            if load == kind:
                loads = self.get_word(LOADS[kind])
                first = self.op(f"icmp eq i64 {self.op(f'urem i64 {loads}, %roundlimit')}, 0")
                self.add_counter(ROUND_COUNTERS[kind], self.op(f"zext i1 {first} to i64"))
                self.set_word(LOADS[kind], self.op(f"add i64 {loads}, 1"))
                blocked = "true"
            for r in dsts:
                value = tag if blocked == "true" else "0" if blocked == "false" else \
                    self.op(f"select i1 {blocked}, i64 {tag}, i64 0")
                self.set_word(HEAD + k * n + r, value)
        if ins.op in ("STG", "STL", "ATOM"):
            self.set_word(STORED, "1")
        elif ins.op == "EXIT":   # ncu's `drain`: an exited warp waits for its stores
            stored = self.get_word(STORED)
            if ins.guard is not None and on_bits != "1":   # a guarded EXIT no thread takes is no exit
                taken = self.op(f"icmp ne i32 {on_bits}, 0")
                stored = self.op(f"select i1 {taken}, i64 {stored}, i64 0")
                self.set_word(STORED, self.op(f"select i1 {taken}, i64 0, i64 {self.get_word(STORED)}"))
            else:
                self.set_word(STORED, "0")
            self.add_counter(L.GLOBAL_ROUNDS, stored)
        self.step_chain(ins.op, uses, dsts, n)

    def step_chain(self, op: str, uses: list[int], dsts: list[int], n: int) -> None:
        """LoadRounds.chain: the dependent arithmetic chains, extended by `op`."""
        steps = 0 if op == "MOV" or op in KINDS else STEPS.get(instruction_class(op))
        if steps is None:
            return
        start = self.get_word(FLOOR)
        for r in uses:
            ready = self.get_word(HEAD + 2 * n + r)
            start = self.op(f"select i1 {self.op(f'icmp sgt i64 {ready}, {start}')}, i64 {ready}, i64 {start}")
        end = self.op(f"add i64 {start}, {steps}")
        for r in dsts:
            self.set_word(HEAD + 2 * n + r, end)
        depth = self.get_word(DEPTH)
        grown = self.op(f"icmp sgt i64 {end}, {depth}")
        self.add_counter(L.ALU_CHAIN, self.op(f"select i1 {grown}, i64 {self.op(f'sub i64 {end}, {depth}')}, i64 0"))
        self.set_word(DEPTH, self.op(f"select i1 {grown}, i64 {end}, i64 {depth}"))
