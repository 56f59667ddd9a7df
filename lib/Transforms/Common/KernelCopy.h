#ifndef LAUNCHOPT_TRANSFORMS_COMMON_KERNELCOPY_H
#define LAUNCHOPT_TRANSFORMS_COMMON_KERNELCOPY_H

#include "Analysis/SourceText.h"
#include "Rewrite/SourceEdits.h"
#include "clang/AST/Decl.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace launchopt {

// The pieces of a kernel definition that passes reuse to write new functions
// from it: a serial copy, a coarsened kernel, an aggregated kernel.
struct KernelCopy {
  std::string Name;
  std::string TemplateHeader; // "template <typename T>\n", or empty
  std::string TemplateArgs;   // "<T>", or empty
  // "__launch_bounds__(...) " as the kernel writes it, or empty: a copy that
  // the host launches in its place with the same block needs it (a block of
  // more threads than the registers the copy takes without it allow fails).
  std::string LaunchBounds;
  std::vector<std::string> ParamTexts; // "const float *a", default arguments dropped
  // Unnamed parameters get a generated name (generated::UnnamedParameterPrefix).
  std::vector<std::string> ParamNames;
  // Where each unnamed parameter's generated name goes in the kernel's own
  // signature, for a pass that keeps the kernel and passes its parameters on.
  std::vector<std::pair<unsigned, std::string>> UnnamedParameterNames;
  FileRange Whole; // the definition, template header included
  FileRange Body;  // the braces and what is between them
  // The guard on the linear x index that ends the threads past the data
  // (Analysis/LinearExit.h), as text: the declarations before it, the names
  // they declare, and a condition under which the thread and every later x
  // index return at once. Condition is empty when there is none.
  struct {
    std::string Declarations;
    std::vector<std::string> Names;
    std::string Condition;
  } LinearExit;
  // The instructions one thread issues (Analysis/InstructionEstimate.h),
  // rounded up; 0 when unknown (a loop, an opaque call).
  unsigned InstructionsPerThread = 0;
  // The atomic updates a serial copy combines (Analysis/UniformAtomics.h),
  // as written: the call, the runtime's operation and scope, the address
  // and the value.
  struct Accumulation {
    FileRange Call;
    std::string Op;
    std::string Scope;
    std::string Address;
    std::string Value;
  };
  std::vector<Accumulation> Accumulations;

  // "const float *a, int n" and "a, n", each followed by ", " when Trailing
  // and there is at least one parameter.
  std::string parameters(bool Trailing = false) const;
  std::string arguments(bool Trailing = false) const;
  // The body as written, with the edits that fall inside it applied (a
  // pass's own rewrites of launches inside the kernel).
  std::string body(const clang::ASTContext &Ctx, const std::vector<SourceEdit> &Edits) const;
};

// The kernel's pieces, or why they cannot be read (the remark's text). With
// In, a function written in that included file (copied, never edited).
// A member function is refused unless Member (a shadow copy's original).
llvm::Expected<KernelCopy> readKernel(const clang::ASTContext &Ctx,
                                      const clang::FunctionDecl &Kernel,
                                      clang::FileID In = clang::FileID(), bool Member = false);

// The signature of a kernel this file only declares (its definition is in
// another file of the program): Name, parameter types with generated names,
// for declaring copies of it that the defining file's output holds. Body
// and Whole are empty.
llvm::Expected<KernelCopy> readKernelDeclaration(const clang::ASTContext &Ctx,
                                                 const clang::FunctionDecl &Kernel);

// Whether a kernel of this file can have copies that other files of the
// program call: the copies of a template could not be instantiated there.
llvm::Error exportableChild(const clang::FunctionDecl &Kernel);

// Edits that give the kernel's unnamed parameters their generated names in
// its signature.
void nameUnnamedParameters(const KernelCopy &K, SourceEdits &Edits);

// The parameters through which a copied body receives the four built-in
// index variables (generated::passedBuiltin), for the signature of the
// function that holds the copy.
std::string passedBuiltinParameters();

// Local declarations that shadow built-in index variables with the values
// the caller passes (generated::passedBuiltin): a copied body then sees them
// unchanged, its macros and early returns included. Names is a subset of
// blockIdx, threadIdx, blockDim, gridDim.
std::string shadowingPrologue(const std::vector<std::string> &Names);

} // namespace launchopt

#endif
