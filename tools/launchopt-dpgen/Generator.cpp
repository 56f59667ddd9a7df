#include "Generator.h"
#include "Random.h"
#include <algorithm>
#include <string>

namespace dpgen {
namespace {

/// Where a statement sits: what bounds the threads reaching it, and what it may read.
struct Context {
  unsigned ActiveThreads = 1; // per kernel instance, at most
  unsigned Trips = 1;         // product of the enclosing loops' trip counts
  bool InBranch = false;      // collectives need every thread of the block
  int LoopDepth = 0;          // loop variables i0, i1, ... are in scope
};

std::string u(unsigned Value) { return std::to_string(Value) + "u"; }

class Generator {
public:
  Generator(uint64_t Seed, unsigned Attempt)
      : Rand(Seed * 0x2545f4914f6cdd1dULL + 0x1234567ULL + Attempt * 0x9e3779b97f4a7c15ULL) {
    P.Seed = Seed;
    P.Prefix = "p" + std::to_string(Seed) + "_";
  }

  Program run() {
    makeCallees();
    makeKernels();
    P.MaxId = NextId - 1;
    P.LaunchBound = Launches;
    return P;
  }

private:
  Random Rand;
  Program P;
  int NextId = 1;
  unsigned Launches = 0;
  // Per kernel: threads and blocks of one instance, and instances, at most.
  std::vector<unsigned> Threads, Blocks, Instances;
  const Kernel *Current = nullptr; // the kernel whose body is being written
  const Callee *CurrentCallee = nullptr;

  // Expressions: unsigned arithmetic only, so every variant's checksum is exact.
  std::string leaf(int LoopDepth) {
    std::vector<std::string> Names = {"threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x",
                                      "blockIdx.y",  "blockIdx.z",  "blockDim.x",  "blockDim.y",
                                      "blockDim.z",  "gridDim.x",   "gridDim.y",   "gridDim.z"};
    if (CurrentCallee) {
      Names.insert(Names.end(), {"x", "x"});
      if (CurrentCallee->Form == Callee::Template)
        Names.push_back("K");
      if (CurrentCallee->Form == Callee::Member)
        Names.push_back("k");
    } else {
      Names.insert(Names.end(), {"gtid", "gtid", "tid", "bid", "seed", "seed"});
      if (Current->TakesPair)
        Names.insert(Names.end(), {"pr.a", "(unsigned)pr.b"});
      if (Current->Recursive)
        Names.push_back("(unsigned)depth");
      if (Current->IsTemplate)
        Names.push_back("K");
      if (Current->Bounded)
        Names.push_back("n");
      if (Current->WritesBuffer)
        Names.push_back("cnt");
      for (int I = 0; I < LoopDepth; ++I)
        Names.push_back("i" + std::to_string(I));
    }
    if (Rand.chance(25))
      return u(Rand.below(1000));
    return Rand.pick(Names);
  }

  std::string call(int Index, const std::string &Argument) {
    const Callee &C = P.Callees[Index];
    std::string Name = P.Prefix + "f" + std::to_string(Index);
    switch (C.Form) {
    case Callee::Plain:
      return Name + "(" + Argument + ")";
    case Callee::Template:
      return Name + "<" + u(Rand.between(1, 4)) + ">(" + Argument + ")";
    case Callee::Member:
      return Name + "{" + u(Rand.below(50)) + "}.apply(" + Argument + ")";
    }
    return Argument;
  }

  std::string expr(int Depth, int LoopDepth, std::vector<int> *Used, int CalleeLimit) {
    if (Depth <= 0 || Rand.chance(25))
      return leaf(LoopDepth);
    auto Sub = [&] { return expr(Depth - 1, LoopDepth, Used, CalleeLimit); };
    switch (Rand.below(10)) {
    case 0:
      return "(" + Sub() + " >> " + u(Rand.between(1, 9)) + ")";
    case 1:
      return "(" + Sub() + " % " + u(Rand.between(2, 97)) + ")";
    case 2: {
      std::string Left = Sub(), Right = Sub();
      if (Left == Right) // clang warns on a self-comparison
        return "(" + Left + " + " + u(Rand.between(1, 9)) + ")";
      return "(" + Left + " < " + Right + " ? " + Sub() + " : " + Sub() + ")";
    }
    case 3:
      return "dpgen_mix(" + Sub() + ", " + Sub() + ")";
    case 4:
      if (Used && CalleeLimit > 0) {
        int Index = static_cast<int>(Rand.below(static_cast<unsigned>(CalleeLimit)));
        Used->push_back(Index);
        return call(Index, Sub());
      }
      [[fallthrough]];
    default: {
      static const std::vector<std::string> Operators = {" + ", " - ", " * ", " ^ ", " | ", " & "};
      return "(" + Sub() + Rand.pick(Operators) + Sub() + ")";
    }
    }
  }

