"""The metrics of one kernel launch, with the nvprof/ncu names users know.

A branch is one execution of a BRA by a warp, divergent when its active threads go to
more than one target; branch efficiency and warp execution efficiency follow from the
counts as nvprof defines them.  Both engines fill the same record.  With nested launches
(dynamic parallelism) `kernel_totals` sums a kernel's grids into one record per kernel
(`grids` of them; the efficiencies follow from the summed counts).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from minicuda.vm.memcounters import COUNTER_FIELDS
from minicuda.vm.state import WARP


def counts_as_branch(ins) -> bool:
    """What ncu's smsp__sass_branch_targets counts, once per warp execution: BRA (guard
    true or not), a user function's CALL, RET; never EXIT (docs/fidelity.md)."""
    return ins.op in ("BRA", "RET") or (ins.op == "CALL" and "RT" not in ins.mods)


# Jupyter's rich display of a launch: minicuda/report/notebook.py puts its renderer here when
# it is loaded (minicuda.compile loads it), as the VM never imports the report's side.
HTML_DISPLAY: list = []


def install_html_display(render) -> None:
    """Make `render(launch) -> str` the rich display of every LaunchMetrics."""
    HTML_DISPLAY[:] = [render]


def branch_efficiency(branch: int, divergent: int) -> float:
    """nvprof's: the percentage of branches that did not diverge (100 with none)."""
    return 100.0 * (branch - divergent) / branch if branch else 100.0


class SectorSet:
    """A set of sector numbers (a launch's footprint) kept as a byte per sector over the span
    of sectors seen in each window of 2^35 sectors (one address space of vm/memory.py):
    adding n sectors is O(n) with no sort, and the book's 3 GiB sumMatrix takes 100 MB
    (a sorted array of distinct sectors took 800 MB, and its merges most of the run)."""
    WINDOW = 35

    def __init__(self):
        self.spans: dict[int, list] = {}   # window -> [first sector, np.uint8 flags]

    def add(self, sectors: np.ndarray) -> None:
        if not sectors.size:
            return
        sectors = np.asarray(sectors, np.uint64)
        windows = sectors >> np.uint64(self.WINDOW)
        if windows[0] == windows.min() == windows.max():
            self._mark(int(windows[0]), sectors)
            return
        for window in np.unique(windows):
            self._mark(int(window), sectors[windows == window])

    def _mark(self, window: int, sectors: np.ndarray) -> None:
        low, high = int(sectors.min()), int(sectors.max()) + 1
        span = self.spans.get(window)
        if span is None:
            span = self.spans[window] = [low, np.zeros(high - low, np.uint8)]
        first, flags = span
        if low < first or high > first + flags.size:   # grow, at least doubling, within the window
            start, end = window << self.WINDOW, (window + 1) << self.WINDOW
            new_first = max(start, min(low, first - flags.size)) if low < first else first
            new_end = min(end, max(high, first + 2 * flags.size)) if high > first + flags.size else first + flags.size
            grown = np.zeros(new_end - new_first, np.uint8)
            grown[first - new_first:first - new_first + flags.size] = flags
            first, flags = new_first, grown
            span[:] = first, flags
        flags[(sectors - np.uint64(first)).astype(np.intp)] = 1

    def count(self) -> int:
        return sum(int(np.count_nonzero(flags)) for _, flags in self.spans.values())


