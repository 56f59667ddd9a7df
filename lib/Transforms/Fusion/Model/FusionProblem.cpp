#include "FusionProblem.h"

#include <map>

namespace launchopt {

const ArrayUse *OriginalKernel::use(unsigned Array) const {
  for (const ArrayUse &U : Uses)
    if (U.Array == Array)
      return &U;
  return nullptr;
}

std::string indirectReadReason(const FusionProblem &P, unsigned Reader, unsigned Producer,
                               unsigned Array) {
  return "'" + P.Kernels[Reader].Name + "' reads '" + P.Arrays[Array].Name +
         "' at an unknown offset (an index array or a computed index) after '" +
         P.Kernels[Producer].Name +
         "' writes it: only through global memory after a grid-wide dependence, not on chip";
}

llvm::json::Value toJson(const FusionProblem &P) {
  llvm::json::Array Arrays, Kernels;
  for (const DataArray &A : P.Arrays) {
    llvm::json::Object O{{"name", A.Name}, {"element_bytes", A.ElementBytes}};
    if (A.Scratch)
      O["scratch"] = true;
    Arrays.push_back(std::move(O));
  }
  for (const OriginalKernel &K : P.Kernels) {
    llvm::json::Array Uses;
    for (const ArrayUse &U : K.Uses) {
      llvm::json::Object Use{{"array", P.Arrays[U.Array].Name},
                             {"access", U.Reads && U.Writes ? "read-write"
                                        : U.Writes          ? "write"
                                                            : "read"},
                             {"thread_load", U.ThreadLoad},
                             {"halo_radius", U.HaloRadius}};
      if (U.Indirect)
        Use["indirect"] = true;
      if (U.WritesEverySite)
        Use["writes_every_site"] = true;
      Uses.push_back(std::move(Use));
    }
    llvm::json::Object O{{"name", K.Name},
                         {"segment", K.Segment},
                         {"launch_config", K.LaunchConfig},
                         {"block", llvm::json::Array{K.BlockDim[0], K.BlockDim[1], K.BlockDim[2]}},
                         {"blocks", static_cast<int64_t>(K.Blocks)},
                         {"registers", K.Registers},
                         {"address_registers", K.AddressRegisters},
                         {"shared_memory_bytes", K.SharedMemoryBytes},
                         {"uses", std::move(Uses)}};
    if (!K.SegmentBoundary.empty())
      O["segment_boundary"] = K.SegmentBoundary;
    if (K.Barrier)
      O["barrier"] = true;
    if (!K.ConstantBlock)
      O["constant_block"] = false;
    if (K.InstructionsPerSite > 0)
      O["instructions_per_site"] = K.InstructionsPerSite;
    if (K.MeasuredSeconds > 0)
      O["measured_seconds"] = K.MeasuredSeconds;
    Kernels.push_back(std::move(O));
  }
  return llvm::json::Object{{"arrays", std::move(Arrays)}, {"kernels", std::move(Kernels)}};
}

static llvm::Error malformed(const llvm::Twine &What) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "malformed fusion problem: " + What);
}

llvm::Expected<FusionProblem> problemFromJson(const llvm::json::Value &V) {
  FusionProblem P;
  const llvm::json::Object *Root = V.getAsObject();
  if (!Root || !Root->getArray("arrays") || !Root->getArray("kernels"))
    return malformed("expected an object with 'arrays' and 'kernels'");
  std::map<std::string, unsigned> ArrayIds;
  for (const llvm::json::Value &AV : *Root->getArray("arrays")) {
    const llvm::json::Object *A = AV.getAsObject();
    if (!A || !A->getString("name"))
      return malformed("an array without a name");
    DataArray D;
    D.Name = A->getString("name")->str();
    D.ElementBytes = static_cast<unsigned>(A->getInteger("element_bytes").value_or(8));
    D.Scratch = A->getBoolean("scratch").value_or(false);
    ArrayIds[D.Name] = P.Arrays.size();
    P.Arrays.push_back(D);
  }
  for (const llvm::json::Value &KV : *Root->getArray("kernels")) {
    const llvm::json::Object *O = KV.getAsObject();
    if (!O || !O->getString("name"))
      return malformed("a kernel without a name");
    OriginalKernel K;
    K.Name = O->getString("name")->str();
    K.Segment = static_cast<unsigned>(O->getInteger("segment").value_or(0));
    if (auto B = O->getString("segment_boundary"))
      K.SegmentBoundary = B->str();
    if (auto C = O->getString("launch_config"))
      K.LaunchConfig = C->str();
    if (const llvm::json::Array *B = O->getArray("block"))
      for (unsigned D = 0; D < 3 && D < B->size(); ++D)
        K.BlockDim[D] = static_cast<unsigned>((*B)[D].getAsInteger().value_or(1));
    K.Blocks = static_cast<unsigned long long>(O->getInteger("blocks").value_or(1));
    K.Registers = static_cast<unsigned>(O->getInteger("registers").value_or(32));
    K.AddressRegisters = static_cast<unsigned>(O->getInteger("address_registers").value_or(4));
    K.SharedMemoryBytes = static_cast<unsigned>(O->getInteger("shared_memory_bytes").value_or(0));
    K.MeasuredSeconds = O->getNumber("measured_seconds").value_or(0);
    K.Barrier = O->getBoolean("barrier").value_or(false);
    K.ConstantBlock = O->getBoolean("constant_block").value_or(true);
    K.InstructionsPerSite = O->getNumber("instructions_per_site").value_or(0);
    if (const llvm::json::Array *Uses = O->getArray("uses"))
      for (const llvm::json::Value &UV : *Uses) {
        const llvm::json::Object *U = UV.getAsObject();
        auto Name = U ? U->getString("array") : std::nullopt;
        if (!Name || !ArrayIds.count(Name->str()))
          return malformed("kernel '" + K.Name + "' uses an undeclared array");
        ArrayUse Use;
        Use.Array = ArrayIds[Name->str()];
        llvm::StringRef Access = U->getString("access").value_or("read");
        Use.Reads = Access != "write";
        Use.Writes = Access != "read";
        Use.ThreadLoad = static_cast<unsigned>(U->getInteger("thread_load").value_or(1));
        Use.HaloRadius = static_cast<unsigned>(U->getInteger("halo_radius").value_or(0));
        Use.Indirect = U->getBoolean("indirect").value_or(false);
        Use.WritesEverySite = Use.Writes && U->getBoolean("writes_every_site").value_or(false);
        K.Uses.push_back(Use);
      }
    P.Kernels.push_back(std::move(K));
  }
  return P;
}

} // namespace launchopt