  std::string value(const Context &C, std::vector<int> &Used) {
    return expr(3, C.LoopDepth, &Used, static_cast<int>(P.Callees.size()));
  }

  void makeCallees() {
    unsigned Count = Rand.between(1, 3);
    for (unsigned I = 0; I < Count; ++I) {
      Callee C;
      C.Id = NextId++;
      C.Form = static_cast<Callee::Kind>(Rand.below(3));
      P.Callees.push_back(C);
      CurrentCallee = &P.Callees.back();
      std::string Body = expr(3, 0, nullptr, 0);
      if (I > 0 && Rand.chance(40)) {
        C.CallsCallee = static_cast<int>(Rand.below(I));
        Body = "(" + Body + " + " + call(C.CallsCallee, "x") + ")";
      }
      C.Body = Body;
      P.Callees.back() = C;
      CurrentCallee = nullptr;
    }
  }

  void makeKernels() {
    unsigned Count = Rand.between(4, 6);
    P.Kernels.resize(Count);
    Threads.assign(Count, 0);
    Blocks.assign(Count, 0);
    Instances.assign(Count, 0);
    bool HasRecursion = false;
    for (unsigned I = 0; I < Count; ++I) {
      Kernel &K = P.Kernels[I];
      K.Id = NextId++;
      K.IsTemplate = Rand.chance(20);
      K.TakesPair = Rand.chance(40);
      if (I > 0)
        K.WritesBuffer = Rand.chance(25);
      if (!K.WritesBuffer && !HasRecursion && Rand.chance(20)) {
        K.Recursive = HasRecursion = true;
        K.RecursionFanout = Rand.between(1, 2);
        K.RecursionDepth = Rand.between(1, 3);
      }
      if (I > 0 && !K.WritesBuffer && !K.Recursive)
        K.Bounded = Rand.chance(35);
      K.UsesDynamicShared = !K.Bounded && Rand.chance(30);
    }
    P.Top = config(P.Kernels[0], 512);
    P.TopDepth = P.Kernels[0].RecursionDepth;
    P.TopTemplateArg = Rand.between(1, 4);
    noteLaunched(0, P.Top, 1);
    Launches = recursionFactor(P.Kernels[0]) - 1; // the host launch is not a device-side one
    for (unsigned I = 0; I < Count; ++I)
      makeBody(static_cast<int>(I));
    for (Kernel &K : P.Kernels)
      if (hasBufferLaunch(K.Body))
        moveTailLaunches(K.Body);
  }

  static bool hasBufferLaunch(const std::vector<Stmt> &Body) {
    for (const Stmt &S : Body)
      if (S.What == Stmt::BufferLaunch || hasBufferLaunch(S.Body))
        return true;
    return false;
  }

  /// A grid that tail-launches buffer collectors tail-launches nothing else
  /// (the other launches go fire-and-forget, which the collectors still wait
  /// for). Together with OneTailLauncher, this keeps clear of a CUDA 13.0
  /// hang (H100, driver 580; test/random/results/tail-launch-hang/).
  static void moveTailLaunches(std::vector<Stmt> &Body) {
    for (Stmt &S : Body) {
      if ((S.What == Stmt::Launch || S.What == Stmt::BufferLaunch) && S.Stream == StreamKind::Tail)
        S.Stream = StreamKind::FireAndForget;
      moveTailLaunches(S.Body);
    }
  }