@dataclass
class LaunchMetrics:
    kernel: str
    grid: tuple
    block: tuple
    arch: str
    sched: str
    inst_executed: int = 0
    thread_inst_executed: int = 0
    thread_inst_executed_pred_on: int = 0
    branch: int = 0
    divergent_branch: int = 0
    max_stack_depth: int = 0
    max_paths: int = 0
    barriers: int = 0
    wall_s: float = 0.0   # seconds the launch took (not part of the nvprof-style report)
    depth: int = 0        # 0: launched by the host; n: by a grid of depth n - 1 (dynamic parallelism)
    parent: str = ""      # the kernel whose thread launched it (depth > 0)
    # a profiled launch's per-instruction counters and issue trace (vm/profile.py)
    profile: object = field(default=None, repr=False, compare=False)
    issue_trace: object = field(default=None, repr=False, compare=False)
    failure: str = field(default="", repr=False, compare=False)   # a profiled launch's fault, when it failed
    # memory counters (vm/memcounters.py), counted when asked for: per space and direction the
    # requests, sectors (shared: wavefronts) and useful bytes; shared: the wavefronts of
    # the same requests without bank conflicts (`_groups`)
    counted_memory: bool = False
    counted_rounds: bool = False   # the load round trips and chains too (for the timing model)
    global_ld_requests: int = 0
    global_ld_sectors: int = 0
    global_ld_bytes: int = 0
    global_st_requests: int = 0
    global_st_sectors: int = 0
    global_st_bytes: int = 0
    local_ld_requests: int = 0
    local_ld_sectors: int = 0
    local_ld_bytes: int = 0
    local_st_requests: int = 0
    local_st_sectors: int = 0
    local_st_bytes: int = 0
    shared_ld_requests: int = 0
    shared_ld_sectors: int = 0
    shared_ld_bytes: int = 0
    shared_st_requests: int = 0
    shared_st_sectors: int = 0
    shared_st_bytes: int = 0
    shared_ld_groups: int = 0
    shared_st_groups: int = 0
    occupancy: object = None   # vm/occupancy.py's Occupancy of the launch (None: not computed)
    # per instruction ("file:line:col OPCODE"): [space, "ld"/"st", requests, sectors, bytes, groups]
    memory_sites: dict = field(default_factory=dict)
    # for the timing model (vm/timing_model.py), counted with the memory counters: warp
    # instructions by class, and the distinct global sectors the launch touched
    inst_classes: dict = field(default_factory=dict)
    touched: SectorSet = field(default_factory=lambda: SectorSet(), repr=False, compare=False)
    block_loads: list = field(default_factory=list, repr=False, compare=False)
    global_ld_block_sectors: int = 0   # loads' distinct sectors per block, summed (what a block's L1 fetches)
    global_lines: int = 0      # global requests' distinct 128-byte lines, summed (the L1's data-pipe wavefronts)
    global_ld_rounds: int = 0  # global and local loads' round trips, summed over warps (vm/load_rounds.py)
    shared_ld_rounds: int = 0  # shared loads' round trips, summed over warps
    alu_chain: int = 0         # dependent arithmetic steps, summed over warps (vm/load_rounds.py)
    timing: object = None   # vm/timing_model.py's Timing of the launch (None: not modelled)

    def touch(self, sectors, load: bool) -> None:
        """Note the global sectors (a numpy array) an access touched, for the footprint and,
        a load's, for its block's distinct sectors."""
        self.touched.add(sectors)
        if load:
            self.block_loads.append(sectors)

    def block_done(self) -> None:
        """A block has finished: add the distinct sectors its loads touched."""
        if self.block_loads:
            self.global_ld_block_sectors += int(np.unique(np.concatenate(self.block_loads)).size)
            self.block_loads.clear()

    @property
    def global_footprint(self) -> int:
        """The distinct global sectors the launch's loads and stores touched."""
        self.block_done()   # a cooperative launch's blocks end together
        return self.touched.count()

    def _repr_html_(self) -> str | None:
        """Jupyter's rich display: the metrics table, and a profiled launch's lane timeline,
        drawn by the renderer the driver installs (None, the text repr, without one)."""
        return HTML_DISPLAY[0](self) if HTML_DISPLAY else None

    def add_count(self, name: str, value: int) -> None:
        setattr(self, name, getattr(self, name) + value)

    def site_rows(self) -> list[dict]:
        """The memory counters per instruction, in source order."""
        return [{"site": site, "space": space, "op": op, "requests": r, "sectors": s, "bytes": b,
                 **({"bank_conflicts": s - g} if space == "shared" else
                    {"efficiency": round(100.0 * b / (32 * s), 2) if s else 0.0})}
                for site, (space, op, r, s, b, g) in sorted(self.memory_sites.items(), key=_site_order)]

    @property
    def branch_efficiency(self) -> float:
        return branch_efficiency(self.branch, self.divergent_branch)

    @property
    def warp_execution_efficiency(self) -> float:
        return 100.0 * self.thread_inst_executed / (WARP * self.inst_executed) if self.inst_executed else 100.0

    def as_dict(self) -> dict:
        return {"kernel": self.kernel, "grid": list(self.grid), "block": list(self.block), "arch": self.arch,
                **({"depth": self.depth, "parent": self.parent} if self.depth else {}),
                "sched": self.sched, "inst_executed": self.inst_executed,
                "thread_inst_executed": self.thread_inst_executed, "branch": self.branch,
                "divergent_branch": self.divergent_branch,
                "branch_efficiency": round(self.branch_efficiency, 2),
                "warp_execution_efficiency": round(self.warp_execution_efficiency, 2),
                **({name: getattr(self, name) for name in COUNTER_FIELDS} if self.counted_memory else {}),
                **({"memory_per_instruction": self.site_rows(), "inst_classes": dict(sorted(self.inst_classes.items())),
                    "global_footprint_sectors": self.global_footprint,
                    "global_ld_block_sectors": self.global_ld_block_sectors, "global_lines": self.global_lines}
                 if self.counted_memory else {}),
                **({"global_ld_rounds": self.global_ld_rounds, "shared_ld_rounds": self.shared_ld_rounds,
                    "alu_chain": self.alu_chain} if self.counted_rounds else {}),
                **(self.occupancy.as_dict() if self.occupancy is not None else {}),
                **(self.timing.as_dict() if self.timing is not None else {})}

    # ---- memory counters: nvprof's ratios ----
    def efficiency(self, space: str, op: str) -> float:
        """Useful bytes per byte of the sectors moved, in percent (100 when nothing moved)."""
        sectors = getattr(self, f"{space}_{op}_sectors")
        return 100.0 * getattr(self, f"{space}_{op}_bytes") / (32 * sectors) if sectors else 0.0

    def per_request(self, space: str, op: str) -> float:
        requests = getattr(self, f"{space}_{op}_requests")
        return getattr(self, f"{space}_{op}_sectors") / requests if requests else 0.0

    def bank_conflicts(self, op: str) -> int:
        """Wavefronts beyond those the same requests would take without bank conflicts."""
        return getattr(self, f"shared_{op}_sectors") - getattr(self, f"shared_{op}_groups")

    @property
    def shared_efficiency(self) -> float:
        """Requested shared bytes per byte the wavefronts could serve (128 each), in percent."""
        wavefronts = self.shared_ld_sectors + self.shared_st_sectors
        return 100.0 * (self.shared_ld_bytes + self.shared_st_bytes) / (128 * wavefronts) if wavefronts else 0.0


