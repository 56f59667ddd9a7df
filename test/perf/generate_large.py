#!/usr/bin/env python3
"""Writes a CUDA file of about LINES lines: many parent/child kernel pairs with
device-side launches in the forms users write, plus host code launching them."""
import sys

FORMS = [
    "({n} + 255) / 256, 256",
    "({n} - 1) / 128 + 1, 128",
    "dim3(({n} + 15) / 16, ({m} + 15) / 16), dim3(16, 16)",
    "(int)ceil((float){n} / 64), 64",
]


def pair(i):
    form = FORMS[i % len(FORMS)].format(n="count", m="rows")
    two_d = "dim3(" in form
    index = ("int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
             "  int y = blockIdx.y * blockDim.y + threadIdx.y;\n"
             "  if (x >= count || y >= rows)\n    return;\n"
             "  int i = y * count + x;\n") if two_d else (
             "int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
             "  if (i >= count)\n    return;\n")
    return f"""
// Child kernel number {i}: scales one segment.
__global__ void child{i}(float *data, int count, int rows, float factor) {{
  {index}  float v = data[i];
  for (int k = 0; k < 4; ++k)
    v = v * factor + (float)k;
  data[i] = v;
}}

// Parent kernel number {i}: one child grid per parent thread.
__global__ void parent{i}(float *data, const int *sizes, int parents) {{
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= parents)
    return;
  int count = sizes[p];
  int rows = 1 + p % 3;
  if (count > 0)
    child{i}<<<{form}, 0, cudaStreamFireAndForget>>>(data + p * 64, count, rows, 1.5f);
}}
"""


def main():
    lines = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    out = ["#include <cuda_runtime.h>", "#include <cstdio>", ""]
    i = 0
    body = []
    while len("\n".join(out + body).splitlines()) < lines - 30:
        body.append(pair(i))
        i += 1
    host = ["", "void launchAll(float *data, const int *sizes, int parents) {"]
    for k in range(i):
        host.append(f"  parent{k}<<<(parents + 127) / 128, 128>>>(data, sizes, parents);")
    host.append("}")
    print("\n".join(out + body + host))


if __name__ == "__main__":
    main()
