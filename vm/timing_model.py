"""A first-order timing model of a kernel launch (docs/timing.md): the modelled duration
(ncu's gpu__time_duration.sum), the SM cycles, the achieved occupancy
(sm__warps_active.avg.pct_of_peak_sustained_active) and the stall reasons that dominate.

It reads a launch's counts, which both engines keep when the memory counters are on
(vm/memcounters.py, vm/jit/memlog.py): warp instructions by class (serialised paths of a divergent branch
and both scheduling models' reconvergence are in the count, as each path issues on its
own), global sectors and lines and the distinct sectors the launch touches, shared
wavefronts (bank conflicts included), barriers, and each warp's load round trips and
dependent arithmetic steps (vm/load_rounds.py: independent loads in flight together, as
ptxas schedules them).  A launch's blocks are taken to do the same work each: the launch's
counts over its blocks.

- A block's warps run side by side on one SM.  One warp's time is its latency chain: its
  dependent arithmetic steps at the ALU latency, each global round trip at the L2's or
  DRAM's latency as the hit rate says, each shared round trip at the shared latency plus
  the extra wavefronts, each barrier its latency.
- A block's work (issue slots, per-class pipe lanes, L1 data-pipe wavefronts, and its share of
  L2 and DRAM traffic) takes k times as long when k blocks share the SM and its share of
  the memory system, so a block lasts T(k) = max(latency chain, k x the bottleneck's time).
  The L1 keeps a block's loaded sectors (the L2 sees each once per block), stores go
  through, and a sector a store writes in part costs the L2 a read too; DRAM moves the
  launch's footprint.
- The block scheduler gives each SM its blocks in turn (at most the resident blocks the
  occupancy calculator allows, at most one every `block_dispatch_cycles`); the busiest SM
  sets the duration, and the launch adds a fixed overhead.
- Achieved occupancy: the warps resident over the SM's most, averaged over the SMs' active
  cycles (as ncu's sm__warps_active.avg.pct_of_peak_sustained_active: the SMs given one block
  fewer than the busiest count too).  A block keeps its slot until its last warp exits, and an
  exited warp is not active: a warp's time varies (`warp_time_cv`, its spread over its mean),
  so a block of w warps is resident for the longest of w warp times, on average 1 + cv x e(w)
  times the mean one (e(w): the expected largest of w standard normal values), and its warps
  are active that share of its residency.  Warps wait for each other at a barrier, so only
  the spread after the last barrier counts.
"""
from __future__ import annotations

import heapq
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from statistics import NormalDist

from minicuda.arch import family_of

DATA = Path(__file__).with_name("data") / "gpu_timing.json"
WARP = 32
SECTOR = 32
LINE = 128

PARAMETERS = ("sms", "clock_hz", "schedulers_per_sm", "issue_per_scheduler", "max_warps_per_sm", "fp32_per_sm",
              "int32_per_sm", "fp64_per_sm", "sfu_per_sm", "l1_bytes_per_cycle", "dram_bytes_per_s", "l2_bytes",
              "l2_bytes_per_s", "alu_latency", "fp64_latency", "sfu_latency", "shared_latency", "l2_latency",
              "dram_latency", "barrier_latency", "h2d_bytes_per_s", "d2h_bytes_per_s")
FITTED = ("launch_overhead_s", "block_dispatch_cycles", "loads_in_flight", "warp_time_cv",
          "host_instruction_s")

# an opcode's class: which pipe it issues to and which latency it waits
CLASSES = ("fp32", "int", "fp64", "sfu", "idiv", "global", "shared", "local", "branch", "barrier", "other")
_FP32 = {"FADD", "FSUB", "FMUL", "FFMA", "FNEG", "FMNMX", "FSETP"}
_FP64 = {"DADD", "DSUB", "DMUL", "DFMA", "DNEG", "DMNMX", "DSETP"}
_SFU = {"MUFU", "FDIV", "DDIV"}
# nvcc expands a 32-bit integer division or remainder by a variable into about 15 instructions
# (I2F, MUFU.RCP, F2I, IMAD.HI and corrections): the model issues that many, one on the SFU
IDIV_INSTRUCTIONS = 15


