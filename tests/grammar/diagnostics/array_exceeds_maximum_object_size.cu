__device__ char g[1ull << 63];

struct Big {
    int n;
    float values[1ull << 62];
};

int main()
{
    char local[1ull << 63];
    return local[0] + g[0];
}

// EXPECT: 1:17: error: size '9223372036854775808' of array 'g' exceeds maximum object size '9223372036854775807'
// EXPECT: 5:11: error: size '18446744073709551616' of array 'values' exceeds maximum object size '9223372036854775807'
// EXPECT: 10:10: error: size '9223372036854775808' of array 'local' exceeds maximum object size '9223372036854775807'
