/* minicuda's std::distance, std::advance, std::next and std::prev, which <iterator>,
   <vector>, <algorithm> and <utility> bring in (as libstdc++'s do), host and device.
   Every iterator here is random access (a pointer), so each is one pointer step;
   distance's type is long, as libstdc++'s ptrdiff_t. */
#ifndef __MINICUDA_ITERATOR_FUNCS
#define __MINICUDA_ITERATOR_FUNCS
namespace std {
template <class _It> __host__ __device__ long distance(_It __first, _It __last) { return __last - __first; }
template <class _It, class _N> __host__ __device__ void advance(_It &__it, _N __n) { __it += __n; }
template <class _It> __host__ __device__ _It next(_It __it, long __n = 1) { return __it + __n; }
template <class _It> __host__ __device__ _It prev(_It __it, long __n = 1) { return __it - __n; }
}
#endif
