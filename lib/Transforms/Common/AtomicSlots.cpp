#include "AtomicSlots.h"

#include "Support/GeneratedNames.h"
#include "llvm/ADT/StringExtras.h"

namespace launchopt {

namespace {

std::string slotName(size_t I) { return generated::code("@acc") + std::to_string(I); }

std::string slotType(const KernelCopy::Accumulation &A) {
  return "decltype(launchopt::accumulate::slotFor(" + A.Address + "))";
}

std::string operationType(const KernelCopy::Accumulation &A) {
  return "launchopt::accumulate::" + A.Op + "<launchopt::accumulate::Scope::" + A.Scope + ">";
}

} // namespace

std::string atomicSlotParameters(const KernelCopy &K) {
  std::string P;
  for (size_t I = 0; I < K.Accumulations.size(); ++I)
    P += ", " + slotType(K.Accumulations[I]) + " *" + slotName(I) + " = nullptr";
  return P;
}

std::vector<SourceEdit>
withAtomicSlots(const KernelCopy &K, const std::vector<SourceEdit> &BodyEdits, SlotNaming Naming) {
  std::vector<SourceEdit> Edits = BodyEdits;
  for (size_t I = 0; I < K.Accumulations.size(); ++I) {
    const KernelCopy::Accumulation &A = K.Accumulations[I];
    std::string Slot = (Naming == SlotsAreLocals ? "&" : "") + slotName(I);
    Edits.push_back({A.Call.Begin, A.Call.End - A.Call.Begin,
                     "launchopt::accumulate::put<" + operationType(A) + ">(" + Slot + ", " +
                         A.Address + ", " + A.Value + ")"});
  }
  return Edits;
}

std::vector<SourceEdit> withWarpAtomics(const KernelCopy &K,
                                        const std::vector<SourceEdit> &BodyEdits) {
  std::vector<SourceEdit> Edits = BodyEdits;
  for (const KernelCopy::Accumulation &A : K.Accumulations)
    Edits.push_back({A.Call.Begin, A.Call.End - A.Call.Begin,
                     "launchopt::accumulate::applyInWarp<" + operationType(A) + ">(" + A.Address +
                         ", " + A.Value + ")"});
  return Edits;
}

std::string atomicSlotDeclarations(const KernelCopy &K, const std::string &Indent) {
  if (K.Accumulations.empty())
    return "";
  std::string D = Indent + "// launchopt: the child's atomic updates of one address, combined "
                           "here and applied once.\n";
  for (size_t I = 0; I < K.Accumulations.size(); ++I)
    D += Indent + "auto " + slotName(I) + " = launchopt::accumulate::start<" +
         operationType(K.Accumulations[I]) + ">(" + K.Accumulations[I].Address + ");\n";
  return D;
}

std::string atomicSlotArguments(const KernelCopy &K) {
  std::string A;
  for (size_t I = 0; I < K.Accumulations.size(); ++I)
    A += ", &" + slotName(I);
  return A;
}

std::string atomicSlotFlushes(const KernelCopy &K, const std::string &Indent, bool Warp) {
  std::string D;
  for (size_t I = 0; I < K.Accumulations.size(); ++I)
    D += Indent + "launchopt::accumulate::" + (Warp ? "flushWarp<" : "flush<") +
         operationType(K.Accumulations[I]) + ">(" + slotName(I) + ", " +
         K.Accumulations[I].Address + ");\n";
  return D;
}

std::optional<std::string> combinedAtomics(const KernelCopy &K) {
  if (K.Accumulations.empty())
    return std::nullopt;
  std::vector<std::string> Updates;
  for (const KernelCopy::Accumulation &A : K.Accumulations)
    Updates.push_back("atomic" + A.Op +
                      (A.Scope == "Device" ? "" : "_" + llvm::StringRef(A.Scope).lower()) + "(" +
                      A.Address + ")");
  return llvm::join(Updates, ", ");
}

} // namespace launchopt
