#include "FusionRecompute.h"

#include "Support/GeneratedNames.h"
#include "clang/AST/ASTContext.h"
#include <algorithm>
#include <set>

namespace launchopt {

using namespace clang;

std::string recomputedRegister(const std::string &Array, const SiteOffset &Site) {
  return generated::RecomputedRegister + Array + "_" + Site.tag();
}

std::string recomputedFlag(const std::string &Array, const SiteOffset &Site) {
  return generated::RecomputedRegisterSet + Array + "_" + Site.tag();
}

// Whether producer W can be recomputed at the sites its results are read
// at instead of filling tiles, and those sites (its own first): every array
// it writes that a later member reads is one of its tiles, read only by
// members that run once at their own site, at no more than MaxRecomputed
// neighbour offsets; and W reads nothing an earlier member writes, so that
// it can run at a neighbour's site without waiting for anyone.
std::optional<std::vector<SiteOffset>>
recomputeSites(unsigned W, const NewKernelProjection &F, unsigned MaxRecomputed,
               const std::map<unsigned, OnChipArray> &Chosen,
               const std::map<unsigned, std::vector<MemberSubscript>> &Subscripts,
               const std::vector<std::optional<IndexMonomial>> &Pitch) {
  std::set<SiteOffset> Neighbours;
  for (const auto &[Alloc, Uses] : Subscripts) {
    bool Writes = false, EarlierWrites = false, ReadsHere = false, LaterReads = false;
    for (const MemberSubscript &U : Uses) {
      Writes |= U.Member == W && U.Access->Writes;
      ReadsHere |= U.Member == W && U.Access->Reads;
      EarlierWrites |= U.Member < W && U.Access->Writes;
      LaterReads |= U.Member > W && U.Access->Reads;
    }
    if (ReadsHere && EarlierWrites)
      return std::nullopt;
    if (!Writes || !LaterReads)
      continue;
    auto It = Chosen.find(Alloc);
    if (It == Chosen.end() || It->second.Path != OnChipPath::SharedTile)
      return std::nullopt;
    for (const MemberSubscript &U : Uses) {
      if (U.Member <= W || !U.Access->Reads)
        continue;
      if (F.MemberHalo[U.Member] > 0)
        return std::nullopt;
      // The tile path checked that the offset is planar.
      auto D = *planarOffset(U.Access->Offset, *Pitch[U.Member]);
      if (D.first || D.second)
        Neighbours.insert({D.first, D.second});
    }
  }
  if (!MaxRecomputed || Neighbours.size() > MaxRecomputed)
    return std::nullopt;
  std::vector<SiteOffset> Sites = {SiteOffset{}};
  Sites.insert(Sites.end(), Neighbours.begin(), Neighbours.end());
  return Sites;
}

// The registers of a recomputed array, one per site its producer runs at,
// and the edits: the producer writes the register it is given (its own
// site also to GMEM); a later member reads the register of the offset it
// reads at, or GMEM where the producer did not write (outside its guard).
// The producer's parameters go to ProducerParams, to be placed last.
bool recomputedEdits(const ASTContext &Ctx, const OnChipArray &A,
                     const std::vector<MemberSubscript> &Uses,
                     const std::vector<std::optional<IndexMonomial>> &Pitch, OnChipPlan &Plan,
                     std::vector<std::string> &ProducerParams) {
  unsigned W = std::find_if(Uses.begin(), Uses.end(), [](const MemberSubscript &U) {
                 return U.Access->Writes;
               })->Member;
  auto Reg = [&A](const SiteOffset &S) { return recomputedRegister(A.Name, S); };
  auto Set = [&A](const SiteOffset &S) { return recomputedFlag(A.Name, S); };
  std::string Val = generated::RecomputedValue + A.Name;
  std::string ValSet = generated::RecomputedValueSet + A.Name;
  for (const SiteOffset &S : Plan.RecomputeSites[W])
    Plan.Declarations += "  " + A.Element + " " + Reg(S) + ";\n  bool " + Set(S) + " = false;\n";
  ProducerParams[W] += A.Element + " &" + Val + ", bool &" + ValSet + ", ";
  Plan.Recomputed[W].push_back(A.Name);
  for (unsigned I : A.Members) {
    if (I == W)
      continue;
    for (const SiteOffset &S : Plan.RecomputeSites[W]) {
      Plan.ExtraParams[I] += A.Element + " " + Reg(S) + ", bool " + Set(S) + ", ";
      Plan.ExtraArgs[I] += Reg(S) + ", " + Set(S) + ", ";
    }
  }
  for (const MemberSubscript &U : Uses) {
    std::optional<FileRange> R = readableRange(Ctx, U.Access->Expr->getSourceRange());
    if (!R)
      return false;
    std::string Original = U.Access->CachedRead.empty()
                               ? readableText(Ctx, U.Access->Expr->getSourceRange())
                               : U.Access->CachedRead;
    std::vector<BodyEdit> &E = Plan.Edits[U.Member];
    if (U.Access->Writes) {
      std::optional<FileRange> Store = readableRange(Ctx, U.Access->PlainStore->getSourceRange());
      if (!Store)
        return false;
      E.push_back({R->Begin, R->End, Val});
      E.push_back({Store->End, Store->End,
                   ", " + ValSet + " = true" + ownSiteStore(A, Original + " = " + Val)});
      continue;
    }
    auto D = *planarOffset(U.Access->Offset, *Pitch[U.Member]);
    SiteOffset S{D.first, D.second};
    E.push_back({R->Begin, R->End, "(" + Set(S) + " ? " + Reg(S) + " : " + Original + ")"});
  }
  return true;
}

} // namespace launchopt