  /// Instances of one launched grid, counting the recursion below it.
  unsigned recursionFactor(const Kernel &K) {
    unsigned Factor = 1, Level = 1;
    for (unsigned D = 0; D < K.RecursionDepth; ++D)
      Factor += (Level *= K.RecursionFanout);
    return Factor;
  }

  void noteLaunched(int Child, const LaunchConfig &C, unsigned Times) {
    const Kernel &K = P.Kernels[Child];
    unsigned BlockThreads = C.Block[0] * C.Block[1] * C.Block[2];
    unsigned GridBlocks = C.Shape == LaunchConfig::CeilDiv
                              ? (C.CountMax + BlockThreads - 1) / BlockThreads
                              : C.Grid[0] * C.Grid[1] * C.Grid[2];
    Threads[Child] = std::max(Threads[Child], GridBlocks * BlockThreads);
    Blocks[Child] = std::max(Blocks[Child], GridBlocks);
    P.Kernels[Child].MaxBlockThreads = std::max(K.MaxBlockThreads, BlockThreads);
    unsigned Factor = recursionFactor(K);
    Instances[Child] += Times * Factor;
    Launches += Times * (K.WritesBuffer ? 2 : 1) + Times * (Factor - 1);
  }

  LaunchConfig config(const Kernel &Child, unsigned MaxThreads) {
    static const std::vector<std::vector<unsigned>> BlockShapes = {
        {32, 1, 1}, {64, 1, 1}, {128, 1, 1}, {256, 1, 1}, {48, 1, 1}, {17, 1, 1}, {1, 1, 1},
        {96, 1, 1}, {8, 4, 1},  {16, 2, 2},  {5, 3, 2},   {33, 1, 1}, {7, 7, 1},  {4, 4, 4}};
    static const std::vector<std::vector<unsigned>> GridShapes = {
        {1, 1, 1}, {2, 1, 1}, {3, 1, 1}, {4, 1, 1}, {2, 2, 1}, {3, 2, 1}, {2, 2, 2}, {5, 1, 1}};
    LaunchConfig C;
    bool OneDimensional = Child.Bounded || Rand.chance(40);
    if (OneDimensional) {
      C.Block[0] = Rand.pick(std::vector<unsigned>{32, 64, 128, 17, 48, 256, 100});
      C.Shape = Rand.chance(Child.Bounded ? 100 : 40) ? LaunchConfig::CeilDiv : LaunchConfig::Ints;
      if (C.Shape == LaunchConfig::CeilDiv)
        C.CountMax = Rand.between(1, std::max(1u, MaxThreads));
      else
        C.Grid[0] = Rand.between(1, std::max(1u, MaxThreads / C.Block[0]));
      return C;
    }
    C.Shape = Rand.chance(50) ? LaunchConfig::Dim3s : LaunchConfig::GridVariable;
    do {
      const std::vector<unsigned> &B = Rand.pick(BlockShapes);
      const std::vector<unsigned> &G = Rand.pick(GridShapes);
      std::copy(B.begin(), B.end(), C.Block);
      std::copy(G.begin(), G.end(), C.Grid);
    } while (C.Block[0] * C.Block[1] * C.Block[2] * C.Grid[0] * C.Grid[1] * C.Grid[2] > MaxThreads);
    return C;
  }

  StreamKind stream() {
    static const std::vector<StreamKind> Kinds = {
        StreamKind::Default,       StreamKind::Default,       StreamKind::Default,
        StreamKind::Null,          StreamKind::FireAndForget, StreamKind::FireAndForget,
        StreamKind::FireAndForget, StreamKind::Tail,          StreamKind::Tail,
        StreamKind::PerThread,     StreamKind::Created,       StreamKind::Created};
    return Rand.pick(Kinds);
  }

  /// Tail launches (a buffer launch's collector is one) come from one thread
  /// of a grid only: a grid whose threads make several tail launches, from
  /// one block or several, and also launch other children, can stay
  /// unfinished forever with CUDA 13.0 (test/random/results/tail-launch-hang/),
  /// a hang that is not the program's. One thread launches fewer children
  /// than the guard it replaces allowed, so the budget still holds.
  static constexpr const char *OneTailLauncher = "gtid == 0u";