@dataclass
class KernelTotals(LaunchMetrics):
    """A kernel's grids summed (counts added; the SIMT stack's high-water mark the largest)."""
    grids: int = 0

    def add(self, m: LaunchMetrics) -> None:
        self.grids += 1
        for name in SUMMED:
            setattr(self, name, getattr(self, name) + getattr(m, name))
        self.max_stack_depth = max(self.max_stack_depth, m.max_stack_depth)
        self.max_paths = max(self.max_paths, m.max_paths)
        self.counted_memory = self.counted_memory or m.counted_memory
        self.counted_rounds = self.counted_rounds or m.counted_rounds
        for site, counts in m.memory_sites.items():
            mine = self.memory_sites.setdefault(site, counts[:2] + [0] * 4)
            for k in range(2, 6):
                mine[k] += counts[k]

    def as_dict(self) -> dict:
        launch = super().as_dict()
        del launch["grid"], launch["block"]
        for name in OCCUPANCY_KEYS:   # a launch's own, not a kernel's
            launch.pop(name, None)
        return {"kernel": self.kernel, "totals": True, "grids": self.grids, **launch}


def _site_order(item) -> tuple:
    """file, line, column, opcode of a site's "file:line:col OPCODE" key."""
    where, _, opcode = item[0].rpartition(" ")
    file, _, rest = where.rpartition(":")
    file, _, line = file.rpartition(":")
    return (file, int(line) if line.isdigit() else 0, int(rest) if rest.isdigit() else 0, opcode)


