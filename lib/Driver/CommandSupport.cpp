#include "CommandSupport.h"

#include "Support/MakeError.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace launchopt {

int fail(llvm::StringRef Command, int Code, const llvm::Twine &Message) {
  llvm::errs() << Command << ": error: " << Message << "\n";
  return Code;
}

llvm::Expected<std::string> readInputFile(const std::string &Path) {
  if (!llvm::sys::fs::exists(Path))
    return makeError("cannot read '" + Path + "': no such file");
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return makeError("cannot read '" + Path + "': " + Buffer.getError().message());
  return (*Buffer)->getBuffer().str();
}

ParseEnvironment parseEnvironmentFor(llvm::StringRef CudaPath) {
  ParseEnvironment Env = defaultParseEnvironment();
  if (!CudaPath.empty())
    Env.CudaPath = CudaPath.str();
  return Env;
}

} // namespace launchopt
