// Compares two binary outputs element by element (32-bit elements) and
// reports how many differ and where the first difference is.
#include <cstdint>
#include <cstdio>
#include <vector>

static bool readAll(const char *path, std::vector<uint32_t> &out) {
  FILE *f = std::fopen(path, "rb");
  if (!f)
    return false;
  uint32_t v;
  while (std::fread(&v, sizeof v, 1, f) == 1)
    out.push_back(v);
  std::fclose(f);
  return true;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <expected> <actual>\n", argv[0]);
    return 2;
  }
  std::vector<uint32_t> a, b;
  if (!readAll(argv[1], a) || !readAll(argv[2], b)) {
    std::printf("MISSING output\n");
    return 1;
  }
  if (a.size() != b.size()) {
    std::printf("MISMATCH sizes %zu vs %zu elements\n", a.size(), b.size());
    return 1;
  }
  size_t differ = 0, first = 0;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i] && differ++ == 0)
      first = i;
  if (differ) {
    std::printf("MISMATCH %zu of %zu elements, first at %zu: %u vs %u\n", differ, a.size(),
                first, a[first], b[first]);
    return 1;
  }
  std::printf("equal %zu elements\n", a.size());
  return 0;
}
