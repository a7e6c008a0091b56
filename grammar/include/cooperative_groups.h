/* minicuda's <cooperative_groups.h>: CUDA's cooperative groups as classes over the warp and
   block intrinsics, so that each operation lowers to the instruction nvcc's header reaches:
   a block's sync() is BAR.SYNC (__syncthreads), a tile's or a coalesced group's is WARPSYNC
   with the group's lanes (__syncwarp(mask)), shfl* are SHFL with the group's mask and width,
   any/all/ballot are VOTE, match_any/match_all MATCH.ANY/MATCH.ALL, and a grid's sync() is
   BAR.SYNC, the grid barrier, then BAR.SYNC (a cooperative launch: cudaLaunchCooperativeKernel;
   in any other launch the grid group is not valid: is_valid() is false, as nvcc's header has it).
   The lanes of a tile of N threads are its segment of the warp: the block's linear thread
   rank, rounded down to a multiple of N, and the N lanes from there.  A coalesced group is
   the lanes active where coalesced_threads() ran; a thread's rank in it is how many of them
   come before its lane.  A thread_block, tile or coalesced group converts to a thread_group,
   which holds its kind and lanes and picks the operation at run time, as CUDA's does. */
#ifndef __MINICUDA_COOPERATIVE_GROUPS_H
#define __MINICUDA_COOPERATIVE_GROUPS_H
#include <cuda_runtime.h>

/* cudaLaunchCooperativeKernel(kernel, grid, block, args, shared, stream), each dimension a dim3
   or a number (defined here, not in <cuda_runtime.h>, so that a program without cooperative
   groups compiles none of it) */
static inline __host__ cudaError_t cudaLaunchCooperativeKernel(const void *__func, dim3 __grid, dim3 __block,
                                                               void **__args, size_t __sharedMem = 0,
                                                               cudaStream_t __stream = 0)
{
    return __cudaLaunchCooperativeKernel(__func, __grid.x, __grid.y, __grid.z, __block.x, __block.y, __block.z,
                                         __args, __sharedMem, __stream);
}
static inline __host__ cudaError_t cudaLaunchCooperativeKernel(const void *__func, unsigned int __grid,
                                                               unsigned int __block, void **__args,
                                                               size_t __sharedMem = 0, cudaStream_t __stream = 0)
{
    return __cudaLaunchCooperativeKernel(__func, __grid, 1, 1, __block, 1, 1, __args, __sharedMem, __stream);
}
static inline __host__ cudaError_t cudaLaunchCooperativeKernel(const void *__func, dim3 __grid,
                                                               unsigned int __block, void **__args,
                                                               size_t __sharedMem = 0, cudaStream_t __stream = 0)
{
    return __cudaLaunchCooperativeKernel(__func, __grid.x, __grid.y, __grid.z, __block, 1, 1, __args, __sharedMem,
                                         __stream);
}
static inline __host__ cudaError_t cudaLaunchCooperativeKernel(const void *__func, unsigned int __grid,
                                                               dim3 __block, void **__args,
                                                               size_t __sharedMem = 0, cudaStream_t __stream = 0)
{
    return __cudaLaunchCooperativeKernel(__func, __grid, 1, 1, __block.x, __block.y, __block.z, __args, __sharedMem,
                                         __stream);
}

