#include "LaunchCosts.h"

#include "Support/MakeError.h"
#include "Support/ResourcePaths.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace launchopt {

const char *const *requiredCostConstants() {
  static const char *const Names[] = {"device_launch_issue_us",
                                      "device_launch_issue_faf_us",
                                      "device_launch_issue_named_us",
                                      "device_launch_issue_tail_us",
                                      "device_launch_throughput_us",
                                      "device_launch_throughput_faf_us",
                                      "device_launch_throughput_tail_us",
                                      "dependent_hop_us",
                                      "grid_tail_relaunch_us",
                                      "device_aggregate_launch_us",
                                      "grid_sync_us",
                                      "persistent_inline_threads",
                                      "persistent_looping_work_factor",
                                      "serial_child_thread_ns",
                                      "aggregation_record_ns",
                                      "global_atomic_same_address_ns",
                                      "thread_search_step_ns",
                                      "spawn_decision_ns",
                                      "host_aggregate_launch_us",
                                      "host_persistent_work_factor",
                                      "host_min_parent_threads",
                                      "host_persistent_looping_factor",
                                      "promoted_launch_us",
                                      "promotion_handover_us",
                                      "promotion_pool_entry_ns",
                                      "promotion_overlap_fraction",
                                      "pending_launch_pool",
                                      "multiblock_max_launches",
                                      "barrier_ns",
                                      "nominal_parent_threads",
                                      "nominal_parent_block",
                                      "nominal_chain_levels",
                                      "nominal_tree_level_blocks",
                                      "nominal_child_threads",
                                      "nominal_large_child_threads",
                                      "nominal_child_block",
                                      "nominal_loop_trips",
                                      nullptr};
  return Names;
}

llvm::Expected<LaunchCosts> parseLaunchCosts(llvm::StringRef LaunchJson, llvm::StringRef GpuJson) {
  llvm::Expected<llvm::json::Value> Launch = llvm::json::parse(LaunchJson);
  if (!Launch)
    return makeError("launch costs: " + llvm::toString(Launch.takeError()));
  llvm::Expected<llvm::json::Value> Gpu = llvm::json::parse(GpuJson);
  if (!Gpu)
    return makeError("GPU description: " + llvm::toString(Gpu.takeError()));
  const llvm::json::Object *L = Launch->getAsObject(), *G = Gpu->getAsObject();
  if (!L || !G)
    return makeError("launch costs: expected JSON objects");
  LaunchCosts C;
  if (auto Name = L->getString("name"))
    C.Gpu = Name->str();
  C.Multiprocessors = static_cast<unsigned>(G->getInteger("multiprocessors").value_or(0));
  C.MaxThreadsPerMultiprocessor =
      static_cast<unsigned>(G->getInteger("max_threads_per_multiprocessor").value_or(0));
  C.MaxBlocksPerMultiprocessor =
      static_cast<unsigned>(G->getInteger("max_blocks_per_multiprocessor").value_or(0));
  if (!C.Multiprocessors || !C.MaxThreadsPerMultiprocessor || !C.MaxBlocksPerMultiprocessor)
    return makeError("GPU description needs multiprocessors, max_threads_per_multiprocessor and "
                     "max_blocks_per_multiprocessor");
  const llvm::json::Object *Constants = L->getObject("constants");
  if (!Constants)
    return makeError("launch costs: expected an object 'constants'");
  for (const auto &[Key, Value] : *Constants) {
    const llvm::json::Object *O = Value.getAsObject();
    std::optional<double> V = O ? O->getNumber("value") : std::nullopt;
    std::optional<llvm::StringRef> Source = O ? O->getString("source") : std::nullopt;
    if (!V || !Source || Source->empty())
      return makeError("launch costs: constant '" + Key.str() +
                       "' needs a number 'value' and a 'source'");
    C.Constants[Key.str()] = {*V, O->getString("unit").value_or("").str(), Source->str()};
  }
  for (const char *const *Name = requiredCostConstants(); *Name; ++Name)
    if (!C.Constants.count(*Name))
      return makeError(std::string("launch costs: constant '") + *Name + "' is missing");
  return C;
}

llvm::Expected<LaunchCosts> loadLaunchCosts(const std::string &Path) {
  auto Launch = llvm::MemoryBuffer::getFile(Path);
  if (!Launch)
    return makeError("cannot read launch costs '" + Path + "': " + Launch.getError().message() +
                     "; " + resourceLookupHint());
  llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse((*Launch)->getBuffer());
  if (!Parsed)
    return makeError("'" + Path + "': " + llvm::toString(Parsed.takeError()));
  std::optional<llvm::StringRef> Extends =
      Parsed->getAsObject() ? Parsed->getAsObject()->getString("extends") : std::nullopt;
  if (!Extends)
    return makeError("'" + Path + "': expected \"extends\": the GPU description it adds to");
  llvm::SmallString<256> GpuPath(llvm::sys::path::parent_path(Path));
  llvm::sys::path::append(GpuPath, *Extends);
  auto Gpu = llvm::MemoryBuffer::getFile(GpuPath);
  if (!Gpu)
    return makeError("cannot read GPU description '" + GpuPath.str().str() +
                     "': " + Gpu.getError().message());
  llvm::Expected<LaunchCosts> C = parseLaunchCosts((*Launch)->getBuffer(), (*Gpu)->getBuffer());
  if (!C)
    return makeError("'" + Path + "': " + llvm::toString(C.takeError()));
  return C;
}

std::string defaultLaunchCostsPath() {
  return resourceDir(Resource::GpuDescriptions) + "/h100-launch.json";
}

} // namespace launchopt
