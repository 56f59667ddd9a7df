// A seeded random source whose sequence is the same on every platform and
// standard library (std:: distributions are not), so a seed names one program.
#ifndef LAUNCHOPT_DPGEN_RANDOM_H
#define LAUNCHOPT_DPGEN_RANDOM_H

#include <cstdint>
#include <vector>

namespace dpgen {

class Random {
public:
  explicit Random(uint64_t Seed) : State(Seed) {}

  uint64_t next() {
    uint64_t Z = (State += 0x9e3779b97f4a7c15ULL);
    Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebULL;
    return Z ^ (Z >> 31);
  }
  /// Uniform in [0, Bound).
  unsigned below(unsigned Bound) { return Bound ? static_cast<unsigned>(next() % Bound) : 0; }
  /// Uniform in [Low, High].
  unsigned between(unsigned Low, unsigned High) { return Low + below(High - Low + 1); }
  /// True with probability Percent / 100.
  bool chance(unsigned Percent) { return below(100) < Percent; }
  template <typename T> const T &pick(const std::vector<T> &Choices) {
    return Choices[below(static_cast<unsigned>(Choices.size()))];
  }

private:
  uint64_t State;
};

} // namespace dpgen

#endif
