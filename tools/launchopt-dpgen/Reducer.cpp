#include "Reducer.h"
#include "Printer.h"
#include <algorithm>
#include <map>

namespace dpgen {
namespace {

void collectStatements(const std::vector<Stmt> &Body, std::vector<int> &Ids) {
  for (const Stmt &S : Body) {
    Ids.push_back(S.Id);
    collectStatements(S.Body, Ids);
  }
}

/// Largest first: a removed kernel takes its launches with it, a removed
/// branch or loop its body, so they are tried before what they contain.
std::vector<int> removableItems(const Program &P) {
  std::vector<int> Ids;
  for (size_t I = 1; I < P.Kernels.size(); ++I)
    Ids.push_back(P.Kernels[I].Id);
  for (const Callee &C : P.Callees)
    Ids.push_back(C.Id);
  for (const Kernel &K : P.Kernels)
    collectStatements(K.Body, Ids);
  return Ids;
}

} // namespace

Reduction reduceProgram(const Program &P, const FailurePredicate &StillFails) {
  Reduction R;
  std::vector<int> Kept = removableItems(P);
  R.Items = static_cast<unsigned>(Kept.size());
  std::map<std::string, bool> Seen; // items already dead print the same text
  std::string Current = printFile({P}, R.Removed);
  Seen[Current] = true;
  auto Fails = [&](const RemovedSet &Removed) {
    std::string Source = printFile({P}, Removed);
    auto Known = Seen.find(Source);
    if (Known != Seen.end())
      return Known->second;
    ++R.Tests;
    return Seen[Source] = StillFails(Source);
  };

  size_t Chunks = 2;
  while (!Kept.empty()) {
    Chunks = std::min(Chunks, Kept.size());
    bool Progress = false;
    size_t Size = (Kept.size() + Chunks - 1) / Chunks;
    for (size_t Start = 0; Start < Kept.size(); Start += Size) {
      size_t End = std::min(Kept.size(), Start + Size);
      RemovedSet Trial = R.Removed;
      Trial.insert(Kept.begin() + Start, Kept.begin() + End);
      if (!Fails(Trial))
        continue;
      R.Removed = Trial;
      Kept.erase(Kept.begin() + Start, Kept.begin() + End);
      Chunks = std::max<size_t>(Chunks - 1, 2);
      Progress = true;
      break;
    }
    if (Progress)
      continue;
    if (Chunks >= Kept.size())
      break;
    Chunks = std::min(Kept.size(), Chunks * 2);
  }
  R.Source = printFile({P}, R.Removed);
  return R;
}

} // namespace dpgen
