#ifndef LAUNCHOPT_TRANSFORMS_FUSION_FUSIONTILECACHES_H
#define LAUNCHOPT_TRANSFORMS_FUSION_FUSIONTILECACHES_H

#include "FusionOnChipPlan.h"
#include "clang/AST/Decl.h"
#include <optional>
#include <vector>

namespace launchopt {

// A body copy of a kernel whose shared tiles only cache arrays it reads
// (Analysis/TileCache.h) reads those arrays instead: its tiles, their stores
// and its barrier are left out, and each tile read becomes the array read it
// stands for (unless Edits already redirect that read: its on-chip value is
// the same element). Edits inside what is left out are dropped. Returns the
// merged, sorted edits; nothing when a piece of the kernel cannot be edited
// (a macro).
std::optional<std::vector<BodyEdit>> withTileCachesRead(const clang::ASTContext &Ctx,
                                                        const clang::FunctionDecl &K,
                                                        std::vector<BodyEdit> Edits);

} // namespace launchopt

#endif
