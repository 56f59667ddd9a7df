#include "FusionWrappers.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"
#include <algorithm>
#include <functional>
#include <set>
#include <vector>

namespace launchopt {

using namespace clang;

namespace {

// E's characters in whichever file it is written in.
struct SpelledText {
  FileID File;
  unsigned Begin = 0, End = 0;
};

std::optional<SpelledText> spelledText(const ASTContext &Ctx, SourceRange Range) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (Range.isInvalid() || Range.getBegin().isMacroID() || Range.getEnd().isMacroID())
    return std::nullopt;
  CharSourceRange Chars =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(Range), SM, Ctx.getLangOpts());
  if (Chars.isInvalid() || SM.getFileID(Chars.getBegin()) != SM.getFileID(Chars.getEnd()))
    return std::nullopt;
  SpelledText T{SM.getFileID(Chars.getBegin()), SM.getFileOffset(Chars.getBegin()),
                SM.getFileOffset(Chars.getEnd())};
  if (T.End < T.Begin)
    return std::nullopt;
  return T;
}

void collectReferences(const Stmt *S, std::vector<const DeclRefExpr *> &Out) {
  if (!S)
    return;
  if (const auto *R = dyn_cast<DeclRefExpr>(S))
    Out.push_back(R);
  for (const Stmt *Child : S->children())
    collectReferences(Child, Out);
}

bool isIdentifier(llvm::StringRef Text) {
  return !Text.empty() && (isalpha(Text[0]) || Text[0] == '_') &&
         Text.find_if_not([](char C) { return isalnum(C) || C == '_'; }) == llvm::StringRef::npos;
}

// A local of the wrapper stands for its initialiser: `dim3 grid(n / 16)`
// becomes `dim3(n / 16)`, `int m = n / 2` becomes `(n / 2)`.
std::optional<std::string> localText(const ASTContext &Ctx, const VarDecl &V,
                                     const WrapperCall *Call) {
  const Expr *Init = V.getInit();
  if (!Init || V.getType().isVolatileQualified())
    return std::nullopt;
  Init = Init->IgnoreImplicit();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Init);
      Construct && !isa<CXXTemporaryObjectExpr>(Construct)) {
    std::string Out = V.getType().getUnqualifiedType().getAsString(Ctx.getPrintingPolicy()) + "(";
    for (unsigned I = 0; I < Construct->getNumArgs(); ++I) {
      if (isa<CXXDefaultArgExpr>(Construct->getArg(I)))
        break;
      std::optional<std::string> Arg = substitutedText(Ctx, Construct->getArg(I), Call);
      if (!Arg)
        return std::nullopt;
      Out += (I ? ", " : "") + *Arg;
    }
    return Out + ")";
  }
  std::optional<std::string> Text = substitutedText(Ctx, Init, Call);
  if (!Text)
    return std::nullopt;
  return "(" + *Text + ")";
}

// A constexpr constructor (`dim3 grid(n / 16)`) has no effect of its own:
// only its arguments can.
bool hasSideEffects(const ASTContext &Ctx, const Expr *Init) {
  Init = Init->IgnoreImplicit();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Init);
      Construct && Construct->getConstructor()->isConstexpr())
    return std::any_of(Construct->arg_begin(), Construct->arg_end(),
                       [&](const Expr *A) { return A->HasSideEffects(Ctx); });
  return Init->HasSideEffects(Ctx);
}

// A check of the launches' error (`CHECK(cudaGetLastError());`): it calls
// cudaGetLastError or cudaPeekAtLastError and reads no variable of the
// wrapper but its own, so leaving it out of the inlined sequence changes no
// result; an error of a new launch still reaches the next runtime call that
// returns one.
bool checksLastError(const Stmt *S, const FunctionDecl &Wrapper) {
  bool ReadsLastError = false, ReadsWrapper = false;
  std::set<const VarDecl *> Own;
  std::function<void(const Stmt *)> Visit = [&](const Stmt *Node) {
    if (!Node)
      return;
    if (const auto *Declaration = dyn_cast<DeclStmt>(Node))
      for (const Decl *D : Declaration->decls())
        if (const auto *V = dyn_cast<VarDecl>(D))
          Own.insert(V);
    if (const auto *Call = dyn_cast<CallExpr>(Node))
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        ReadsLastError |=
            Callee->getName() == "cudaGetLastError" || Callee->getName() == "cudaPeekAtLastError";
    if (const auto *R = dyn_cast<DeclRefExpr>(Node))
      if (const auto *V = dyn_cast<VarDecl>(R->getDecl()))
        ReadsWrapper |= V->getDeclContext() == &Wrapper && !Own.count(V);
    for (const Stmt *Child : Node->children())
      Visit(Child);
  };
  Visit(S);
  return ReadsLastError && !ReadsWrapper;
}

} // namespace

std::optional<std::string> substitutedText(const ASTContext &Ctx, const Expr *E,
                                           const WrapperCall *Call) {
  if (!Call) {
    std::optional<FileRange> R = spelledRange(Ctx, E->getSourceRange());
    if (!R)
      return std::nullopt;
    return textOf(Ctx, *R);
  }
  const SourceManager &SM = Ctx.getSourceManager();
  std::optional<SpelledText> Whole = spelledText(Ctx, E->getSourceRange());
  if (!Whole)
    return std::nullopt;
  std::vector<const DeclRefExpr *> References;
  collectReferences(E, References);
  std::map<unsigned, std::pair<unsigned, std::string>> Replacements; // begin -> (end, text)
  for (const DeclRefExpr *R : References) {
    const auto *V = dyn_cast<VarDecl>(R->getDecl());
    if (!V || V->getDeclContext() != Call->Wrapper)
      continue;
    std::optional<std::string> Text;
    if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
      auto It = Call->Text.find(P);
      if (It != Call->Text.end())
        Text = isIdentifier(It->second) ? It->second : "(" + It->second + ")";
    } else {
      Text = localText(Ctx, *V, Call);
    }
    std::optional<SpelledText> At = spelledText(Ctx, R->getSourceRange());
    if (!Text || !At || At->File != Whole->File)
      return std::nullopt;
    Replacements[At->Begin] = {At->End, *Text};
  }
  llvm::StringRef Buffer = SM.getBufferData(Whole->File);
  std::string Out;
  unsigned Position = Whole->Begin;
  for (const auto &[Begin, Replacement] : Replacements) {
    Out += Buffer.substr(Position, Begin - Position).str() + Replacement.second;
    Position = Replacement.first;
  }
  return Out + Buffer.substr(Position, Whole->End - Position).str();
}

std::string inliningObstacle(const ASTContext &Ctx, const FunctionDecl &Wrapper,
                             const std::function<bool(const Stmt *)> &Inlined) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Wrapper.getBody());
  if (!Body)
    return "its body is not visible";
  unsigned Line = 0;
  for (const Stmt *S : Body->body()) {
    Line = Ctx.getSourceManager().getPresumedLineNumber(S->getBeginLoc());
    if (Inlined(S))
      continue;
    if (const auto *Declaration = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : Declaration->decls()) {
        const auto *V = dyn_cast<VarDecl>(D);
        if (!V || !V->getInit() || hasSideEffects(Ctx, V->getInit()))
          return "the declaration at line " + std::to_string(Line) +
                 " would be evaluated at each use";
      }
      continue;
    }
    if (isa<NullStmt>(S) || checksLastError(S, Wrapper))
      continue;
    return "the statement at line " + std::to_string(Line) + " is not a launch";
  }
  return "";
}

} // namespace launchopt
