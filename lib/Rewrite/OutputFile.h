#ifndef LAUNCHOPT_REWRITE_OUTPUTFILE_H
#define LAUNCHOPT_REWRITE_OUTPUTFILE_H

#include "llvm/Support/Error.h"
#include <string>

namespace launchopt {

// Writes Contents to Path atomically: a temporary file beside Path is written
// in full and renamed over it, so Path is either untouched or complete.
llvm::Error writeFileAtomically(const std::string &Path, const std::string &Contents);

// Standard output for "-", else writeFileAtomically.
llvm::Error writeOutput(const std::string &Path, const std::string &Contents);

// Fails early, before any work, when Path's directory cannot take a new file.
llvm::Error checkWritable(const std::string &Path);

} // namespace launchopt

#endif
