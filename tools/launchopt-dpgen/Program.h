// The generator's intermediate representation of one random dynamic-parallelism
// program: kernels, device callees and statements, each with an id, so that the
// reducer can drop items and print the program again.
#ifndef LAUNCHOPT_DPGEN_PROGRAM_H
#define LAUNCHOPT_DPGEN_PROGRAM_H

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace dpgen {

/// How a launch is ordered: the device-side streams of CDP2.
enum class StreamKind { Default, Null, FireAndForget, Tail, PerThread, Created };

/// A `__device__` callee that reads the built-in index variables.
struct Callee {
  enum Kind { Plain, Template, Member };
  int Id = 0;
  Kind Form = Plain;
  std::string Body;  // the returned expression over `x` (and `K` for a template)
  int CallsCallee = -1; // index of an earlier callee it calls, or -1
};

/// Child grid and block, and how the launch writes them.
struct LaunchConfig {
  enum Form { Ints, Dim3s, CeilDiv, GridVariable };
  Form Shape = Ints;
  unsigned Grid[3] = {1, 1, 1};
  unsigned Block[3] = {32, 1, 1};
  unsigned CountMax = 0; // CeilDiv: n ranges over [1, CountMax]
  std::string CountExpr; // CeilDiv: the varying thread count
};

struct Stmt {
  enum Kind {
    Atomic,         // atomicAdd of an expression into a hashed cell of out
    WarpReduce,     // __reduce_add_sync over the warp's existing lanes
    WarpBroadcast,  // __shfl_sync from lane 0 and __ballot_sync
    SharedExchange, // own cell in shared memory, barrier, read a neighbour's
    Launch,         // a child launch
    BufferLaunch,   // malloc'd buffer, child writes own cells, tail-launched collector frees it
    Branch,         // divergent guard around its body
    Loop            // constant trip count around its body
  };
  int Id = 0;
  Kind What = Atomic;
  std::string Expr;    // value (Atomic, Warp*, SharedExchange), guard (Branch)
  unsigned Salt = 0;   // distinguishes the cells of statements
  unsigned Trips = 0;  // Loop
  bool DynamicShared = false, CooperativeSync = false; // SharedExchange
  // Launch and BufferLaunch
  int Child = -1;
  LaunchConfig Config;
  StreamKind Stream = StreamKind::Default;
  std::string SeedArg;      // uniform (from seed) or varying (from the thread's index)
  std::string PairA, PairB; // the struct argument's fields, when the child takes it
  unsigned TemplateArg = 0;
  bool UseDeviceCudaMalloc = false; // BufferLaunch: cudaMalloc/cudaFree instead of malloc/free
  std::vector<Stmt> Body;           // Branch, Loop
  std::vector<int> Callees;         // callees its expressions call
};

struct Kernel {
  int Id = 0;
  bool IsTemplate = false;
  bool Recursive = false;    // takes `int depth` and launches itself while depth > 0
  bool Bounded = false;      // takes `unsigned n` and returns early past it
  bool WritesBuffer = false; // takes a buffer and writes its own cell of it
  bool TakesPair = false;    // takes a struct by value
  bool UsesDynamicShared = false;
  unsigned RecursionFanout = 0,
           RecursionDepth = 0; // Recursive: threads that recurse, depth passed in
  unsigned MaxBlockThreads = 1;
  std::string BufferValue; // WritesBuffer: what each thread writes into its own cell
  std::vector<Stmt> Body;
};

struct Program {
  uint64_t Seed = 0;
  std::string Prefix; // every name of the program starts with it
  std::vector<Callee> Callees;
  std::vector<Kernel> Kernels; // Kernels[0] is launched from the host
  LaunchConfig Top;
  unsigned TopDepth = 0, TopTemplateArg = 1;
  int MaxId = 0;
  unsigned LaunchBound = 0; // device-side launches the program makes at most
};

/// Items the reducer has removed; printing leaves them, and whatever needs them, out.
using RemovedSet = std::set<int>;

} // namespace dpgen

#endif
