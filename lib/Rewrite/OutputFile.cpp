#include "OutputFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace launchopt {

static std::string directoryOf(const std::string &Path) {
  llvm::StringRef Dir = llvm::sys::path::parent_path(Path);
  return Dir.empty() ? "." : Dir.str();
}

llvm::Error checkWritable(const std::string &Path) {
  std::string Dir = directoryOf(Path);
  if (!llvm::sys::fs::is_directory(Dir))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "cannot write '" + Path +
                                                                       "': directory '" + Dir +
                                                                       "' does not exist");
  if (llvm::sys::fs::access(Dir, llvm::sys::fs::AccessMode::Write))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "cannot write '" + Path +
                                                                       "': directory '" + Dir +
                                                                       "' is not writable");
  if (llvm::sys::fs::is_directory(Path))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot write '" + Path + "': it is a directory");
  return llvm::Error::success();
}

llvm::Error writeOutput(const std::string &Path, const std::string &Contents) {
  if (Path == "-") {
    llvm::outs() << Contents;
    llvm::outs().flush();
    return llvm::Error::success();
  }
  return writeFileAtomically(Path, Contents);
}

llvm::Error writeFileAtomically(const std::string &Path, const std::string &Contents) {
  if (llvm::Error E = checkWritable(Path))
    return E;
  llvm::SmallString<256> Model(directoryOf(Path));
  llvm::sys::path::append(Model, "." + llvm::sys::path::filename(Path).str() + ".launchopt-%%%%%%");
  int FD = -1;
  llvm::SmallString<256> TempPath;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, FD, TempPath))
    return llvm::createStringError(EC, "cannot create a temporary file beside '" + Path +
                                           "': " + EC.message());
  {
    llvm::raw_fd_ostream Out(FD, /*shouldClose=*/true);
    Out << Contents;
    Out.flush();
    if (Out.has_error()) {
      std::error_code EC = Out.error();
      Out.clear_error();
      llvm::sys::fs::remove(TempPath);
      return llvm::createStringError(EC, "cannot write '" + Path + "': " + EC.message());
    }
  }
  // Keep the permissions of a file being replaced.
  llvm::sys::fs::file_status Status;
  if (!llvm::sys::fs::status(Path, Status))
    llvm::sys::fs::setPermissions(TempPath, Status.permissions());
  if (std::error_code EC = llvm::sys::fs::rename(TempPath, Path)) {
    llvm::sys::fs::remove(TempPath);
    return llvm::createStringError(EC, "cannot replace '" + Path + "': " + EC.message());
  }
  return llvm::Error::success();
}

} // namespace launchopt
