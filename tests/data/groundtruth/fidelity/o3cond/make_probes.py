"""Writes the probe programs of this folder (programs/NAME.cu): one kernel, one launch (grid 2,
block 128), each checking its result against the same code run on the host and printing
`NAME OK`.  Each probe varies one thing: the number of && / || terms and whether a term loads,
the length of an if-else-if chain whose arms are stores (or values), the arms' loads, and
divergent conditions (on threadIdx.x & 31) against uniform ones (on the parameter n).

    python make_probes.py        # rewrites programs/*.cu
"""
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
K = "int k = 0;\n"
PROBES = {
    # short-circuit conditions: how many terms, ranges, loads
    "cond_and2_range": K + "if (v >= 10 && v < 20) k = 1;\nout[i] = k;",
    "cond_or2_range": K + "if (v < 10 || v >= 20) k = 1;\nout[i] = k;",
    "cond_or_bands2": K + "if ((v >= 10 && v < 20) || (v >= 40 && v < 50)) k = 1;\nout[i] = k;",
    "cond_or_bands3": K + "if ((v >= 10 && v < 20) || (v >= 40 && v < 50) || (v >= 55 && v < 58)) k = 1;\nout[i] = k;",
    "cond_and2_mixed": K + "if (v > 5 && (t & 3) != 1) k = 1;\nout[i] = k;",
    "cond_and3_mixed": K + "if (v > 5 && (t & 3) != 1 && v != 17) k = 1;\nout[i] = k;",
    "cond_and4_mixed": K + "if (v > 5 && (t & 3) != 1 && v != 17 && (t ^ v) > 9) k = 1;\nout[i] = k;",
    "cond_or3_mixed": K + "if (v < 5 || (t & 3) == 1 || v == 17) k = 1;\nout[i] = k;",
    "cond_and_two_bonus": K + "if (v > 5 && ((v ^ t) + 3 * t) > 90) k = 1;\nout[i] = k;",
    "cond_and_load2": K + "if (v > 5 && in[i + 1] > 20) k = 1;\nout[i] = k;",
    "cond_load_first": K + "if (in[i + 1] > 20 && v > 5) k = 1;\nout[i] = k;",
    "cond_or_load_last": K + "if (v < 5 || in[i + 1] > 40) k = 1;\nout[i] = k;",
    "cond_or_bands_load": K + "if ((v >= 10 && v < 20) || (v >= 40 && v < 50) || in[i + 1] > 40) k = 1;\nout[i] = k;",
    "cond_and_load3": K + "if (t > 0 && v > 5 && in[i - 1] > v + 5 && in[i + 1] > v + 5) k = 2;\nout[i] = k;",
    "cond_and_load_inc": "int k = v & 1;\nif (v > 5 && in[i + 1] > 20) k += 2;\nout[i] = k;",
    "cond_or_load_uni": K + "if (n < 3 || in[i + 1] > 40) k = 1;\nout[i] = k;",
    "cond_and_load_uni": K + "if (n > 3 && in[i + 1] > 20) k = 1;\nout[i] = k;",
    # if-else-if chains: arms that store to one address, to several, values, loads
    "chain_store_2": "if ((t & 31) < 8) out[i] = v + 1;\nelse out[i] = v * 3;",
    "chain_store_3": "if ((t & 31) < 8) out[i] = v + 1;\nelse if ((t & 31) < 16) out[i] = v * 3;\nelse out[i] = -v;",
    "chain_store_4": "if ((t & 31) < 8) out[i] = v + 1;\nelse if ((t & 31) < 16) out[i] = v * 3;\n"
                     "else if ((t & 31) < 24) out[i] = -v;\nelse out[i] = v;",
    "chain_store_5": "if ((t & 31) < 8) out[i] = v + 1;\nelse if ((t & 31) < 16) out[i] = v * 3;\n"
                     "else if ((t & 31) < 20) out[i] = -v;\nelse if ((t & 31) < 24) out[i] = v;\nelse out[i] = v ^ 5;",
    "chain_value_4": "int k;\nif ((t & 31) < 8) k = v + 1;\nelse if ((t & 31) < 16) k = v * 3;\n"
                     "else if ((t & 31) < 24) k = -v;\nelse k = v;\nout[i] = k;",
    "chain_store_4_uni": "if (n < 100) out[i] = v + 1;\nelse if (n < 200) out[i] = v * 3;\n"
                         "else if (n < 300) out[i] = -v;\nelse out[i] = v;",
    "chain_store_4_warp": "if (t < 32) out[i] = v + 1;\nelse if (t < 64) out[i] = v * 3;\n"
                          "else if (t < 96) out[i] = -v;\nelse out[i] = v;",
    "chain_store_3_addr": "if ((t & 31) < 8) out[i] = v + 1;\nelse if ((t & 31) < 16) out[i + n] = v * 3;\n"
                          "else out[i + 2 * n] = -v;",
    "chain_store_3_noelse": "if ((t & 31) < 8) out[i] = v + 1;\nelse if ((t & 31) < 16) out[i] = v * 3;\n"
                            "else if ((t & 31) < 24) out[i] = -v;",
    "chain_store_4_load": "if ((t & 31) < 8) out[i] = in[i + 1];\nelse if ((t & 31) < 16) out[i] = v * 3;\n"
                          "else if ((t & 31) < 24) out[i] = in[i + 2] - v;\nelse out[i] = v;",
    # arms with loads
    "arm_then_load_1": "int k = v;\nif ((t & 31) < 16) k = in[i + 1];\nout[i] = k;",
    "arm_then_load_2": "int k = v;\nif ((t & 31) < 16) k = in[i + 1] + in[i + 2];\nout[i] = k;",
    "arm_ifelse_load": "int k;\nif ((t & 31) < 16) k = in[i + 1] * 3;\nelse k = in[i + 2] + v;\nout[i] = k;",
}