namespace cooperative_groups {
namespace __details {
__device__ unsigned int block_rank()
{
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__device__ unsigned int block_size() { return blockDim.x * blockDim.y * blockDim.z; }
/* the lanes of the tile of `__n` threads (a power of two up to 32) the calling thread is in */
__device__ unsigned int tile_mask(unsigned int __n)
{
    unsigned int __lanes = __n >= 32 ? 0xffffffffu : (1u << __n) - 1u;
    return __lanes << (block_rank() & 31u & ~(__n - 1u));
}
__device__ unsigned int lanes_below() { return (1u << __laneid()) - 1u; }
/* the lane of the member of rank `__rank` in `__mask` (-1 when there is none) */
__device__ int lane_of_rank(unsigned int __mask, unsigned int __rank)
{
    for (int __lane = 0; __lane < 32; __lane++) {
        if (__mask >> __lane & 1u) {
            if (__rank == 0) return __lane;
            __rank--;
        }
    }
    return -1;
}
/* `__bits`, a ballot over the lanes of `__mask`, with each member's bit moved to its rank */
__device__ unsigned int by_rank(unsigned int __bits, unsigned int __mask)
{
    unsigned int __out = 0, __rank = 0;
    for (int __lane = 0; __lane < 32; __lane++) {
        if (__mask >> __lane & 1u) {
            __out |= (__bits >> __lane & 1u) << __rank;
            __rank++;
        }
    }
    return __out;
}
enum group_kind { block_kind, tile_kind, coalesced_kind, grid_kind };
} // namespace __details

/* any group, its kind chosen at run time */
class thread_group {
public:
    unsigned int __kind;
    unsigned int __mask;   // a tile's or coalesced group's lanes
    unsigned int __size;   // a tile's size
    __device__ void sync() const
    {
        if (__kind == __details::block_kind) {
            __syncthreads();
        } else if (__kind == __details::grid_kind) {
            __syncthreads();
            __minicuda_grid_sync();
            __syncthreads();
        } else {
            __syncwarp(__mask);
        }
    }
    __device__ unsigned long long num_threads() const
    {
        if (__kind == __details::block_kind) return __details::block_size();
        if (__kind == __details::tile_kind) return __size;
        if (__kind == __details::coalesced_kind) return __popc(__mask);
        return (unsigned long long)gridDim.x * gridDim.y * gridDim.z * __details::block_size();
    }
    __device__ unsigned long long size() const { return num_threads(); }
    __device__ unsigned long long thread_rank() const
    {
        if (__kind == __details::block_kind) return __details::block_rank();
        if (__kind == __details::tile_kind) return __details::block_rank() & (__size - 1u);
        if (__kind == __details::coalesced_kind) return __popc(__mask & __details::lanes_below());
        unsigned long long __block = blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
        return __block * __details::block_size() + __details::block_rank();
    }
    __device__ bool is_valid() const { return true; }
};

__device__ thread_group __make_group(unsigned int __kind, unsigned int __mask, unsigned int __size)
{
    thread_group __g;
    __g.__kind = __kind;
    __g.__mask = __mask;
    __g.__size = __size;
    return __g;
}

class thread_block {
public:
    __device__ void sync() const { __syncthreads(); }
    __device__ unsigned int thread_rank() const { return __details::block_rank(); }
    __device__ unsigned int num_threads() const { return __details::block_size(); }
    __device__ unsigned int size() const { return __details::block_size(); }
    __device__ dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    __device__ dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    __device__ dim3 dim_threads() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
    __device__ dim3 group_dim() const { return dim_threads(); }
    __device__ bool is_valid() const { return true; }
    __device__ operator thread_group() const { return __make_group(__details::block_kind, 0xffffffffu, 0); }
};

__device__ thread_block this_thread_block() { return thread_block(); }

/* the whole grid: sync() needs a cooperative launch (cudaLaunchCooperativeKernel) */
class grid_group {
public:
    __device__ void sync() const
    {
        __syncthreads();
        __minicuda_grid_sync();
        __syncthreads();
    }
    __device__ unsigned long long block_rank() const
    {
        return blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    }
    __device__ unsigned long long thread_rank() const
    {
        return block_rank() * __details::block_size() + __details::block_rank();
    }
    __device__ unsigned long long num_blocks() const
    {
        return (unsigned long long)gridDim.x * gridDim.y * gridDim.z;
    }
    __device__ unsigned long long num_threads() const { return num_blocks() * __details::block_size(); }
    __device__ unsigned long long size() const { return num_threads(); }
    __device__ dim3 block_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    __device__ dim3 dim_blocks() const { return dim3(gridDim.x, gridDim.y, gridDim.z); }
    __device__ dim3 group_dim() const { return dim3(gridDim.x, gridDim.y, gridDim.z); }
    /* whether sync() may be called: the kernel was launched with cudaLaunchCooperativeKernel */
    __device__ bool is_valid() const { return __minicuda_grid_is_valid() != 0; }
    __device__ operator thread_group() const { return __make_group(__details::grid_kind, 0xffffffffu, 0); }
};

__device__ grid_group this_grid() { return grid_group(); }

/* a tile of _Size threads (1, 2, 4, 8, 16 or 32): its lanes are its segment of the warp */
template <unsigned int _Size>
class thread_block_tile {
public:
    unsigned int __mask;
    __device__ void sync() const { __syncwarp(__mask); }
    __device__ unsigned int thread_rank() const { return __details::block_rank() & (_Size - 1u); }
    __device__ unsigned long long num_threads() const { return _Size; }
    __device__ unsigned long long size() const { return _Size; }
    __device__ unsigned int meta_group_rank() const { return __details::block_rank() / _Size; }
    __device__ unsigned int meta_group_size() const { return (__details::block_size() + _Size - 1u) / _Size; }
    __device__ bool is_valid() const { return true; }
    __device__ int shfl(int __var, int __srcRank) const { return __shfl_sync(__mask, __var, __srcRank, _Size); }
    __device__ unsigned int shfl(unsigned int __var, int __srcRank) const { return __shfl_sync(__mask, __var, __srcRank, _Size); }
    __device__ long long shfl(long long __var, int __srcRank) const { return __shfl_sync(__mask, __var, __srcRank, _Size); }
    __device__ float shfl(float __var, int __srcRank) const { return __shfl_sync(__mask, __var, __srcRank, _Size); }
    __device__ double shfl(double __var, int __srcRank) const { return __shfl_sync(__mask, __var, __srcRank, _Size); }
    __device__ int shfl_down(int __var, unsigned int __delta) const { return __shfl_down_sync(__mask, __var, __delta, _Size); }
    __device__ unsigned int shfl_down(unsigned int __var, unsigned int __delta) const { return __shfl_down_sync(__mask, __var, __delta, _Size); }
    __device__ long long shfl_down(long long __var, unsigned int __delta) const { return __shfl_down_sync(__mask, __var, __delta, _Size); }
    __device__ float shfl_down(float __var, unsigned int __delta) const { return __shfl_down_sync(__mask, __var, __delta, _Size); }
    __device__ double shfl_down(double __var, unsigned int __delta) const { return __shfl_down_sync(__mask, __var, __delta, _Size); }
    __device__ int shfl_up(int __var, unsigned int __delta) const { return __shfl_up_sync(__mask, __var, __delta, _Size); }
    __device__ unsigned int shfl_up(unsigned int __var, unsigned int __delta) const { return __shfl_up_sync(__mask, __var, __delta, _Size); }
    __device__ long long shfl_up(long long __var, unsigned int __delta) const { return __shfl_up_sync(__mask, __var, __delta, _Size); }
    __device__ float shfl_up(float __var, unsigned int __delta) const { return __shfl_up_sync(__mask, __var, __delta, _Size); }
    __device__ double shfl_up(double __var, unsigned int __delta) const { return __shfl_up_sync(__mask, __var, __delta, _Size); }
    __device__ int shfl_xor(int __var, unsigned int __laneMask) const { return __shfl_xor_sync(__mask, __var, __laneMask, _Size); }
    __device__ unsigned int shfl_xor(unsigned int __var, unsigned int __laneMask) const { return __shfl_xor_sync(__mask, __var, __laneMask, _Size); }
    __device__ long long shfl_xor(long long __var, unsigned int __laneMask) const { return __shfl_xor_sync(__mask, __var, __laneMask, _Size); }
    __device__ float shfl_xor(float __var, unsigned int __laneMask) const { return __shfl_xor_sync(__mask, __var, __laneMask, _Size); }
    __device__ double shfl_xor(double __var, unsigned int __laneMask) const { return __shfl_xor_sync(__mask, __var, __laneMask, _Size); }
    __device__ int any(int __predicate) const { return __any_sync(__mask, __predicate); }
    __device__ int all(int __predicate) const { return __all_sync(__mask, __predicate); }
    /* the tile's threads' predicates, by rank */
    __device__ unsigned int ballot(int __predicate) const
    {
        return __ballot_sync(__mask, __predicate) >> (__details::block_rank() & 31u & ~(_Size - 1u));
    }
    /* the tile's threads holding this thread's value, by rank (MATCH.ANY); match_all: all of
       them when they all hold the same value (then __pred = 1), else 0 (MATCH.ALL) */
    __device__ unsigned int __by_rank(unsigned int __lanes) const
    {
        return __lanes >> (__details::block_rank() & 31u & ~(_Size - 1u));
    }
    __device__ unsigned int match_any(int __value) const { return __by_rank(__match_any_sync(__mask, __value)); }
    __device__ unsigned int match_any(unsigned int __value) const { return __by_rank(__match_any_sync(__mask, __value)); }
    __device__ unsigned int match_any(long long __value) const { return __by_rank(__match_any_sync(__mask, __value)); }
    __device__ unsigned int match_any(unsigned long long __value) const { return __by_rank(__match_any_sync(__mask, __value)); }
    __device__ unsigned int match_any(float __value) const { return __by_rank(__match_any_sync(__mask, __value)); }
    __device__ unsigned int match_any(double __value) const { return __by_rank(__match_any_sync(__mask, __value)); }
    __device__ unsigned int match_all(int __value, int &__pred) const { return __by_rank(__match_all_sync(__mask, __value, &__pred)); }
    __device__ unsigned int match_all(unsigned int __value, int &__pred) const { return __by_rank(__match_all_sync(__mask, __value, &__pred)); }
    __device__ unsigned int match_all(long long __value, int &__pred) const { return __by_rank(__match_all_sync(__mask, __value, &__pred)); }
    __device__ unsigned int match_all(unsigned long long __value, int &__pred) const { return __by_rank(__match_all_sync(__mask, __value, &__pred)); }
    __device__ unsigned int match_all(float __value, int &__pred) const { return __by_rank(__match_all_sync(__mask, __value, &__pred)); }
    __device__ unsigned int match_all(double __value, int &__pred) const { return __by_rank(__match_all_sync(__mask, __value, &__pred)); }
    __device__ operator thread_group() const { return __make_group(__details::tile_kind, __mask, _Size); }
};

template <unsigned int _Size>
__device__ thread_block_tile<_Size> tiled_partition(const thread_block &__parent)
{
    thread_block_tile<_Size> __tile;
    __tile.__mask = __details::tile_mask(_Size);
    return __tile;
}

/* a tile of `n` threads, its size known at run time */
__device__ thread_group tiled_partition(const thread_block &__parent, unsigned int __n)
{
    return __make_group(__details::tile_kind, __details::tile_mask(__n), __n);
}
__device__ thread_group tiled_partition(const thread_group &__parent, unsigned int __n)
{
    return __make_group(__details::tile_kind, __details::tile_mask(__n), __n);
}

/* the lanes active here: ranks count the members below a thread's lane */
class coalesced_group {
public:
    unsigned int __mask;
    __device__ void sync() const { __syncwarp(__mask); }
    __device__ unsigned long long num_threads() const { return __popc(__mask); }
    __device__ unsigned long long size() const { return __popc(__mask); }
    __device__ unsigned long long thread_rank() const { return __popc(__mask & __details::lanes_below()); }
    __device__ unsigned int meta_group_rank() const { return 0; }
    __device__ unsigned int meta_group_size() const { return 1; }
    __device__ bool is_valid() const { return true; }
    __device__ int __lane(unsigned int __rank) const { return __details::lane_of_rank(__mask, __rank); }
    __device__ int __down(unsigned int __delta) const
    {
        int __lane_there = __lane((unsigned int)thread_rank() + __delta);
        return __lane_there < 0 ? (int)__laneid() : __lane_there;
    }
    __device__ int __up(unsigned int __delta) const
    {
        unsigned int __rank = (unsigned int)thread_rank();
        return __rank < __delta ? (int)__laneid() : __lane(__rank - __delta);
    }
    __device__ int shfl(int __var, unsigned int __srcRank) const { return __shfl_sync(__mask, __var, __lane(__srcRank)); }
    __device__ unsigned int shfl(unsigned int __var, unsigned int __srcRank) const { return __shfl_sync(__mask, __var, __lane(__srcRank)); }
    __device__ long long shfl(long long __var, unsigned int __srcRank) const { return __shfl_sync(__mask, __var, __lane(__srcRank)); }
    __device__ float shfl(float __var, unsigned int __srcRank) const { return __shfl_sync(__mask, __var, __lane(__srcRank)); }
    __device__ double shfl(double __var, unsigned int __srcRank) const { return __shfl_sync(__mask, __var, __lane(__srcRank)); }
    __device__ int shfl_down(int __var, unsigned int __delta) const { return __shfl_sync(__mask, __var, __down(__delta)); }
    __device__ unsigned int shfl_down(unsigned int __var, unsigned int __delta) const { return __shfl_sync(__mask, __var, __down(__delta)); }
    __device__ long long shfl_down(long long __var, unsigned int __delta) const { return __shfl_sync(__mask, __var, __down(__delta)); }
    __device__ float shfl_down(float __var, unsigned int __delta) const { return __shfl_sync(__mask, __var, __down(__delta)); }
    __device__ double shfl_down(double __var, unsigned int __delta) const { return __shfl_sync(__mask, __var, __down(__delta)); }
    __device__ int shfl_up(int __var, unsigned int __delta) const { return __shfl_sync(__mask, __var, __up(__delta)); }
    __device__ unsigned int shfl_up(unsigned int __var, unsigned int __delta) const { return __shfl_sync(__mask, __var, __up(__delta)); }
    __device__ long long shfl_up(long long __var, unsigned int __delta) const { return __shfl_sync(__mask, __var, __up(__delta)); }
    __device__ float shfl_up(float __var, unsigned int __delta) const { return __shfl_sync(__mask, __var, __up(__delta)); }
    __device__ double shfl_up(double __var, unsigned int __delta) const { return __shfl_sync(__mask, __var, __up(__delta)); }
    __device__ int any(int __predicate) const { return __any_sync(__mask, __predicate); }
    __device__ int all(int __predicate) const { return __all_sync(__mask, __predicate); }
    /* the members' predicates, by rank */
    __device__ unsigned int ballot(int __predicate) const
    {
        return __details::by_rank(__ballot_sync(__mask, __predicate), __mask);
    }
    /* the members holding this thread's value, by rank (MATCH.ANY); match_all: all members
       when they all hold the same value (then __pred = 1), else 0 (MATCH.ALL) */
    __device__ unsigned int match_any(int __value) const { return __details::by_rank(__match_any_sync(__mask, __value), __mask); }
    __device__ unsigned int match_any(unsigned int __value) const { return __details::by_rank(__match_any_sync(__mask, __value), __mask); }
    __device__ unsigned int match_any(long long __value) const { return __details::by_rank(__match_any_sync(__mask, __value), __mask); }
    __device__ unsigned int match_any(unsigned long long __value) const { return __details::by_rank(__match_any_sync(__mask, __value), __mask); }
    __device__ unsigned int match_any(float __value) const { return __details::by_rank(__match_any_sync(__mask, __value), __mask); }
    __device__ unsigned int match_any(double __value) const { return __details::by_rank(__match_any_sync(__mask, __value), __mask); }
    __device__ unsigned int match_all(int __value, int &__pred) const { return __details::by_rank(__match_all_sync(__mask, __value, &__pred), __mask); }
    __device__ unsigned int match_all(unsigned int __value, int &__pred) const { return __details::by_rank(__match_all_sync(__mask, __value, &__pred), __mask); }
    __device__ unsigned int match_all(long long __value, int &__pred) const { return __details::by_rank(__match_all_sync(__mask, __value, &__pred), __mask); }
    __device__ unsigned int match_all(unsigned long long __value, int &__pred) const { return __details::by_rank(__match_all_sync(__mask, __value, &__pred), __mask); }
    __device__ unsigned int match_all(float __value, int &__pred) const { return __details::by_rank(__match_all_sync(__mask, __value, &__pred), __mask); }
    __device__ unsigned int match_all(double __value, int &__pred) const { return __details::by_rank(__match_all_sync(__mask, __value, &__pred), __mask); }
    __device__ operator thread_group() const { return __make_group(__details::coalesced_kind, __mask, 0); }
};

__device__ coalesced_group coalesced_threads()
{
    coalesced_group __group;
    __group.__mask = __activemask();
    return __group;
}

/* cg::sync(g) and cg::thread_rank(g) of any group */
template <typename _Group>
__device__ void sync(const _Group &__group) { __group.sync(); }
template <typename _Group>
__device__ unsigned long long thread_rank(const _Group &__group) { return __group.thread_rank(); }
template <typename _Group>
__device__ unsigned long long num_threads(const _Group &__group) { return __group.num_threads(); }
} // namespace cooperative_groups

#endif
