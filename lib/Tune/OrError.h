#ifndef LAUNCHOPT_TUNE_ORERROR_H
#define LAUNCHOPT_TUNE_ORERROR_H

// The error style of lib/Tune. The rest of launchopt returns llvm::Expected
// and llvm::Error; this folder builds without LLVM (launchopt-tune runs on a
// GPU machine that has none), so it has the same idea in a few lines: a
// value, or the message that says why there is none.

#include <optional>
#include <string>
#include <utility>

namespace launchopt {

// What went wrong, to build a failed OrError from.
struct TuneError {
  std::string Message;
};

template <typename T> class OrError {
public:
  OrError(T Value) : Value(std::move(Value)) {}
  OrError(TuneError Error) : Message(std::move(Error.Message)) {}

  explicit operator bool() const { return Value.has_value(); }
  T &operator*() { return *Value; }
  const T &operator*() const { return *Value; }
  T *operator->() { return &*Value; }
  const T *operator->() const { return &*Value; }
  // Why there is no value; empty when there is one.
  const std::string &error() const { return Message; }

private:
  std::optional<T> Value;
  std::string Message;
};

// A check that has no value to return.
struct Checked {};
using CheckResult = OrError<Checked>;

inline CheckResult checked() { return Checked{}; }

} // namespace launchopt

#endif
