int helper(int);

int main()
{
    (void)helper;
    return 0;
}

// EXPECT: 5:11: error: undefined reference to 'helper(int)'
