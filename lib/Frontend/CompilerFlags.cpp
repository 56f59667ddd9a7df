#include "CompilerFlags.h"

#include "Support/ResourcePaths.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"

namespace launchopt {

ParseEnvironment defaultParseEnvironment() {
  ParseEnvironment Env;
  Env.CudaPath = LAUNCHOPT_DEFAULT_CUDA_PATH;
  Env.CompatDir = resourceDir(Resource::CompatHeaders);
  Env.ResourceDir = LAUNCHOPT_CLANG_RESOURCE_DIR;
  return Env;
}

// nvcc options that clang does not know; the ones taking a separate value
// drop the next argument too.
static bool isNvccOnlyFlag(llvm::StringRef Arg, bool &TakesNextArg) {
  TakesNextArg = false;
  static const char *const Joined[] = {
      "-arch=",
      "--gpu-architecture=",
      "-gencode=",
      "--generate-code=",
      "-rdc=",
      "--relocatable-device-code=",
      "-code=",
      "--gpu-code=",
      "-Xcompiler=",
      "-Xptxas=",
      "-Xlinker=",
      "--compiler-options=",
      "-ccbin=",
      "--compiler-bindir=",
      "-maxrregcount=",
      "--maxrregcount=",
      "--default-stream=",
      "-default-stream=",
      "--diag-suppress=",
      "-diag-suppress=",
      "-t=",
      "--threads=",
      "--std=",
  };
  for (const char *J : Joined)
    if (Arg.starts_with(J))
      return true;
  static const char *const WithValue[] = {
      "-arch",
      "--gpu-architecture",
      "-gencode",
      "--generate-code",
      "-code",
      "--gpu-code",
      "-Xcompiler",
      "-Xptxas",
      "-Xlinker",
      "-ccbin",
      "--compiler-bindir",
      "-maxrregcount",
      "--default-stream",
      "-t",
      "--threads",
      "--diag-suppress",
  };
  for (const char *W : WithValue)
    if (Arg == W) {
      TakesNextArg = true;
      return true;
    }
  static const char *const Plain[] = {
      "-rdc",
      "-dc",
      "--device-c",
      "-G",
      "-lineinfo",
      "--lineinfo",
      "--use_fast_math",
      "-use_fast_math",
      "--expt-extended-lambda",
      "--extended-lambda",
      "--expt-relaxed-constexpr",
      "-lcudadevrt",
      "-lcudart",
      "-cudart",
      "--keep",
      "-Wno-deprecated-gpu-targets",
      "--resource-usage",
      "-dlink",
  };
  for (const char *P : Plain)
    if (Arg == P)
      return true;
  return false;
}

clang::tooling::ArgumentsAdjuster cudaParseAdjuster(const ParseEnvironment &Env) {
  return [Env](const clang::tooling::CommandLineArguments &Args, llvm::StringRef) {
    clang::tooling::CommandLineArguments Out;
    for (size_t I = 0; I < Args.size(); ++I) {
      llvm::StringRef Arg = Args[I];
      bool TakesNextArg = false;
      if (I > 0 && isNvccOnlyFlag(Arg, TakesNextArg)) {
        if (TakesNextArg)
          ++I;
        continue;
      }
      Out.push_back(Args[I]);
      // Right after the compiler name: what every CUDA parse needs. The user's
      // own flags come later and may override the language standard. A later
      // pass parses an earlier one's output, where a removed launch's error
      // query became `cudaSuccess != cudaSuccess`: no warning about that.
      // Clang 19 does not know every attribute nvcc does (`__grid_constant__`
      // is `__attribute__((grid_constant))`); nvcc, which builds the output,
      // judges them.
      if (I == 0) {
        for (const char *Flag : {"-xcuda", "--cuda-host-only", "-Wno-unknown-cuda-version",
                                 "-Wno-tautological-compare", "-Wno-unknown-attributes",
                                 "-std=c++17", "-ferror-limit=0"})
          Out.push_back(Flag);
        Out.push_back("--cuda-path=" + Env.CudaPath);
        Out.push_back("-resource-dir=" + Env.ResourceDir);
        Out.push_back("-isystem");
        Out.push_back(Env.CompatDir);
        Out.push_back("-isystem");
        Out.push_back(Env.CudaPath + "/include/cccl");
        // An earlier pass's output includes the runtime headers
        // (`#include <launchopt/spawn.cuh>`) that a later pass parses.
        Out.push_back("-isystem");
        Out.push_back(resourceDir(Resource::RuntimeHeaders));
      }
    }
    return Out;
  };
}

} // namespace launchopt
