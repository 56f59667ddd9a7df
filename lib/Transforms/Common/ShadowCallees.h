#ifndef LAUNCHOPT_TRANSFORMS_COMMON_SHADOWCALLEES_H
#define LAUNCHOPT_TRANSFORMS_COMMON_SHADOWCALLEES_H

#include "Analysis/SourceText.h"
#include "Rewrite/SourceEdits.h"
#include "clang/AST/Decl.h"
#include "llvm/Support/Error.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace launchopt {

// A kernel body that a pass copies into a function where the built-in index
// variables are shadowed (serial, coarsened, aggregated copies) would still
// call device functions that read the real built-ins. Each such function,
// and each function that reaches one through calls, gets a shadow copy
// (named with generated::ShadowCopyPrefix) that takes the four values as
// extra parameters and shadows them the same way; calls in the copied body
// are redirected to it.
//
// Cooperative-groups index queries (block.thread_rank(), ...) count as
// reads of the built-ins and are replaced in copies by what they compute.
//
// Handled: direct calls by name (qualified, with explicit template
// arguments, or unresolved in a template when only one function has that
// name) to functions defined in the main file or in a header it includes,
// and calls of member functions (`obj.m()`, `p->m()`, `m()` in a member,
// `C::m()`; const, static, templates): see MemberShadows.h.
// A header is never edited: the copies of its functions go into the output
// right after the main file's #include of it, in their namespaces. Refused:
// an operator, a virtual member, a header class's member that touches the
// class's non-public members or types, a function pointer, a
// using-declaration, default arguments, recursion, a definition written in
// a macro or out of its namespace or class, or a call written inside a macro
// or a launch. Callees without any visible definition, and member calls that
// a template leaves dependent, are not followed here.
class ShadowCallees {
public:
  explicit ShadowCallees(const clang::ASTContext &Ctx) : Ctx(Ctx) {}

  // Plans the shadow copies that a copy of Kernel's body needs; success when
  // it can be copied (perhaps needing none), else why not (the remark's text).
  llvm::Error require(const clang::FunctionDecl &Kernel);

  // Functions that get shadow copies even when they do not read the
  // built-ins, because the pass rewrites launches in them (their copies
  // carry the pass's edits, see emit); callers reaching them are copied too.
  // Call before the first require().
  void alsoCopy(const std::set<const clang::FunctionDecl *> &Functions) { Copied = Functions; }

  // Parameters every shadow copy takes after the built-ins, and the names
  // its calls pass for them (a pass's state that rewritten launches in the
  // copies use); the text starts with ", ". Count: how many there are.
  void passAlso(std::string Parameters, std::string Arguments, unsigned Count) {
    ExtraParameters = std::move(Parameters);
    ExtraArguments = std::move(Arguments);
    ExtraCount = Count;
  }

  // Whether a copy of Kernel's body calls Target's shadow copy (directly or
  // through other copies). Kernel must have been required successfully.
  bool reaches(const clang::FunctionDecl &Kernel, const clang::FunctionDecl *Target) const;

  // The edits (main-file offsets, inside Kernel's body) that redirect its
  // calls to shadow copies; add them to the edits a body copy applies.
  // Kernel must have been required successfully.
  std::vector<SourceEdit> callEdits(const clang::FunctionDecl &Kernel) const;

  // Inserts, once each, the shadow copies that the given kernels need and
  // that the file does not define yet (an earlier pass's output may). Each
  // definition goes right after its original, and a declaration after the
  // original's first declaration when that comes earlier. PassEdits are the
  // pass's own rewrites, applied to copied bodies like to kernel copies.
  void emit(SourceEdits &Edits, const std::vector<SourceEdit> &PassEdits,
            const std::set<const clang::FunctionDecl *> &Kernels) const;

  // One call (or reference) in a body to a function with a definition.
  struct CallSite {
    std::vector<const clang::FunctionDecl *> Candidates; // definitions
    FileRange Name;            // the callee's name, replaced
    unsigned ArgumentsEnd = 0; // offset of ')', where the built-ins are appended
    bool HasArguments = false;
    std::string Problem;       // why it cannot be redirected, if it must be
    // A member function's call: where the text that a free copy's call
    // replaces begins (the `.`/`->` after an object, `this`, or the name
    // with its qualifier), the object's start (none for `this`), and the
    // offset just past '('.
    bool Member = false;
    bool Arrow = false;
    unsigned CalleeBegin = 0;
    std::optional<unsigned> ObjectBegin;
    unsigned ArgumentsBegin = 0;
  };
  // A use of the object or the class in a member's body, rewritten when the
  // member's copy is a free function: `x` (implicit this) becomes
  // `__lo_self.x`, `this` becomes `(&__lo_self)`, an unqualified static
  // member `s` becomes `C::s`. Call: the call site it belongs to, whose
  // own rewrite replaces it when that call is redirected, or -1.
  struct ClassUse {
    enum Kind { ImplicitThis, ExplicitThis, UnqualifiedStatic } What;
    unsigned Offset = 0;
    unsigned Length = 0;
    const clang::CXXRecordDecl *Class = nullptr; // for UnqualifiedStatic
    int Call = -1;
  };
  struct FunctionFacts {
    bool ReadsBuiltins = false;
    std::vector<CallSite> Calls;
    // Cooperative-groups index queries, replaced by their formula over the
    // shadowed built-ins (Analysis/CooperativeGroups.h).
    std::vector<SourceEdit> GroupQueries;
    std::string GroupQueryProblem; // why one cannot be replaced
    std::vector<ClassUse> ClassUses;
    // Why the body would not compile outside its class (a non-public
    // member, a member type), if it is a member.
    std::string OutsideClassProblem;
  };

private:
  const FunctionFacts &factsOf(const clang::FunctionDecl *Definition);
  bool needsShadow(const clang::FunctionDecl *Definition);
  // The words of a refusal that say why Definition needed a copy.
  std::string whyCopied(const clang::FunctionDecl *Definition);
  std::vector<SourceEdit> editsFor(const clang::FunctionDecl *Definition) const;
  bool alreadyDefined(const clang::FunctionDecl *Definition) const;
  bool redirected(const CallSite &C) const;
  void addCallEdits(const clang::FunctionDecl *Caller, const CallSite &C,
                    std::vector<SourceEdit> &Edits) const;

  const clang::ASTContext &Ctx;
  std::map<const clang::FunctionDecl *, FunctionFacts> Facts;
  std::map<const clang::FunctionDecl *, bool> Needs;
  // For each required kernel, the shadowed functions its copy reaches.
  std::map<const clang::FunctionDecl *, std::set<const clang::FunctionDecl *>> Reached;
  std::set<const clang::FunctionDecl *> Copied;
  std::string ExtraParameters, ExtraArguments;
  unsigned ExtraCount = 0;
};

// The definition (template pattern) that a call to F runs, or null.
const clang::FunctionDecl *definitionOf(const clang::FunctionDecl *F);

} // namespace launchopt

#endif
