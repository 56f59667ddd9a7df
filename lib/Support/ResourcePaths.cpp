#include "ResourcePaths.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include <optional>

namespace launchopt {

namespace {

// getMainExecutable falls back on the address of a symbol of the executable
// where /proc/self/exe is missing.
int ExecutableAnchor;

struct ResourceLayout {
  const char *InstalledPath; // relative to the prefix
  const char *SourcePath;    // absolute, in the source tree
};

ResourceLayout layoutOf(Resource Kind) {
  switch (Kind) {
  case Resource::RuntimeHeaders:
    return {LAUNCHOPT_INSTALL_RUNTIME_HEADERS_DIR, LAUNCHOPT_SOURCE_RUNTIME_HEADERS_DIR};
  case Resource::CompatHeaders:
    return {LAUNCHOPT_INSTALL_DATA_DIR "/compat", LAUNCHOPT_SOURCE_COMPAT_HEADERS_DIR};
  case Resource::GpuDescriptions:
    return {LAUNCHOPT_INSTALL_DATA_DIR "/gpus", LAUNCHOPT_SOURCE_GPU_DESCRIPTIONS_DIR};
  }
  llvm_unreachable("unknown resource");
}

std::string realPathOf(llvm::StringRef Path) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Path, Real))
    return Path.str();
  return std::string(Real);
}

// The running executable, symbolic links resolved.
const std::string &executablePath() {
  static const std::string Path =
      realPathOf(llvm::sys::fs::getMainExecutable("launchopt", &ExecutableAnchor));
  return Path;
}

// <prefix> of <prefix>/bin/launchopt.
std::string executablePrefix() {
  return llvm::sys::path::parent_path(llvm::sys::path::parent_path(executablePath())).str();
}

bool runFromBuildTree() {
  static const bool InBuildTree = [] {
    std::string BuildDir = realPathOf(LAUNCHOPT_BUILD_DIR);
    return llvm::StringRef(executablePath()).starts_with(BuildDir + "/");
  }();
  return InBuildTree;
}

std::optional<std::string> overridePrefix() {
  std::optional<std::string> Prefix = llvm::sys::Process::GetEnv("LAUNCHOPT_RESOURCE_DIR");
  if (Prefix && Prefix->empty())
    return std::nullopt;
  return Prefix;
}

std::string joined(llvm::StringRef Prefix, llvm::StringRef Relative) {
  llvm::SmallString<256> Path(Prefix);
  llvm::sys::path::append(Path, Relative);
  return std::string(Path);
}

} // namespace

std::string resourceDir(Resource Kind) {
  ResourceLayout Layout = layoutOf(Kind);
  if (std::optional<std::string> Override = overridePrefix())
    return joined(*Override, Layout.InstalledPath);
  std::string Installed = joined(executablePrefix(), Layout.InstalledPath);
  if (llvm::sys::fs::is_directory(Installed))
    return Installed;
  if (runFromBuildTree())
    return Layout.SourcePath;
  return Installed;
}

std::string resourceLookupHint() {
  if (std::optional<std::string> Override = overridePrefix())
    return "LAUNCHOPT_RESOURCE_DIR names the installation prefix '" + *Override + "'";
  return "launchopt reads its own files from the prefix it is installed in, '" +
         executablePrefix() + "'; LAUNCHOPT_RESOURCE_DIR=<prefix> names another";
}

} // namespace launchopt
