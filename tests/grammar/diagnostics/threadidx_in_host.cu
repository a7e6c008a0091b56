int main()
{
    int i = threadIdx.x;
    return i;
}

// nvcc -c accepts this, but linking fails (undefined __device_builtin_variable_threadIdx);
// clang rejects it when compiling.
// EXPECT: 3:13: error: 'threadIdx' is only available in device code (used in __host__ function 'main')