def instruction_class(op: str, address_space: str = "") -> str:
    """The class the model charges a warp instruction of opcode `op` to."""
    if op in _FP32:
        return "fp32"
    if op in _FP64:
        return "fp64"
    if op in _SFU:
        return "sfu"
    if op in ("IDIV", "IREM"):
        return "idiv"
    if op in ("LDG", "STG", "ATOM"):
        return "global"
    if op in ("LDS", "STS", "ATOMS"):
        return "shared"
    if op in ("LDL", "STL"):
        return "local"
    if op in ("BRA", "EXIT", "RET", "CALL", "BSSY", "BSYNC", "BREAK"):
        return "branch"
    if op.startswith("BAR"):
        return "barrier"
    return "int"


@dataclass(frozen=True)
class Gpu:
    """One GPU's parameters (vm/data/gpu_timing.json), with the model's fitted constants."""
    key: str
    name: str
    values: dict

    def __getattr__(self, name):
        try:
            return self.values[name]
        except KeyError:
            raise AttributeError(name) from None


@lru_cache(maxsize=1)
def load_data() -> dict:
    return json.loads(DATA.read_text())


def loads_in_flight() -> int:
    """Loads a warp keeps in flight at most (vm/load_rounds.py)."""
    return int(load_data()["fitted"]["loads_in_flight"]["value"])


def gpu_keys() -> list[str]:
    return list(load_data()["gpus"])


def gpu_for(sm: int, key: str | None = None) -> Gpu:
    """The GPU the model times an `sm` launch on: `key` (p100, v100, a100, h100, h200), else
    the family's default (Hopper: the H100)."""
    data = load_data()
    key = key or data["family_default"][family_of(sm)]
    entry = data["gpus"][key]
    values = {name: entry[name]["value"] for name in PARAMETERS}
    values.update({name: data["fitted"][name]["value"] for name in FITTED})
    return Gpu(key, entry["name"], values)


@dataclass
class Timing:
    """The model's figures for one launch."""
    gpu: str
    duration_s: float
    cycles: float              # the busiest SM's cycles, overhead included (sm__cycles_elapsed.avg)
    achieved_occupancy: float  # percent
    stalls: list               # [(reason, share of the warp's time)] the largest first
    waves: float
    limiter: str               # what bounds a block's time: latency or a throughput

    def as_dict(self) -> dict:
        return {"model_gpu": self.gpu, "gpu__time_duration_us": round(self.duration_s * 1e6, 3),
                "sm__cycles_elapsed": round(self.cycles), "achieved_occupancy": round(self.achieved_occupancy, 2),
                "waves": round(self.waves, 2), "model_limiter": self.limiter,
                "stall_reasons": [[r, round(s, 3)] for r, s in self.stalls]}


