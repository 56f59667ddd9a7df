#include "GpuDescription.h"

#include "Support/ResourcePaths.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

namespace launchopt {

llvm::Expected<GpuDescription> parseGpuDescription(llvm::StringRef Json) {
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Json);
  if (!V)
    return V.takeError();
  const llvm::json::Object *O = V->getAsObject();
  if (!O)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "GPU description: expected a JSON object");
  GpuDescription G;
  auto Unsigned = [&](llvm::StringRef Key, unsigned &Field) {
    if (auto I = O->getInteger(Key))
      Field = static_cast<unsigned>(*I);
  };
  auto Real = [&](llvm::StringRef Key, double &Field) {
    if (auto D = O->getNumber(Key))
      Field = *D;
  };
  if (auto N = O->getString("name"))
    G.Name = N->str();
  Unsigned("multiprocessors", G.Multiprocessors);
  Unsigned("registers_per_multiprocessor", G.RegistersPerMultiprocessor);
  Unsigned("shared_memory_per_multiprocessor", G.SharedMemoryPerMultiprocessor);
  Unsigned("max_registers_per_thread", G.MaxRegistersPerThread);
  Unsigned("max_threads_per_multiprocessor", G.MaxThreadsPerMultiprocessor);
  Unsigned("max_blocks_per_multiprocessor", G.MaxBlocksPerMultiprocessor);
  Unsigned("register_allocation_unit", G.RegisterAllocationUnit);
  double BandwidthGBs = 0;
  Real("memory_bandwidth_gb_per_s", BandwidthGBs);
  G.MemoryBandwidth = BandwidthGBs * 1e9;
  Real("register_reuse_factor", G.RegisterReuseFactor);
  Real("bank_conflict_padding", G.BankConflictPadding);
  Real("saturating_blocking_factor", G.SaturatingBlockingFactor);
  double BarrierNs = G.BarrierLatency * 1e9;
  Real("barrier_latency_ns", BarrierNs);
  G.BarrierLatency = BarrierNs * 1e-9;
  double CacheGBs = G.CacheBandwidth * 1e-9;
  Real("cache_bandwidth_gb_per_s", CacheGBs);
  G.CacheBandwidth = CacheGBs * 1e9;
  double RecomputeGBs = G.RecomputeBandwidth * 1e-9;
  Real("recompute_bandwidth_gb_per_s", RecomputeGBs);
  G.RecomputeBandwidth = RecomputeGBs * 1e9;
  double InstructionsG = 0; // billions of instructions per second
  Real("instruction_rate_g_per_s", InstructionsG);
  G.InstructionRate = InstructionsG * 1e9;
  if (!G.Multiprocessors || !G.RegistersPerMultiprocessor || !G.SharedMemoryPerMultiprocessor ||
      G.MemoryBandwidth <= 0)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "GPU description needs multiprocessors, registers_per_multiprocessor, "
        "shared_memory_per_multiprocessor and memory_bandwidth_gb_per_s");
  return G;
}

llvm::Expected<GpuDescription> loadGpuDescription(const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "cannot read GPU description '" + Path + "'");
  return parseGpuDescription((*Buffer)->getBuffer());
}

std::string defaultGpuDescriptionPath() {
  return resourceDir(Resource::GpuDescriptions) + "/h100.json";
}

} // namespace launchopt
