#include "SourceEdits.h"

#include <algorithm>
#include <numeric>

namespace launchopt {

void SourceEdits::replace(unsigned Offset, unsigned Length, std::string Text) {
  Edits.push_back({Offset, Length, std::move(Text)});
}

unsigned SourceEdits::originalOffset(unsigned EditedOffset, bool *InInsertedText) const {
  std::vector<const SourceEdit *> Sorted;
  for (const SourceEdit &E : Edits)
    Sorted.push_back(&E);
  std::stable_sort(Sorted.begin(), Sorted.end(),
                   [](const SourceEdit *A, const SourceEdit *B) { return A->Offset < B->Offset; });
  long long Shift = 0; // edited minus original, before the current edit
  for (const SourceEdit *E : Sorted) {
    long long Start = E->Offset + Shift;
    if (EditedOffset < Start)
      break;
    if (EditedOffset < Start + (long long)E->Text.size()) {
      if (InInsertedText && E->Length == 0)
        *InInsertedText = true;
      return E->Offset;
    }
    Shift += (long long)E->Text.size() - E->Length;
  }
  return static_cast<unsigned>(EditedOffset - Shift);
}

llvm::Expected<std::string> SourceEdits::apply(const std::string &Original) const {
  std::vector<size_t> Order(Edits.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(),
                   [&](size_t A, size_t B) { return Edits[A].Offset < Edits[B].Offset; });
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