def model_launch(m, gpu: Gpu) -> Timing:
    """The modelled timing of launch `m` (a LaunchMetrics with memory counters and class counts)."""
    grid, block = m.grid, m.block
    blocks = grid[0] * grid[1] * grid[2]
    threads = block[0] * block[1] * block[2]
    warps_per_block = -(-threads // WARP)
    warps = blocks * warps_per_block
    occ = m.occupancy
    slots = max(occ.blocks if occ is not None else 1, 1)
    per_block = {c: m.inst_classes.get(c, 0) / blocks for c in CLASSES}
    inst_block = m.inst_executed / blocks + (IDIV_INSTRUCTIONS - 1) * per_block["idiv"]

    # memory traffic: the L1 keeps a block's loaded lines (a sector another warp of the block
    # loaded hits), stores go through to the L2; DRAM sees the distinct sectors touched
    l1_misses = min(m.global_ld_sectors, m.global_ld_block_sectors or m.global_ld_sectors)
    l2_sectors = l1_misses + m.global_st_sectors + m.local_ld_sectors + m.local_st_sectors
    # a sector a store writes only in part costs the L2 a read besides the write (fewer
    # bytes than the sectors hold: at least that many sectors are partial)
    partial = max(0.0, m.global_st_sectors - m.global_st_bytes / SECTOR)
    l2_accesses = l2_sectors + partial
    dram_bytes = SECTOR * m.global_footprint
    if dram_bytes > gpu.l2_bytes:   # beyond the L2's size, re-reads miss too
        dram_bytes = max(dram_bytes, SECTOR * l2_sectors * (1 - gpu.l2_bytes / dram_bytes))
    hit = 1.0 - min(1.0, SECTOR * m.global_footprint / (SECTOR * l2_sectors)) if l2_sectors else 1.0
    mem_latency = gpu.l2_latency + (1.0 - hit) * (gpu.dram_latency - gpu.l2_latency)

    # one warp's latency chain (cycles): its loads' round trips (vm/load_rounds.py: loads
    # issued together share one), dependent arithmetic, shared accesses, barriers
    w = warps_per_block
    shared_requests = (m.shared_ld_requests + m.shared_st_requests) / warps
    shared_extra = (m.shared_ld_sectors + m.shared_st_sectors) / warps - shared_requests
    barriers = per_block["barrier"] / w
    chain = {
        "math": m.alu_chain / warps * gpu.alu_latency,
        "math_pipe_throttle": per_block["sfu"] / w * gpu.sfu_latency,
        "long_scoreboard": m.global_ld_rounds / warps * mem_latency
        + (m.global_ld_sectors + m.local_ld_sectors) / warps,   # the L1 returns a request's sectors one a cycle
        "short_scoreboard": m.shared_ld_rounds / warps * gpu.shared_latency + max(shared_extra, 0.0),
        "barrier": barriers * gpu.barrier_latency * (1 + w / 8),   # the last warp to arrive waits for the others
    }
    latency = sum(chain.values())

    # a block's time on each throughput, alone on the SM (cycles)
    sms_busy = min(gpu.sms, blocks)
    dram_per_cycle = gpu.dram_bytes_per_s / gpu.clock_hz / sms_busy
    l2_per_cycle = gpu.l2_bytes_per_s / gpu.clock_hz / sms_busy
    # the L1's data pipe: a wavefront a cycle, one per 128-byte line a global request touches
    # (a strided warp's 32 lines take 32), per 4 local sectors, per shared wavefront
    l1_wavefronts = m.global_lines + (m.local_ld_sectors + m.local_st_sectors) / 4 \
        + m.shared_ld_sectors + m.shared_st_sectors
    throughput = {
        "issue": inst_block / (gpu.schedulers_per_sm * gpu.issue_per_scheduler),
        "fp32_pipe": per_block["fp32"] * WARP / gpu.fp32_per_sm,
        "int_pipe": (per_block["int"] + (IDIV_INSTRUCTIONS - 2) * per_block["idiv"]) * WARP / gpu.int32_per_sm,
        "fp64_pipe": per_block["fp64"] * WARP / gpu.fp64_per_sm,
        "sfu_pipe": (per_block["sfu"] + per_block["idiv"]) * WARP / gpu.sfu_per_sm,
        "l1_data": l1_wavefronts / blocks / (gpu.l1_bytes_per_cycle / LINE),
        "l2_bandwidth": SECTOR * l2_accesses / blocks / l2_per_cycle,
        "dram_bandwidth": dram_bytes / blocks / dram_per_cycle,
    }
    bottleneck = max(throughput, key=throughput.get)
    work = throughput[bottleneck]

    def block_time(k: float) -> float:
        return max(latency, k * work)

    per_sm_most = -(-blocks // gpu.sms)
    dispatch = gpu.block_dispatch_cycles
    k = float(min(slots, per_sm_most))
    for _ in range(20):   # blocks in flight: as many as the slots, or as the dispatch rate keeps busy
        k = max(1.0, min(float(min(slots, per_sm_most)), block_time(k) / dispatch))
    busy, active_warp_cycles = _sm_run(per_sm_most, slots, dispatch, block_time(k))
    cycles = busy + gpu.launch_overhead_s * gpu.clock_hz
    # ncu averages over the SMs' active cycles: the SMs given a block fewer than the busiest
    # (blocks % SMs of them have the most) count with their own cycles and blocks
    busiest = blocks - (per_sm_most - 1) * sms_busy
    busy_all, warp_cycles_all = busiest * busy, busiest * active_warp_cycles
    if busiest < sms_busy:
        fewer_busy, fewer_cycles = _sm_run(per_sm_most - 1, slots, dispatch, block_time(k))
        busy_all += (sms_busy - busiest) * fewer_busy
        warp_cycles_all += (sms_busy - busiest) * fewer_cycles
    tail = warp_active_share(warps_per_block, barriers, gpu.warp_time_cv)
    occupancy = 100.0 * tail * warp_cycles_all * warps_per_block / (busy_all * gpu.max_warps_per_sm) \
        if busy_all else 0.0
    return Timing(gpu.name, cycles / gpu.clock_hz, cycles, min(occupancy, 100.0),
                  _stalls(chain, latency, k * work, bottleneck), blocks / (gpu.sms * slots),
                  "latency" if latency >= k * work else bottleneck)


def warp_active_share(warps: int, barriers: float, cv: float) -> float:
    """The share of a block's residency its warps are active: the block holds its slot for
    the longest of its `warps` warp times, each varying by `cv` of the mean, the spread of
    the part after the last of its `barriers` (warps wait for each other at one).  The
    longest of w normal values lies e(w) standard deviations above their mean (Blom's
    approximation of the expected largest order statistic)."""
    if warps <= 1:
        return 1.0
    largest = NormalDist().inv_cdf((warps - 0.375) / (warps + 0.25))
    return 1.0 / (1.0 + cv * largest / (barriers + 1.0))


def _stalls(chain: dict, latency: float, throughput: float, bottleneck: str) -> list:
    """The three largest shares of a warp's time, by ncu's stall reason: its latency chain's
    parts, and when a throughput bounds the block, the wait for that pipe or memory."""
    shares: dict[str, float] = {}
    span = max(latency, throughput) or 1.0
    for reason, cycles in chain.items():
        shares[reason] = shares.get(reason, 0.0) + cycles / span
    if throughput > latency:
        reason = _THROTTLE[bottleneck]
        shares[reason] = shares.get(reason, 0.0) + (throughput - latency) / span
    return sorted(((r, s) for r, s in shares.items() if s > 0), key=lambda x: -x[1])[:3]


_THROTTLE = {"issue": "not_selected", "fp32_pipe": "math_pipe_throttle", "int_pipe": "math_pipe_throttle",
             "fp64_pipe": "math_pipe_throttle", "sfu_pipe": "math_pipe_throttle", "l1_data": "mio_throttle",
             "l2_bandwidth": "lg_throttle", "dram_bandwidth": "long_scoreboard"}


def _sm_run(blocks: int, slots: int, dispatch: float, duration: float) -> tuple[float, float]:
    """One SM running `blocks` blocks of `duration` cycles each, `slots` at a time, the block
    scheduler starting one at most every `dispatch` cycles: (busy cycles, block-cycles resident)."""
    free = [0.0] * slots
    last_start = -dispatch
    end = 0.0
    for _ in range(blocks):
        start = max(heapq.heappop(free), last_start + dispatch)
        last_start = start
        heapq.heappush(free, start + duration)
        end = max(end, start + duration)
    return end, blocks * duration


def times_kernels(module) -> bool:
    """Whether a program times its kernels with events (it calls cudaEventElapsedTime), so
    that `--time auto` models them.  A host clock alone does not say so: the books' host-timed
    programs run at their full size by default, and `--time model` models them."""
    return calls_runtime(module, "cudaEventElapsedTime")


def calls_runtime(module, name: str) -> bool:
    """Whether any function of `module` calls the runtime's `name` (cudaEventElapsedTime)."""
    return any(ins.op == "CALL" and getattr(ins.srcs[0], "name", "") == name
               for fn in module.functions.values() for b in fn.blocks for ins in b.instrs)


def copy_seconds(n: int, kind: str, gpu: Gpu) -> float:
    """A cudaMemcpy of n bytes: over PCIe for host<->device (`h2d`, `d2h`), at twice the
    DRAM traffic for device to device, nothing for host to host."""
    if kind == "h2d":
        return n / gpu.h2d_bytes_per_s
    if kind == "d2h":
        return n / gpu.d2h_bytes_per_s
    if kind == "d2d":
        return 2 * n / gpu.dram_bytes_per_s
    return 0.0
