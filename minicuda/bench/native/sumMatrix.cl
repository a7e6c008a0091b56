/* sumMatrix.cl: sumMatrix.cu's kernel in OpenCL C, for PoCL (threadIdx is get_local_id, ...). */

__kernel void sumMatrixOnGPU2D(__global float *MatA, __global float *MatB, __global float *MatC, int nx, int ny)
{
    unsigned int ix = get_local_id(0) + get_group_id(0) * get_local_size(0);
    unsigned int iy = get_local_id(1) + get_group_id(1) * get_local_size(1);
    unsigned int idx = iy * nx + ix;
    if (ix < nx && iy < ny) MatC[idx] = MatA[idx] + MatB[idx];
}