OCCUPANCY_KEYS = ("theoretical_occupancy", "occupancy_limiter", "active_blocks_per_sm", "occupancy_limit_registers",
                  "occupancy_limit_shared_mem", "occupancy_limit_warps", "occupancy_limit_blocks")

SUMMED = ("inst_executed", "thread_inst_executed", "thread_inst_executed_pred_on", "branch", "divergent_branch",
          "barriers", "wall_s") + COUNTER_FIELDS


def has_nested(launches: list[LaunchMetrics]) -> bool:
    """Whether any grid was launched from device code."""
    return any(m.depth for m in launches)


def kernel_totals(launches: list[LaunchMetrics]) -> list[KernelTotals]:
    """One record per kernel name, in the order of their first grid: all its grids summed."""
    totals: dict[str, KernelTotals] = {}
    for m in launches:
        if m.kernel not in totals:
            totals[m.kernel] = KernelTotals(m.kernel, (), (), m.arch, m.sched)
        totals[m.kernel].add(m)
    return list(totals.values())


@dataclass(frozen=True)
class Metric:
    """One row of `minicuda run --metrics`: nvprof's name (or minicuda's own), its
    description, and its value for a launch."""
    name: str
    description: str
    value: object   # LaunchMetrics -> int | str
    memory: bool = False   # a memory counter: the launch runs on the interpreter, which counts them
    timing: bool = False   # the timing model's (vm/timing_model.py): it reads the memory counters


def _pct(x: float) -> str:
    return f"{x:.2f}%"


# what --metrics all prints, in this order (nvprof's names where nvprof has one)
METRICS = (
    Metric("inst_executed", "Instructions Executed", lambda m: m.inst_executed),
    Metric("thread_inst_executed", "Thread Instructions Executed", lambda m: m.thread_inst_executed),
    Metric("not_predicated_off_thread_inst_executed", "Not Predicated Off Thread Instructions Executed",
           lambda m: m.thread_inst_executed_pred_on),
    Metric("branch", "Branches", lambda m: m.branch),
    Metric("divergent_branch", "Divergent Branches", lambda m: m.divergent_branch),
    Metric("branch_efficiency", "Branch Efficiency", lambda m: _pct(m.branch_efficiency)),
    Metric("warp_execution_efficiency", "Warp Execution Efficiency", lambda m: _pct(m.warp_execution_efficiency)),
    Metric("max_simt_stack_depth", "Max SIMT Stack Depth / Concurrent Paths",
           lambda m: m.max_stack_depth if m.sched == "stack" else m.max_paths),
    Metric("barriers", "Barriers Executed", lambda m: m.barriers),
)

# Nsight Compute's names for the same counts, in ncu's units (.ratio: threads per warp instruction)
NCU_METRICS = (
    Metric("smsp__inst_executed.sum", "Instructions Executed", lambda m: m.inst_executed),
    Metric("smsp__thread_inst_executed.sum", "Thread Instructions Executed", lambda m: m.thread_inst_executed),
    Metric("smsp__thread_inst_executed_pred_on.sum", "Thread Instructions Executed (guard true)",
           lambda m: m.thread_inst_executed_pred_on),
    Metric("smsp__sass_branch_targets.sum", "Branches", lambda m: m.branch),
    Metric("smsp__sass_branch_targets_threads_divergent.sum", "Divergent Branches", lambda m: m.divergent_branch),
    Metric("smsp__sass_branch_targets_threads_uniform.sum", "Uniform Branches",
           lambda m: m.branch - m.divergent_branch),
    Metric("smsp__sass_average_branch_targets_threads_uniform.pct", "Branch Efficiency",
           lambda m: _pct(m.branch_efficiency)),
    Metric("smsp__thread_inst_executed_per_inst_executed.ratio", "Threads per Warp Instruction",
           lambda m: f"{m.thread_inst_executed / m.inst_executed if m.inst_executed else WARP:.2f}"),
    Metric("smsp__thread_inst_executed_per_inst_executed.pct", "Warp Execution Efficiency",
           lambda m: _pct(m.warp_execution_efficiency)),
)


