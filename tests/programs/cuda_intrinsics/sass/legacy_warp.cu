// RUN: minicudac %s -O0 -arch=sm_60 2>&1 | filecheck %s
// RUN: not minicudac %s -O0 -arch=sm_70 2>&1 | filecheck --check-prefix=SM70 %s
//
// The warp intrinsics without a mask: below sm_70 nvcc's deprecation warning and a
// SHFL / VOTE over the whole warp; from sm_70 on nvcc's error at each call.
__global__ void legacy(int *o) {
    // CHECK: legacy_warp.cu:10:12: warning: function "__shfl_down(int, unsigned int, int)" was declared deprecated ("__shfl_down() is deprecated in favor of __shfl_down_sync() and may be removed in a future release (Use -Wno-deprecated-declarations to suppress this warning).")
    // SM70: legacy_warp.cu:10:12: error: identifier "__shfl_down" is undefined
    // SM70-NOT: warning
    o[0] = __shfl_down(o[1], 1);
    // CHECK: legacy_warp.cu:13:12: warning: function "__ballot(int)" was declared deprecated
    // SM70: legacy_warp.cu:13:12: error: identifier "__ballot" is undefined
    o[1] = __ballot(o[2] > 0);
    // SM70: 2 errors generated.
}
// CHECK: SHFL.DOWN {{.*}}, 0xffffffff
// CHECK: VOTE.BALLOT {{.*}}, 0xffffffff
