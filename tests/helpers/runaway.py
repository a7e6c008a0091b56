"""A host loop that never ends, for the tests that stop runaway programs
(tests/vm/test_stop.py in-process, tests/minicuda/test_cli_runaway.py through the CLI)."""

HOST_SPIN = """#include <cstdio>
int collatz(long n)
{
    int steps = 0;
    while (n != 1) {
        n = n % 2 ? n : n / 2;
        steps++;
    }
    return steps;
}

int main()
{
    printf("start\\n");
    printf("%d\\n", collatz(3));
    return 0;
}
"""
