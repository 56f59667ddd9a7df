#ifndef LAUNCHOPT_ANALYSIS_TILECACHE_H
#define LAUNCHOPT_ANALYSIS_TILECACHE_H

// Shared-memory tiles that only cache an array the kernel reads, as tiled
// stencils write them:
//
//   __shared__ float tile[16][16];
//   tile[threadIdx.y][threadIdx.x] = in[index];
//   __syncthreads();
//   ... tile[ty - 1][tx] ...
//
// Each thread stores its own element before the block's one barrier and the
// tile is only read after it, so a read `tile[a][b]` is the element
// `in[index + pitch * (a - threadIdx.y) + (b - threadIdx.x)]`, pitch being
// what `index` advances by per threadIdx.y. A kernel whose only barrier and
// only shared memory are such tiles can read the array instead ("de-tiled"):
// it then has no barrier, and its body can run at any site, which kernel
// fusion needs to recompute it at a neighbour's site.

#include "ParameterAccess.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include <optional>
#include <string>
#include <vector>

namespace launchopt {

struct TileCacheRead {
  const clang::ArraySubscriptExpr *Expr = nullptr; // tile[a][b]
  // The cached element's index minus the stored one's.
  IndexPolynomial Delta;
  std::string GlobalRead; // `in[index - cols]`, as the kernel's names write it
};

struct TileCache {
  const clang::VarDecl *Tile = nullptr;
  const clang::ParmVarDecl *Source = nullptr;
  const clang::ArraySubscriptExpr *Load = nullptr; // in[index]
  const clang::Stmt *Store = nullptr;              // tile[..][..] = in[index]
  // Elements along x and y (y is 1 for a one-dimensional tile): the block
  // the kernel is launched with must be this shape for every element read
  // to have been stored.
  unsigned Extent[2] = {1, 1};
  std::vector<TileCacheRead> Reads;
};

struct TileCaches {
  std::vector<TileCache> Caches;
  const clang::Stmt *Barrier = nullptr;
  std::vector<const clang::DeclStmt *> Declarations;
};

// The kernel's tile caches, when its one barrier (a statement of the body,
// after the stores) and all of its shared memory are such caches; nothing
// otherwise, and for a kernel without shared memory.
std::optional<TileCaches> findTileCaches(const clang::FunctionDecl &Kernel);

// Whether a launch with Block (x, y, z) stores every element of each tile.
bool fillsTiles(const TileCaches &T, const unsigned Block[3]);

} // namespace launchopt

#endif
