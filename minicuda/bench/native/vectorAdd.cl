/* vectorAdd.cl: vectorAdd.cu's kernel in OpenCL C, for PoCL (threadIdx is get_local_id, ...). */

__kernel void vectorAdd(__global const float *A, __global const float *B, __global float *C, int numElements)
{
    int i = get_local_size(0) * get_group_id(0) + get_local_id(0);
    if (i < numElements) C[i] = A[i] + B[i];
}
