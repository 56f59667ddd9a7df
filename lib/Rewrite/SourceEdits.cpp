#include "SourceEdits.h"

#include <algorithm>
#include <numeric>

namespace launchopt {

void SourceEdits::replace(unsigned Offset, unsigned Length, std::string Text) {
  Edits.push_back({Offset, Length, std::move(Text)});
}

llvm::Expected<std::string> SourceEdits::apply(const std::string &Original) const {
  std::vector<size_t> Order(Edits.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return Edits[A].Offset < Edits[B].Offset;
  });
  std::string Out;
  Out.reserve(Original.size() + 1024);
  size_t Cursor = 0;
  for (size_t I : Order) {
    const SourceEdit &E = Edits[I];
    if (E.Offset < Cursor || E.Offset + E.Length > Original.size())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "conflicting source edits at offset " +
                                         std::to_string(E.Offset));
    Out.append(Original, Cursor, E.Offset - Cursor);
    Out += E.Text;
    Cursor = E.Offset + E.Length;
  }
  Out.append(Original, Cursor, std::string::npos);
  return Out;
}

} // namespace launchopt
