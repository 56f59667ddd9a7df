#ifndef LAUNCHOPT_TRANSFORMS_FUSION_FUSIONSITES_H
#define LAUNCHOPT_TRANSFORMS_FUSION_FUSIONSITES_H

#include "FusionExtraction.h"
#include <optional>
#include <string>
#include <utility>

namespace launchopt {

// The geometry of the members' sites that the on-chip paths need: whether
// two members run at the same planar index, and a subscript's offset from
// it in (dx, dy).

// The site with the kernel's scalar parameters replaced by the launch's
// argument text, so that sites of different kernels compare; nothing when an
// opaque part of it uses a parameter.
std::optional<std::string> canonicalSite(const clang::ASTContext &Ctx, const ExtractedLaunch &L);

// The pitch of a site `pitch * threadIdx.y + threadIdx.x + (no other thread
// index)`: the monomial an offset along y is a multiple of. Empty for a
// one-dimensional site; nothing when the site has another shape.
std::optional<IndexMonomial> sitePitch(const IndexPolynomial &Site);

// An offset as (dx, dy) over a site of the given pitch.
std::optional<std::pair<long long, long long>> planarOffset(const IndexPolynomial &Offset,
                                                            const IndexMonomial &Pitch);

// One subscript of an array of a new kernel by a member, with what code
// generation needs to redirect it.
struct MemberSubscript {
  unsigned Member = 0; // position in the new kernel
  const SubscriptAccess *Access = nullptr;
  std::string Element;
};

} // namespace launchopt

#endif