  /// A guard that lets at most Allowed of the Active threads of an instance through.
  std::string guard(int Self, const Context &C, unsigned Allowed, unsigned &Bound) {
    unsigned Active = C.ActiveThreads;
    if (Allowed >= Active && Rand.chance(20)) {
      Bound = Active;
      return "";
    }
    std::string Shift = C.LoopDepth > 0 ? " + i" + std::to_string(C.LoopDepth - 1) : "";
    if (Blocks[Self] <= Allowed && Rand.chance(25)) {
      Bound = std::min(Active, Blocks[Self]);
      return "tid == 0u";
    }
    unsigned Modulus = 1;
    while ((Active + Modulus - 1) / Modulus > Allowed)
      Modulus *= 2;
    Bound = (Active + Modulus - 1) / Modulus;
    std::string Residue = u(Rand.below(std::min(Modulus, Active)));
    switch (Rand.below(3)) {
    case 0:
      return "(gtid" + Shift + ") % " + u(Modulus) + " == " + Residue;
    case 1: // a data-dependent branch: XOR permutes the residues, so the bound holds
      return "((gtid" + Shift + ") ^ (seed & " + u(Modulus - 1) + ")) % " + u(Modulus) +
             " == " + Residue;
    default:
      Bound = Rand.between(1, std::min(Allowed, Active));
      return "gtid < " + u(Bound);
    }
  }

  /// A launch of Child from kernel Self, wrapped in a guard that keeps the budget.
  bool launch(int Self, int Child, const Context &C, bool Mandatory, std::vector<Stmt> &Out) {
    const Kernel &K = P.Kernels[Child];
    unsigned PerLaunch = (K.WritesBuffer ? 2 : 1) * recursionFactor(K);
    unsigned Executions = Instances[Self] * C.Trips * PerLaunch;
    unsigned Left = Launches < LaunchBudget ? LaunchBudget - Launches : 0;
    unsigned Allowed = Executions ? std::min(Left, 60u) / Executions : 0;
    if (Allowed == 0 && !Mandatory)
      return false;
    Allowed = std::max(Allowed, 1u);
    Stmt Guard;
    Guard.Id = NextId++;
    Guard.What = Stmt::Branch;
    unsigned Bound = 1;
    Guard.Expr = Mandatory ? "gtid == 0u" : guard(Self, C, Allowed, Bound);
    Stmt L;
    L.Id = NextId++;
    L.What = K.WritesBuffer ? Stmt::BufferLaunch : Stmt::Launch;
    L.Child = Child;
    L.Config = config(K, 256);
    L.Stream = stream();
    L.TemplateArg = Rand.between(1, 4);
    L.UseDeviceCudaMalloc = Rand.chance(40);
    L.Salt = Rand.below(1u << 20);
    L.SeedArg = Rand.chance(50) ? "dpgen_mix(seed, " + u(L.Salt) + ")"
                                : "dpgen_mix(seed, " + expr(2, C.LoopDepth, nullptr, 0) + ")";
    if (K.TakesPair) {
      L.PairA = expr(2, C.LoopDepth, nullptr, 0);
      L.PairB = Rand.chance(50) ? std::to_string(Rand.below(100))
                                : "(int)" + expr(1, C.LoopDepth, nullptr, 0);
    }
    if (L.Config.Shape == LaunchConfig::CeilDiv)
      L.Config.CountExpr = expr(2, C.LoopDepth, nullptr, 0);
    if (L.Stream == StreamKind::Tail || L.What == Stmt::BufferLaunch) {
      Guard.Expr = OneTailLauncher;
      Bound = 1;
    }
    noteLaunched(Child, L.Config, Instances[Self] * C.Trips * Bound);
    if (Guard.Expr.empty()) {
      Out.push_back(L);
    } else {
      Guard.Body.push_back(L);
      Out.push_back(Guard);
    }
    return true;
  }

  Stmt simple(Stmt::Kind What, const Context &C) {
    Stmt S;
    S.Id = NextId++;
    S.What = What;
    S.Salt = Rand.below(1u << 20);
    S.Expr = value(C, S.Callees);
    if (What == Stmt::SharedExchange) {
      S.DynamicShared = Current->UsesDynamicShared && Rand.chance(60);
      S.CooperativeSync = Rand.chance(40);
    }
    return S;
  }

