"""What C++ classes minicuda does not support, or a program gets wrong, is a clang-shaped
error at its own location: private members, const objects, constructors, virtual
functions, lambdas given to kernels (nvcc's --extended-lambda)."""
import pytest

from minicuda.cli import minicuda_main

ACCOUNT = """class Account {
public:
    Account(int b) : balance(b) {}
    int get() { return balance; }
private:
    int balance;
};
"""

CASES = [
    ("int main() { Account a(3); return a.balance; }",
     ["x.cu:8:37: error: 'balance' is a private member of 'Account'", "x.cu:6:9: note: declared private here"]),
    ("int main() { const Account c(4); return c.get(); }",
     ["x.cu:8:43: error: 'this' argument to member function 'get' has type 'const Account', "
      "but function is not marked const"]),
    ("int main() { Account z; return 0; }",
     ["x.cu:8:22: error: no matching constructor for initialization of 'Account'"]),
    ("int main() { Account z(1, 2); return 0; }",
     ["x.cu:8:22: error: no matching constructor for initialization of 'Account'"]),
    ("struct B { virtual int f() { return 1; } };\nint main() { return 0; }",
     ["x.cu:8:12: error: virtual member functions are not supported"]),
    ("template <typename F> __global__ void k(F f) { f(1); }\nint main() { k<<<1, 1>>>([](int i) {}); }",
     ["x.cu:9:26: error: The closure type for a lambda (defined at x.cu:9:26) cannot be used in the template argument "
      "type of a __global__ function template instantiation, unless the lambda is defined within a __device__ or "
      "__global__ function, or the lambda is an 'extended lambda' and the flag --extended-lambda is specified"]),
    ("int main() { auto f = [] __device__ (int i) { return i; }; return 0; }",
     ["x.cu:8:26: error: __device__ annotation on lambda requires --extended-lambda nvcc flag"]),
    ("int main() { Account a(1); return a.nope(); }",
     ["x.cu:8:37: error: no member named 'nope' in 'Account'"]),
    ("int Account::missing() { return 0; }",
     ["x.cu:8:14: error: out-of-line definition of 'missing' does not match any declaration in 'Account'"]),
    ("struct Other { int get() { return 1; } };\nint main() { Account a(1); return a.Other::get(); }",
     ["x.cu:9:44: error: 'Other::get' is not a member of class 'Account'"]),
    ("int main() { return Account::get(); }",
     ["x.cu:8:30: error: call to non-static member function without an object argument"]),
]


@pytest.mark.parametrize("body,expected", CASES, ids=range(len(CASES)))
def test_class_errors_are_located(tmp_path, monkeypatch, capsys, body, expected):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.cu").write_text(ACCOUNT + body + "\n")
    assert minicuda_main(["check", "x.cu"]) == 1
    errors = [l for l in capsys.readouterr().err.splitlines() if l.startswith("x.cu:")]
    assert errors == expected
