#ifndef LAUNCHOPT_REWRITE_SOURCEEDITS_H
#define LAUNCHOPT_REWRITE_SOURCEEDITS_H

#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace launchopt {

// A replacement of [Offset, Offset + Length) of the original text. Length 0
// is an insertion; insertions at one offset keep the order they were added.
struct SourceEdit {
  unsigned Offset = 0;
  unsigned Length = 0;
  std::string Text;
};

class SourceEdits {
public:
  void replace(unsigned Offset, unsigned Length, std::string Text);
  void insert(unsigned Offset, std::string Text) { replace(Offset, 0, std::move(Text)); }
  bool empty() const { return Edits.empty(); }
  size_t size() const { return Edits.size(); }
  const std::vector<SourceEdit> &edits() const { return Edits; }

  // The original text with every edit applied, or an error naming the first
  // two edits that overlap or fall outside the text.
  llvm::Expected<std::string> apply(const std::string &Original) const;

  // The offset in the original text of a position in the edited text: the
  // same text before, after and between edits, and the start of the edit for
  // a position inside text an edit inserted or replaced. *InInsertedText is
  // set for a position in text inserted where nothing was (code a pass
  // generated, such as a copy of a kernel), not for the replacement of a
  // range, whose start still names the code it replaced.
  unsigned originalOffset(unsigned EditedOffset, bool *InInsertedText = nullptr) const;

private:
  std::vector<SourceEdit> Edits;
};

} // namespace launchopt

#endif
