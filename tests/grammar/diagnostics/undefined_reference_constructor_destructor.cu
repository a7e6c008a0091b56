// a constructor and a destructor declared and never defined are undefined references
// at their implicit uses, as ld reports them (not a crash when the program runs)
struct Counter {
    Counter();
    ~Counter();
    int n;
};

int main()
{
    Counter c;
    return c.n;
}

// EXPECT: 11:13: error: undefined reference to 'Counter::~Counter(Counter *)'
// EXPECT: 11:13: error: undefined reference to 'Counter::Counter(Counter *)'