TEMPLATE = """// Probe {name} (tests/data/groundtruth/fidelity/o3cond/make_probes.py wrote it): one launch,
// grid 2, block 128, checked against the same code run on the host.
#include <cstdio>

__global__ void {name}(int *in, int *out, int n) {{
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int v = in[i];
{device}
}}

int main() {{
  const int n = 256;
  int h_in[2 * n + 2], h_out[3 * n], ref[3 * n];
  for (int j = 0; j < 2 * n + 2; j++) h_in[j] = (j * 37) % 61;
  for (int j = 0; j < 3 * n; j++) ref[j] = 0;
  int *d_in, *d_out;
  cudaMalloc(&d_in, sizeof(h_in));
  cudaMalloc(&d_out, sizeof(h_out));
  cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
  cudaMemcpy(d_out, ref, sizeof(ref), cudaMemcpyHostToDevice);
  {name}<<<2, 128>>>(d_in, d_out, n);
  cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost);
  for (int b = 0; b < 2; b++) {{
    for (int t = 0; t < 128; t++) {{
      int *in = h_in, *out = ref;
      int i = b * 128 + t;
      int v = in[i];
{host}
    }}
  }}
  int bad = 0;
  for (int j = 0; j < 3 * n; j++) bad += h_out[j] != ref[j];
  printf("{name} %s\\n", bad == 0 ? "OK" : "FAIL");
  cudaFree(d_in);
  cudaFree(d_out);
  return bad != 0;
}}
"""


def indent(code: str, by: int) -> str:
    return "\n".join(" " * by + line for line in code.splitlines())


if __name__ == "__main__":
    out = HERE / "programs"
    out.mkdir(exist_ok=True)
    for name, code in PROBES.items():
        (out / f"{name}.cu").write_text(TEMPLATE.format(name=name, device=indent(code, 2), host=indent(code, 6)))
