/* minicuda's <cooperative_groups/reduce.h>: cg::reduce(group, value, op) over a tile or a
   coalesced group, with the function objects cg::plus, cg::less (the minimum), cg::greater
   (the maximum), cg::bit_and, cg::bit_or and cg::bit_xor.  Every member receives the result.
   It is a tree of SHFL.DOWN steps towards rank 0 and a SHFL.IDX from there (nvcc's header
   uses REDUX, one instruction, for 32-bit integers on sm_80 and newer; the result is the
   same, the instruction count is not). */
#ifndef __MINICUDA_COOPERATIVE_GROUPS_REDUCE_H
#define __MINICUDA_COOPERATIVE_GROUPS_REDUCE_H
#include <cooperative_groups.h>

namespace cooperative_groups {
template <typename _Tp>
struct plus {
    __device__ _Tp operator()(const _Tp &__a, const _Tp &__b) const { return __a + __b; }
};
template <typename _Tp>
struct less {
    __device__ _Tp operator()(const _Tp &__a, const _Tp &__b) const { return __b < __a ? __b : __a; }
};
template <typename _Tp>
struct greater {
    __device__ _Tp operator()(const _Tp &__a, const _Tp &__b) const { return __a < __b ? __b : __a; }
};
template <typename _Tp>
struct bit_and {
    __device__ _Tp operator()(const _Tp &__a, const _Tp &__b) const { return __a & __b; }
};
template <typename _Tp>
struct bit_or {
    __device__ _Tp operator()(const _Tp &__a, const _Tp &__b) const { return __a | __b; }
};
template <typename _Tp>
struct bit_xor {
    __device__ _Tp operator()(const _Tp &__a, const _Tp &__b) const { return __a ^ __b; }
};

template <typename _Group, typename _Tp, typename _Op>
__device__ _Tp reduce(const _Group &__group, _Tp __value, _Op __op)
{
    unsigned int __n = (unsigned int)__group.num_threads();
    unsigned int __rank = (unsigned int)__group.thread_rank();
    for (unsigned int __offset = 1; __offset < __n; __offset *= 2) {
        _Tp __other = __group.shfl_down(__value, __offset);
        if (__rank + __offset < __n) __value = __op(__value, __other);
    }
    return __group.shfl(__value, 0);
}
} // namespace cooperative_groups

#endif
