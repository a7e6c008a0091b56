int square(int x);
int square(double x) { return 1; }

int main()
{
    return square(2);
}

// EXPECT: 6:12: error: undefined reference to 'square(int)'
