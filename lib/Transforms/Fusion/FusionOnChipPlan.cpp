#include "FusionOnChipPlan.h"

#include "Support/GeneratedNames.h"
#include <cstdlib>

namespace launchopt {

std::string SiteOffset::tag() const {
  auto Part = [](char Axis, long long V) {
    return std::string(1, Axis) + (V < 0 ? "m" : "") + std::to_string(std::llabs(V));
  };
  return Part('x', X) + "_" + Part('y', Y);
}

std::string ownSiteStore(const OnChipArray &A, const std::string &Store) {
  if (A.StoresLeftOut && A.EdgeStores.empty())
    return "";
  std::string Where = generated::OwnSiteParam;
  if (A.StoresLeftOut)
    Where += " && (" + A.EdgeStores + ")";
  return ", " + Where + " ? (void)(" + Store + ") : (void)0";
}

OnChipPlan::OnChipPlan(unsigned Members)
    : Edits(Members), ExtraParams(Members), ExtraArgs(Members), TilesWritten(Members),
      RingNeeded(Members), RecomputeSites(Members), Recomputed(Members) {}

OnChipPlan::OnChipPlan(unsigned Members, std::string Why) : OnChipPlan(Members) {
  OnChipArray A;
  A.Name = "all arrays";
  A.Why = std::move(Why);
  Arrays.push_back(A);
}

OnChipPath OnChipPlan::pathOf(unsigned Allocation) const {
  for (const OnChipArray &A : Arrays)
    if (A.Allocation == Allocation)
      return A.Path;
  return OnChipPath::Global;
}

bool OnChipPlan::any() const {
  for (const OnChipArray &A : Arrays)
    if (A.Path != OnChipPath::Global)
      return true;
  return false;
}

std::string OnChipPlan::summary() const {
  std::string Registers, Tiles, Recomputes, Global, LeftOut;
  for (const OnChipArray &A : Arrays) {
    if (A.StoresLeftOut)
      LeftOut += " " + A.Name + (A.EdgeStores.empty() ? "" : " (but at the grid's x edges)");
    if (A.Path == OnChipPath::Register)
      Registers += " " + A.Name;
    else if (A.Path == OnChipPath::Recomputed)
      Recomputes += " " + A.Name + " (halo " + std::to_string(A.Radius) + ")";
    else if (A.Path == OnChipPath::SharedTile)
      Tiles += " " + A.Name + " (halo " + std::to_string(A.Radius) + ")";
    else
      Global += " " + A.Name + " (" + A.Why + ")";
  }
  std::string S;
  auto Part = [&S](const char *Label, const std::string &Items) {
    if (!Items.empty())
      S += (S.empty() ? "" : "; ") + std::string(Label) + ":" + Items;
  };
  Part("registers", Registers);
  Part("shared-memory tiles", Tiles);
  Part("recomputed at neighbours", Recomputes);
  Part("global memory", Global);
  Part("stores left out", LeftOut);
  return S.empty() ? "global memory" : S;
}

} // namespace launchopt
