"""The context block native code and Python share: one int64 array of fields.

The engine fills a context per worker (pointers to the block state's sections,
the memory table, the symbol values, counters) and passes its address to the
compiled entry points; native code writes back counters, the block it reached,
and, when it hands an instruction to the interpreter, which warp and pc.
"""
from minicuda.vm.state import SECTIONS

# ---- context fields (int64 each) ----------------------------------------------------------
SECTION = {name: i for i, (name, _) in enumerate(SECTIONS)}   # 0..9: section base pointers
SYMS = 10          # uint64[] symbol addresses, in the order of the compiled module's table
MT_N = 11          # the memory table: entries, then sorted bases, ends (base + size; = base when freed or
                   # out of the side's reach), host pointers
MT_BASE = 12
MT_END = 13
MT_HOST = 14
COUNTERS = 15      # int64[NCOUNTERS]
NWARPS = 16
BLOCK = 17         # the block running (linear index), then the end of the range to run
BLOCK_END = 18
BAIL_WARP = 19     # where native code stopped to let the interpreter run one instruction
BAIL_PC = 20
RESUME = 21        # 1: go on with the block in the state (after the interpreter's instruction);
                   # RESUME_OPEN: open its barrier (the engine delivered the BAR.RED results)
GRID_X, GRID_Y, GRID_Z = 22, 23, 24
TEMPLATE = 25      # the block's starting image and its size
STATE_SIZE = 26
STATE = 27
SCOPE_N = 28       # the block scope's storage to zero at each block: count, host pointers, sizes
SCOPE_PTRS = 29
SCOPE_SIZES = 30
SEED = 31          # the seeded ITS schedule: on/off and seed
RNG_ON = 32
MAX_STEPS = 33
WARN = 34          # int64[WARN_CAP]: blocks whose __syncthreads() completed with part of the block
NWARN = 35
ABORT = 36
RAND = 37          # uint32[33]: glibc rand()'s state (31 words, front, rear)
STOP = 38          # int64*: the stop flag (vm/stop.py), read every POLL_STEPS, at each block and each round
TOOLS = 39         # non-zero: a --tool check native code leaves to the interpreter is on (vm/tools.py)
PRINTF_FROM = 40   # int64*: the first block whose device printf is dropped (the FIFO is full before it)
MT_WEND = 41       # the memory table's ends for stores (= base where the allocation is read-only)
FIRST_CHECK = 42   # a warp's CHECK word after a memory change (vm/cycles.py)
PROFILE = 43       # int64[instructions x vm/profile.py's NATIVE_COLUMNS]: a profiled function's counters
MT_INIT = 44       # the memory table's initcheck flags pointers (0: the allocation is not tracked)
STACK_ROOM = 45    # the host thread's stack the running frame leaves (vm/jit/host_callees.py); 0: unknown
# the memory counters' variant (vm/jit/memlog.py): the access log, its records so far and its
# room (records), and int64[instructions]: each instruction's warp executions
MEMLOG = 46
MEMLOG_N = 47
MEMLOG_CAP = 48
EXECS = 49
# the timing model's variant (vm/jit/rounds.py): the block state's round-trip words, and the
# loads a warp keeps in flight
ROUNDS = 50
ROUND_LIMIT = 51
NFIELDS = 52

WARN_CAP = 1024

# ---- counters ------------------------------------------------------------------------------
# WRITES: instructions that changed memory (a spinning warp runs again when it grows)
# the load round trips and the arithmetic chains' steps (vm/load_rounds.py), with the timing model
INST, THREAD, PRED_ON, BRANCH, DIVERGENT, MAX_DEPTH, MAX_PATHS, BARRIERS, STEPS, WRITES = range(10)
GLOBAL_ROUNDS, SHARED_ROUNDS, ALU_CHAIN = 10, 11, 12
NCOUNTERS = 13

# ---- what an entry point returns -----------------------------------------------------------
DONE, AT_BAR, BAIL, OPENING = 0, 1, 2, 3   # OPENING: run_blocks stopped as a barrier with BAR.RED opens
STOPPED = 4        # run_blocks saw the stop flag set between two rounds of a block's warps
SPINNING = 5       # run_blocks ended a round with warps proven to spin (vm/cycles.py): the engine wakes
                   # those memory changed for since (status WAKE) and resumes, or reports the block stuck
RESUME_OPEN = 2