def _mem(name: str, description: str, value) -> Metric:
    return Metric(name, description, value, memory=True)


def _ratio(x: float) -> str:
    return f"{x:.2f}"


def _occ(value):
    """An occupancy metric's value: '-' for a launch without one (a kernel's totals)."""
    return lambda m: value(m.occupancy) if m.occupancy is not None else "-"


def _transactions(space: str, load: str, store: str, unit: str) -> tuple:
    """nvprof's four transaction metrics of a space: its loads' and stores' sectors (shared:
    wavefronts) and those per request."""
    title = space.title()
    return tuple(
        metric for op, name, kind in (("ld", load, "Load"), ("st", store, "Store")) for metric in (
            _mem(f"{name}_transactions", f"{title} {kind} Transactions ({unit})",
                 lambda m, op=op: getattr(m, f"{space}_{op}_sectors")),
            _mem(f"{name}_transactions_per_request", f"{title} {kind} Transactions Per Request",
                 lambda m, op=op: _ratio(m.per_request(space, op)))))


# memory counters (vm/memcounters.py) with nvprof's names, then theoretical occupancy
MEMORY_METRICS = (
    *_transactions("global", "gld", "gst", "sectors"),
    _mem("gld_efficiency", "Global Memory Load Efficiency", lambda m: _pct(m.efficiency("global", "ld"))),
    _mem("gst_efficiency", "Global Memory Store Efficiency", lambda m: _pct(m.efficiency("global", "st"))),
    *_transactions("local", "local_load", "local_store", "sectors"),
    *_transactions("shared", "shared_load", "shared_store", "wavefronts"),
    _mem("shared_ld_bank_conflict", "Shared Load Bank Conflicts", lambda m: m.bank_conflicts("ld")),
    _mem("shared_st_bank_conflict", "Shared Store Bank Conflicts", lambda m: m.bank_conflicts("st")),
    _mem("shared_efficiency", "Shared Memory Efficiency", lambda m: _pct(m.shared_efficiency)),
    Metric("theoretical_occupancy", "Theoretical Occupancy", _occ(lambda o: _pct(o.percent))),
    Metric("occupancy_limiter", "Theoretical Occupancy Limited By", _occ(lambda o: o.limiter)),
)


def _ncu_memory(space: str, op: str) -> tuple:
    kind = {"ld": "load", "st": "store"}[op]
    return (_mem(f"l1tex__t_requests_pipe_lsu_mem_{space}_op_{op}.sum", f"{space.title()} {kind.title()} Requests",
                 lambda m: getattr(m, f"{space}_{op}_requests")),
            _mem(f"l1tex__t_sectors_pipe_lsu_mem_{space}_op_{op}.sum", f"{space.title()} {kind.title()} Sectors",
                 lambda m: getattr(m, f"{space}_{op}_sectors")),
            _mem(f"l1tex__average_t_sectors_per_request_pipe_lsu_mem_{space}_op_{op}.ratio",
                 f"{space.title()} {kind.title()} Sectors Per Request", lambda m: _ratio(m.per_request(space, op))))


def _ncu_shared(op: str) -> tuple:
    kind = {"ld": "Load", "st": "Store"}[op]
    return (_mem(f"smsp__inst_executed_op_shared_{op}.sum", f"Shared {kind} Requests",
                 lambda m: getattr(m, f"shared_{op}_requests")),
            _mem(f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum", f"Shared {kind} Wavefronts",
                 lambda m: getattr(m, f"shared_{op}_sectors")),
            _mem(f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{op}.sum", f"Shared {kind} Bank Conflicts",
                 lambda m: m.bank_conflicts(op)))


