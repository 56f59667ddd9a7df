#ifndef LAUNCHOPT_TRANSFORMS_COMMON_REFUSAL_H
#define LAUNCHOPT_TRANSFORMS_COMMON_REFUSAL_H

// Why a pass leaves a launch, or cannot read what it would rewrite, as an
// llvm::Error: its message is the remark's text, word for word, and the
// caller turns it into the remark with llvm::toString.

#include "Support/MakeError.h"

namespace launchopt {

inline llvm::Error refusal(const llvm::Twine &Why) { return makeError(Why); }

} // namespace launchopt

#endif
