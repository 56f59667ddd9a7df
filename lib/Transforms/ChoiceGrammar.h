#ifndef LAUNCHOPT_TRANSFORMS_CHOICEGRAMMAR_H
#define LAUNCHOPT_TRANSFORMS_CHOICEGRAMMAR_H

// The grammar of a pass flag's value as Passes.def writes it:
// "warp|block|multiblock:<N>|grid", alternatives separated by '|', where <N>
// stands for a positive decimal number. One matcher for the pass that reads
// the value and for the tuner that checks it before anything is transformed.
// Plain C++17 (no LLVM), for the tuner's run half.

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace launchopt {

// The alternative a value matched ("multiblock:<N>") and its number (0 when
// the alternative has none).
struct ChoiceMatch {
  std::string Alternative;
  unsigned Number = 0;
};

// Text cut at every Separator: "a,,b" -> a, "", b; "" -> one empty item.
inline std::vector<std::string> splitAt(const std::string &Text, char Separator) {
  std::vector<std::string> Items;
  size_t Start = 0;
  while (true) {
    size_t At = Text.find(Separator, Start);
    Items.push_back(Text.substr(Start, At == std::string::npos ? At : At - Start));
    if (At == std::string::npos)
      return Items;
    Start = At + 1;
  }
}

inline std::vector<std::string> choiceAlternatives(const std::string &Grammar) {
  return splitAt(Grammar, '|');
}

inline std::optional<ChoiceMatch> matchChoice(const std::string &Grammar,
                                              const std::string &Value) {
  static const std::string Number = "<N>";
  for (const std::string &A : choiceAlternatives(Grammar)) {
    size_t At = A.find(Number);
    if (At == std::string::npos) {
      if (Value == A)
        return ChoiceMatch{A, 0};
      continue;
    }
    std::string Before = A.substr(0, At), After = A.substr(At + Number.size());
    if (Value.size() <= Before.size() + After.size() || Value.compare(0, Before.size(), Before) ||
        Value.compare(Value.size() - After.size(), After.size(), After))
      continue;
    std::string Digits = Value.substr(Before.size(), Value.size() - Before.size() - After.size());
    // Nine digits at most, so that the number fits an unsigned.
    if (Digits.size() > 9 ||
        !std::all_of(Digits.begin(), Digits.end(), [](char C) { return C >= '0' && C <= '9'; }))
      continue;
    unsigned N = static_cast<unsigned>(std::stoul(Digits));
    if (N > 0)
      return ChoiceMatch{A, N};
  }
  return std::nullopt;
}

// "warp, block, multiblock:<N> or grid", for error messages.
inline std::string describeChoices(const std::string &Grammar) {
  std::vector<std::string> Alternatives = choiceAlternatives(Grammar);
  std::string Text;
  for (size_t I = 0; I < Alternatives.size(); ++I)
    Text += (I == 0 ? "" : I + 1 == Alternatives.size() ? " or " : ", ") + Alternatives[I];
  return Text;
}

} // namespace launchopt

#endif
