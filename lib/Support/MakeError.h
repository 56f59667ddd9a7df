#ifndef LAUNCHOPT_SUPPORT_MAKEERROR_H
#define LAUNCHOPT_SUPPORT_MAKEERROR_H

// launchopt's errors are messages for the user: an llvm::Error holding the
// text, which callers print or turn into a remark with llvm::toString.

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace launchopt {

inline llvm::Error makeError(const llvm::Twine &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Message);
}

} // namespace launchopt

#endif