  void statements(int Self, const Context &C, unsigned Count, std::vector<Stmt> &Out) {
    const Kernel &K = P.Kernels[Self];
    bool Collectives = !C.InBranch && !K.Bounded;
    int Children = static_cast<int>(P.Kernels.size()) - Self - 1;
    for (unsigned I = 0; I < Count; ++I) {
      unsigned Choice = Rand.below(100);
      if (Choice < 30) {
        Out.push_back(simple(Stmt::Atomic, C));
      } else if (Choice < 55 && Children > 0) {
        launch(Self, Self + 1 + static_cast<int>(Rand.below(Children)), C, false, Out);
      } else if (Choice < 65 && C.LoopDepth < 2) {
        Stmt L;
        L.Id = NextId++;
        L.What = Stmt::Loop;
        L.Trips = Rand.between(1, 3);
        Context Inner = C;
        Inner.Trips *= L.Trips;
        Inner.LoopDepth++;
        statements(Self, Inner, Rand.between(1, 2), L.Body);
        Out.push_back(L);
      } else if (Choice < 75) {
        Stmt B;
        B.Id = NextId++;
        B.What = Stmt::Branch;
        unsigned Bound;
        B.Expr = guard(Self, C, std::max(1u, C.ActiveThreads / 2), Bound);
        if (B.Expr.empty())
          B.Expr = "(gtid & 1u) == 0u";
        Context Inner = C;
        Inner.ActiveThreads = Bound;
        Inner.InBranch = true;
        statements(Self, Inner, Rand.between(1, 2), B.Body);
        Out.push_back(B);
      } else if (Choice < 84 && Collectives) {
        Out.push_back(simple(Stmt::SharedExchange, C));
      } else if (Choice < 92 && Collectives) {
        Out.push_back(simple(Stmt::WarpReduce, C));
      } else if (Collectives) {
        Out.push_back(simple(Stmt::WarpBroadcast, C));
      } else {
        Out.push_back(simple(Stmt::Atomic, C));
      }
    }
  }

  void makeBody(int Self) {
    Kernel &K = P.Kernels[Self];
    Current = &K;
    Context C;
    C.ActiveThreads = std::max(1u, Threads[Self]);
    if (K.WritesBuffer)
      K.BufferValue = expr(3, 0, nullptr, 0);
    std::vector<Stmt> Body;
    statements(Self, C, Rand.between(1, 3), Body);
    if (Self + 1 < static_cast<int>(P.Kernels.size())) // the chain k0 -> k1 -> ... nests deep
      launch(Self, Self + 1, C, true, Body);
    statements(Self, C, Rand.between(0, 2), Body);
    if (K.Recursive) {
      Stmt Guard;
      Guard.Id = NextId++;
      Guard.What = Stmt::Branch;
      Guard.Expr = "depth > 0 && gtid < " + u(K.RecursionFanout);
      Stmt L;
      L.Id = NextId++;
      L.What = Stmt::Launch;
      L.Child = Self;
      L.Stream = stream();
      if (L.Stream == StreamKind::Tail)
        Guard.Expr = std::string("depth > 0 && ") + OneTailLauncher;
      L.TemplateArg = 0;
      L.Salt = Rand.below(1u << 20);
      L.SeedArg = "dpgen_mix(seed, gtid + " + u(L.Salt) + ")";
      if (K.TakesPair) {
        L.PairA = "pr.a + 1u";
        L.PairB = "pr.b - 1";
      }
      Guard.Body.push_back(L);
      Body.insert(Body.begin() + Rand.below(static_cast<unsigned>(Body.size()) + 1), Guard);
    }
    K.Body = std::move(Body);
    Current = nullptr;
  }
};

} // namespace

Program generateProgram(uint64_t Seed) {
  // The chain's launches, one per instance of each parent, are outside the
  // budget; the rare program whose instances multiply past it is drawn again.
  Program P;
  for (unsigned Attempt = 0; Attempt < 50; ++Attempt) {
    P = Generator(Seed, Attempt).run();
    if (P.LaunchBound <= 2 * LaunchBudget)
      break;
  }
  return P;
}

} // namespace dpgen