NCU_MEMORY_METRICS = (
    *_ncu_memory("global", "ld"), *_ncu_memory("global", "st"),
    _mem("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", "Global Load Efficiency",
         lambda m: _pct(m.efficiency("global", "ld"))),
    _mem("smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct", "Global Store Efficiency",
         lambda m: _pct(m.efficiency("global", "st"))),
    _mem("smsp__sass_data_bytes_mem_global_op_ld.sum", "Global Load Bytes Requested", lambda m: m.global_ld_bytes),
    _mem("smsp__sass_data_bytes_mem_global_op_st.sum", "Global Store Bytes Requested", lambda m: m.global_st_bytes),
    *_ncu_memory("local", "ld"), *_ncu_memory("local", "st"), *_ncu_shared("ld"), *_ncu_shared("st"),
    Metric("sm__maximum_warps_per_active_cycle_pct", "Theoretical Occupancy", _occ(lambda o: _pct(o.percent))),
    Metric("sm__maximum_warps_avg_per_active_cycle", "Theoretical Active Warps per SM", _occ(lambda o: o.warps)),
    *(Metric(f"launch__occupancy_limit_{name}", f"Block Limit {name.replace('_mem', ' Mem').title()}",
             _occ(lambda o, name=name: o.limits[name])) for name in ("registers", "shared_mem", "warps", "blocks")),
)

def _timed(name: str, description: str, value) -> Metric:
    """A timing-model metric: '-' for a launch the model did not time (a kernel's totals)."""
    return Metric(name, description, lambda m: value(m.timing) if m.timing is not None else "-",
                  memory=True, timing=True)


# the timing model's (vm/timing_model.py, docs/timing.md), with ncu's and nvprof's names
TIMING_METRICS = (
    _timed("gpu__time_duration.sum", "Duration (modelled, ns)", lambda t: f"{t.duration_s * 1e9:.0f}"),
    _timed("sm__cycles_elapsed.avg", "SM Cycles Elapsed (modelled)", lambda t: f"{t.cycles:.0f}"),
    _timed("sm__warps_active.avg.pct_of_peak_sustained_active", "Achieved Occupancy (modelled)",
           lambda t: _pct(t.achieved_occupancy)),
    _timed("achieved_occupancy", "Achieved Occupancy (modelled)", lambda t: f"{t.achieved_occupancy / 100:.6f}"),
    _timed("stall_reasons", "Dominant Stall Reasons (modelled)",
           lambda t: ", ".join(f"{r} {100 * s:.0f}%" for r, s in t.stalls)),
)

# names minicuda once used, still understood (printed as asked, not listed)
ALIASES = (
    Metric("thread_inst_executed_pred_on", "Not Predicated Off Thread Instructions Executed",
           lambda m: m.thread_inst_executed_pred_on),
)

METRIC_NAMES = {m.name: m for m in METRICS + MEMORY_METRICS + NCU_METRICS + NCU_MEMORY_METRICS + TIMING_METRICS}
ALIAS_NAMES = {m.name: m for m in ALIASES}


def metrics_named(names: list[str]) -> list[Metric]:
    """The metrics that --metrics values name (each comma-separated; `all` for every
    nvprof-style one but the memory counters, `memory` for those and occupancy, `timing` for
    the timing model's), in the
    order given, once each; ValueError naming an unknown one
    with the list of known names."""
    wanted: list[Metric] = []
    for name in (n.strip() for value in names for n in value.split(",") if n.strip()):
        found = (list(METRICS) if name == "all" else list(MEMORY_METRICS) if name == "memory"
                 else list(TIMING_METRICS) if name == "timing" else [METRIC_NAMES.get(name, ALIAS_NAMES.get(name))])
        if found == [None]:
            raise ValueError(f"unknown metric '{name}'; known metrics: all, " + ", ".join(METRIC_NAMES)
                             + ", memory (every memory counter, with the theoretical occupancy)"
                             + ", timing (the timing model's duration, cycles, achieved occupancy, stalls)")
        wanted += [m for m in found if m not in wanted]
    return wanted
