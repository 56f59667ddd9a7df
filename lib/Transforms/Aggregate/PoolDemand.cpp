#include "PoolDemand.h"

#include "Support/GeneratedNames.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include <algorithm>

namespace launchopt {

std::string ParentPoolDemand::initializer() const {
  return "{" + std::to_string(ThreadSites) + ", " + std::to_string(ThreadArgumentBytes) + ", " +
         std::to_string(BlockSites) + ", " + std::to_string(BlockArgumentBytes) + ", " +
         (OwnSitesOnly ? "1" : "0") + "}";
}

uint64_t launchArgumentBytes(const clang::ASTContext &Ctx, const clang::FunctionDecl &Child,
                             const UniformParameters &Uniform) {
  uint64_t Size = 0, Align = 1;
  for (unsigned I = 0; I < Child.getNumParams(); ++I) {
    if (I < Uniform.size() && Uniform[I])
      continue;
    clang::QualType T = Child.getParamDecl(I)->getType();
    uint64_t Bytes = 8, FieldAlign = 8;
    if (!T->isDependentType() && !T->isIncompleteType() && !T->isReferenceType()) {
      clang::TypeInfoChars Info = Ctx.getTypeInfoInChars(T);
      Bytes = static_cast<uint64_t>(Info.Width.getQuantity());
      FieldAlign = std::max<uint64_t>(1, static_cast<uint64_t>(Info.Align.getQuantity()));
    }
    Size = (Size + FieldAlign - 1) / FieldAlign * FieldAlign + Bytes;
    Align = std::max(Align, FieldAlign);
  }
  Size = std::max<uint64_t>(1, (Size + Align - 1) / Align * Align); // an empty struct takes 1
  return (Size + 15) / 16 * 16; // poolAllocate's pieces
}

std::map<std::string, ParentPoolDemand>
poolDemandOfParents(const clang::ASTContext &Ctx, const std::vector<AcceptedSite> &Sites,
                    const std::map<const clang::FunctionDecl *, UniformParameters> &UniformOf) {
  std::map<std::string, ParentPoolDemand> Demand;
  for (const AcceptedSite &A : Sites) {
    // A.Child: for a child of another file, its declaration here, which
    // gives the parameters.
    auto Uniform = UniformOf.find(A.Child);
    uint64_t Bytes = launchArgumentBytes(
        Ctx, *A.Child, Uniform == UniformOf.end() ? UniformParameters{} : Uniform->second);
    for (const clang::FunctionDecl *Kernel : A.ScopeKernels) {
      ParentPoolDemand &D = Demand[Kernel->getNameAsString()];
      if (A.Code.OneThreadPerBlock) {
        ++D.BlockSites;
        D.BlockArgumentBytes += Bytes;
      } else {
        ++D.ThreadSites;
        D.ThreadArgumentBytes += Bytes;
      }
    }
  }
  return Demand;
}

void addDeviceLaunchers(const LaunchAnalysis &Launches, std::set<std::string> &Kernels) {
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (const LaunchSite &S : Launches.Sites)
      if (S.DeviceSide && Kernels.count(S.ChildName) && Kernels.insert(S.ParentName).second)
        Grew = true;
  }
}

void markOwnSitesOnly(const LaunchAnalysis &Launches,
                      std::map<std::string, ParentPoolDemand> &Demand) {
  auto InKernel = [](const LaunchSite &S) {
    return S.Parent && S.Parent->hasAttr<clang::CUDAGlobalAttr>();
  };
  auto Unknown = [](const LaunchSite &S) { return !S.Child || !S.Child->hasBody(); };
  // The kernels whose launches may take from the pool beyond a parent's own
  // records: those with sites, those that launch a kernel defined
  // elsewhere, and those that launch any of these.
  std::set<std::string> Asking;
  for (const auto &[Name, D] : Demand)
    Asking.insert(Name);
  for (const LaunchSite &S : Launches.Sites)
    if (S.DeviceSide && Unknown(S))
      Asking.insert(S.ParentName);
  addDeviceLaunchers(Launches, Asking);
  for (auto &[Name, D] : Demand) {
    D.OwnSitesOnly = std::none_of(
        Launches.Sites.begin(), Launches.Sites.end(), [&, &Name = Name](const LaunchSite &S) {
          bool Reaches = !InKernel(S) || S.ParentName == Name;
          return S.DeviceSide && Reaches && (Unknown(S) || Asking.count(S.ChildName));
        });
  }
}

std::string demandInitializer(const std::map<std::string, ParentPoolDemand> &DemandOf,
                              const std::string &Parent) {
  auto Demand = DemandOf.find(Parent);
  return (Demand == DemandOf.end() ? ParentPoolDemand() : Demand->second).initializer();
}

std::string resetPoolCall(const std::map<std::string, ParentPoolDemand> &DemandOf,
                          const std::string &Parent) {
  using namespace generated::aggregate;
  return "launchopt::resetPool(" + HostStream + ", " + HostGrid + ", " + HostBlock + ", " +
         demandInitializer(DemandOf, Parent) + ");";
}

std::string hostLaunchWithPool(const LaunchText &L, const std::string &Before,
                               const std::string &After) {
  using namespace generated::aggregate;
  return "{ cudaStream_t " + HostStream + " = " + (L.Stream.empty() ? "0" : L.Stream) + "; dim3 " +
         HostGrid + " = " + L.Grid + ", " + HostBlock + " = " + L.Block + "; " + Before + " " +
         L.Callee + "<<<" + HostGrid + ", " + HostBlock + ", " +
         (L.SharedMemory.empty() ? "0" : L.SharedMemory) + ", " + HostStream + ">>>(" +
         L.Arguments + ");" + (After.empty() ? "" : " " + After) + " }";
}

} // namespace launchopt
