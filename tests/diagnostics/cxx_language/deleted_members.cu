struct Handle {
    int id;
    Handle(int i) : id(i) {}
    Handle(const Handle &) = delete;
    Handle &operator=(const Handle &) = delete;
    void reset() = delete;
};
int main() {
    Handle a(1), b(2);
    Handle c = a;
    b.reset();
    b = a;
    return c.id;
}
// EXPECT: 10:16: error: call to deleted constructor of 'Handle'
// EXPECT: 11:5: error: call to deleted function 'Handle::reset'
// EXPECT: 12:7: error: call to deleted function 'Handle::operator='
