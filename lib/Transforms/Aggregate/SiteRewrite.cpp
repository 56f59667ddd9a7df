#include "SiteRewrite.h"

#include "Analysis/Uniformity.h"
#include "Support/GeneratedNames.h"
#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/StringExtras.h"
#include <algorithm>

namespace launchopt {

namespace {

UniformityScope uniformityScopeOf(AggregationGranularity G) {
  switch (G) {
  case AggregationGranularity::Warp:
    return UniformityScope::Warp;
  case AggregationGranularity::Block:
    return UniformityScope::Block;
  case AggregationGranularity::MultiBlock:
  case AggregationGranularity::Grid:
    return UniformityScope::Grid;
  }
  return UniformityScope::Grid;
}

// The written arguments whose Uniform entry equals Wanted, comma-separated.
std::string argumentsWhere(const LaunchText &L, const UniformParameters &Uniform, bool Wanted) {
  std::vector<std::string> Picked;
  for (size_t I = 0; I < L.ArgumentTexts.size(); ++I)
    if ((I < Uniform.size() && Uniform[I]) == Wanted)
      Picked.push_back(L.ArgumentTexts[I]);
  return llvm::join(Picked, ", ");
}

} // namespace

std::string childScope(const clang::FunctionDecl &Child, const clang::FunctionDecl &Function,
                       const std::vector<const clang::FunctionDecl *> &Kernels) {
  const clang::DeclContext *Own = Child.getDeclContext()->getRedeclContext();
  auto Elsewhere = [&](const clang::FunctionDecl *F) {
    return F->getDeclContext()->getRedeclContext() != Own;
  };
  if (!Elsewhere(&Function) && std::none_of(Kernels.begin(), Kernels.end(), Elsewhere))
    return "";
  std::string Scope;
  for (const clang::DeclContext *C = Child.getDeclContext(); C; C = C->getParent())
    if (auto *N = llvm::dyn_cast<clang::NamespaceDecl>(C); N && !N->isAnonymousNamespace())
      Scope = N->getNameAsString() + "::" + Scope;
  return "::" + Scope;
}

UniformParameters uniformArgumentsAt(clang::ASTContext &Ctx, const AcceptedSite &A,
                                     AggregationGranularity G,
                                     const UniformParameters *ParentUniform) {
  const LaunchSite &Site = *A.Site;
  UniformParameters Uniform(Site.Arguments.size(), false);
  if (A.Text.ArgumentTexts.size() != Site.Arguments.size())
    return Uniform;
  for (size_t I = 0; I < Site.Arguments.size(); ++I)
    Uniform[I] =
        isUniform(Ctx, *Site.Arguments[I], *Site.Parent, uniformityScopeOf(G), ParentUniform);
  return Uniform;
}

namespace {

// How a site launches a child it could not record.
enum class DirectLaunch {
  AsWritten,
  // Arguments evaluated here, launched now or deferred (never dropped).
  NowOrDeferred,
  // An ordered site's child when the block's ordered scopes could not be
  // opened: made now, into the NULL stream, and never deferred
  // (launchopt::deferral::launchInOrder), so that it keeps its order with
  // the thread's other launches there.
  InOrder,
};

std::string directLaunch(const AcceptedSite &A, const std::string &Callee, const std::string &Grid,
                         const std::string &Block, const std::string &In, DirectLaunch How) {
  const LaunchText &L = A.Text;
  if (How == DirectLaunch::AsWritten || (!L.Arguments.empty() && L.ArgumentTexts.empty()))
    return In + "  " + Callee + "<<<" + Grid + ", " + Block + L.trailingConfig() + ">>>(" +
           L.Arguments + ");\n";
  const bool InOrder = How == DirectLaunch::InOrder;
  std::string Id = std::to_string(A.Site->Id);
  std::string S = In + "{\n";
  std::vector<std::string> Arguments;
  for (size_t I = 0; I < L.ArgumentTexts.size(); ++I) {
    Arguments.push_back(generated::code("@darg") + Id + "_" + std::to_string(I));
    S += In + "  auto " + Arguments.back() + " = " + L.ArgumentTexts[I] + ";\n";
  }
  std::string SharedMemory = generated::code("@dshared") + Id;
  S += In + "  const size_t " + SharedMemory + " = " +
       (L.SharedMemory.empty() ? "0" : L.SharedMemory) + ";\n";
  S += In + generated::code(std::string("  launchopt::deferral::") +
                            (InOrder ? "launchInOrder" : "launchOrDefer") +
                            "([=](cudaStream_t @stream) {\n");
  S += In + "    " + Callee + "<<<" + Grid + ", " + Block + ", " + SharedMemory +
       generated::code(", @stream>>>(") + llvm::join(Arguments, ", ") + ");\n";
  // launchInOrder tells a full pending-launch pool from the launch's own errors.
  S += In + (InOrder ? "    return cudaGetLastError();\n"
                     : "    return cudaGetLastError() == cudaSuccess;\n");
  S += In + (InOrder ? "  });\n" : "  }, " + (L.Stream.empty() ? "0" : L.Stream) + ");\n");
  return S + In + "}\n";
}

} // namespace

std::string siteReplacement(const AcceptedSite &A, const UniformParameters &Uniform,
                            bool Deferrable) {
  const LaunchText &L = A.Text;
  std::string Id = std::to_string(A.Site->Id);
  std::string Grid = generated::code("@agrid") + Id, Block = generated::code("@ablock") + Id;
  std::string Record = generated::code("@record") + Id;
  std::string UniformCopy = generated::code("@uniform") + Id;
  std::string Args = A.Code.ChildScope + argsStructName(A.Code.ChildName) + A.Code.TemplateArgs;
  std::string UArgs = A.Code.ChildScope + uniformStructName(A.Code.ChildName) + A.Code.TemplateArgs;
  bool SomeUniform = anyUniform(Uniform);
  std::string In = L.Indent + "  ";
  bool Defers = Deferrable && (L.Arguments.empty() || !L.ArgumentTexts.empty());
  // --aggregate=host-or-device: one part function serves the parent as
  // written (no scope: its launches are made from the device) and its
  // host-aggregated copy (HostedFlag, a constant in each), whose inlined
  // body keeps no device-side launch.
  const bool EitherSide = A.Code.HostWhenLarge && !A.Code.SerialFallback.empty();
  std::string Full = !A.Code.SerialFallback.empty() ? "pool or scope full: run it here\n"
                     : A.Code.Ordered
                         ? "the ordered scopes could not be opened: launch now, in order\n"
                     : Defers ? "pool or scope full: launch now, or defer\n"
                              : "pool or scope full: launch as written\n";
  std::string Else = EitherSide ? "else if (" + generated::aggregate::HostedFlag + ") // " + Full
                                : "else // " + Full;
  std::string S = "{ // launchopt: aggregated launch of '" + A.Code.ChildName + "'\n";
  S += In + "const dim3 " + Grid + " = " + L.Grid + ";\n";
  S += In + "const dim3 " + Block + " = " + L.Block + ";\n";
  if (SomeUniform)
    S += In + "void *" + UniformCopy + ";\n";
  std::string Shared = L.SharedMemory.empty() ? "0" : L.SharedMemory;
  if (A.Code.Ordered)
    S += In + "void *" + Record + " = launchopt::reserveOrderedRecord(" + A.Code.ScopeVar + ", " +
         Grid + ", " + Block + ", " + Shared + ", " + A.Code.OrderSlot +
         (SomeUniform ? ", &" + UniformCopy : "") + ");\n";
  else
    S += In + "void *" + Record +
         " = launchopt::" + (A.Code.PackThreads ? "reservePackedRecord(" : "reserveRecord(") +
         A.Code.ScopeVar + ", " + Grid + ", " + Block + ", " + Shared + ", sizeof(" + Args + ")" +
         (SomeUniform ? ", &" + UniformCopy : "") + ");\n";
  if (SomeUniform) {
    // The uniform copy is written before the scope's epilogue like any
    // record, so the barrier (and, for group scopes, the fence of
    // lastBlockOfScope) that orders the records before the aggregated launch
    // orders it too.
    S += In + "if (" + Record + ") {\n";
    S += In + "  ::new (" + Record + ") " + Args + "(" + argumentsWhere(L, Uniform, false) + ");\n";
    S += In + "  if (" + UniformCopy + ") // first record of the scope: the arguments all share\n";
    S += In + "    ::new (" + UniformCopy + ") " + UArgs + "(" + argumentsWhere(L, Uniform, true) +
         ");\n";
    S += In + "} " + Else;
  } else {
    S += In + "if (" + Record + ")\n";
    S += In + "  ::new (" + Record + ") " + Args + "(" + L.Arguments + ");\n";
    S += In + Else;
  }
  if (!A.Code.SerialFallback.empty()) {
    // No device-side launch (--aggregate=host): the launching thread runs
    // the child; the stream is evaluated as the launch would have.
    S += In + "{\n";
    if (!L.Stream.empty())
      S += In + "  (void)(" + L.Stream + ");\n";
    S += In + "  " + A.Code.ChildScope + A.Code.SerialFallback + A.Code.TemplateArgs + "(" +
         L.argumentsThen() + Grid + ", " + Block + ");\n" + In + "}\n";
    if (!EitherSide) {
      S += L.Indent + "}";
      return S;
    }
    S += In + "else // the parent as written: launch now, or defer\n";
  }
  std::string Direct = A.Code.DirectChild.empty() ? L.Callee : A.Code.DirectChild;
  S += directLaunch(A, Direct, Grid, Block, In,
                    A.Code.Ordered ? DirectLaunch::InOrder
                    : Deferrable   ? DirectLaunch::NowOrDeferred
                                   : DirectLaunch::AsWritten);
  S += L.Indent + "}";
  return S;
}

} // namespace launchopt
