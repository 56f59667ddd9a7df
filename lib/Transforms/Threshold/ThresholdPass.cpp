#include "ThresholdPass.h"

#include "SerialChildBuilder.h"
#include "Analysis/ThreadCount.h"
#include "llvm/ADT/StringExtras.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"
#include <set>

namespace launchopt {

namespace {

const char *const DimensionNames[3] = {"x", "y", "z"};

// Why a child's body cannot run serially in a parent thread (paper §III-C),
// or an empty string.
std::string serializationBlocker(const KernelFeatures &F) {
  if (!F.Barriers.empty())
    return "child uses " + *F.Barriers.begin();
  if (F.UsesSharedMemory)
    return "child uses shared memory";
  if (!F.WarpPrimitives.empty())
    return "child uses warp primitive " + *F.WarpPrimitives.begin();
  if (F.UsesInlineAsm)
    return "child uses inline assembly";
  if (!F.CalleesReadingThreadIdentity.empty())
    return "child calls '" + *F.CalleesReadingThreadIdentity.begin() +
           "', which reads the built-in index variables itself";
  if (!F.OpaqueCallees.empty())
    return "child calls '" + *F.OpaqueCallees.begin() +
           "', whose definition is not in this translation unit";
  return "";
}

bool isOrderedStream(LaunchStream S) {
  return S == LaunchStream::Default || S == LaunchStream::Named;
}

// Launching a later child asynchronously but running this one at once could
// let it overtake work the same parent thread launched before it.
bool mayOvertakeEarlierLaunch(const LaunchAnalysis &A, const LaunchSite &Site) {
  if (!isOrderedStream(Site.StreamKind))
    return false;
  if (Site.InLoop)
    return true;
  for (unsigned I : A.SitesByParent.at(Site.Parent)) {
    const LaunchSite &Other = A.Sites[I];
    if (Other.Id < Site.Id && isOrderedStream(Other.StreamKind))
      return true;
  }
  return false;
}

std::string indentationAt(llvm::StringRef Buffer, unsigned Offset) {
  size_t LineStart = Buffer.rfind('\n', Offset);
  LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
  size_t End = LineStart;
  while (End < Offset && (Buffer[End] == ' ' || Buffer[End] == '\t'))
    ++End;
  return Buffer.substr(LineStart, End - LineStart).str();
}

// The kernel name as written at the launch with the serial prefix, keeping a
// namespace qualifier and explicit template arguments: ns::k<T> ->
// ns::__lo_serial_k<T>.
std::optional<std::string> serialCallee(const clang::ASTContext &Ctx,
                                        const clang::CUDAKernelCallExpr &Call,
                                        const std::string &KernelName) {
  const clang::Expr *Callee = Call.getCallee()->IgnoreImplicit();
  clang::SourceLocation NameLoc;
  if (auto *Ref = llvm::dyn_cast<clang::DeclRefExpr>(Callee))
    NameLoc = Ref->getLocation();
  else if (auto *ULE = llvm::dyn_cast<clang::UnresolvedLookupExpr>(Callee))
    NameLoc = ULE->getNameLoc();
  std::optional<FileRange> Whole = writtenRange(Ctx, Callee->getSourceRange());
  std::optional<FileRange> Name = writtenRange(Ctx, NameLoc);
  if (!Whole || !Name || !Whole->contains(*Name))
    return std::nullopt;
  return textOf(Ctx, {Whole->Begin, Name->Begin}) + serialNameFor(KernelName) +
         textOf(Ctx, {Name->End, Whole->End});
}

class SiteRewriter {
public:
  SiteRewriter(clang::ASTContext &Ctx, const LaunchSite &Site) : Ctx(Ctx), Site(Site) {}

  // The replacement of the launch statement, or a reason it cannot be built.
  std::optional<std::string> build(std::string &Reason, LaunchRemark &Remark,
                                   const std::string &SerialCallee) {
    const clang::SourceManager &SM = Ctx.getSourceManager();
    std::optional<FileRange> Grid = spelledRange(Ctx, Site.Grid->getSourceRange());
    std::optional<FileRange> Block = spelledRange(Ctx, Site.Block->getSourceRange());
    if (!Grid || !Block) {
      Reason = "the launch configuration cannot be read from the source";
      return std::nullopt;
    }
    std::string Id = std::to_string(Site.Id);
    std::string GridVar = "__lo_grid" + Id, BlockVar = "__lo_block" + Id;
    std::string ThreadsVar = "__lo_threads" + Id;
    ThreadCount Count = recoverThreadCount(Ctx, Site);

    std::vector<std::string> Lines;
    std::string GridText = textOf(Ctx, *Grid);
    std::string Factors[3];
    std::vector<std::string> Recovered;
    // Numerators inside the grid expression are bound first and the grid is
    // computed from the bound values, so each is still evaluated once.
    std::vector<std::pair<FileRange, std::string>> Substitutions;
    for (unsigned D = 0; D < 3; ++D) {
      Factors[D] = "(long long)" + GridVar + "." + DimensionNames[D] + " * " + BlockVar +
                   "." + DimensionNames[D];
      const DimensionThreads &Dim = Count.Dimensions[D];
      if (!Dim.Numerator)
        continue;
      std::optional<FileRange> N = spelledRange(Ctx, Dim.Numerator->getSourceRange());
      if (!N)
        continue;
      std::string NVar = "__lo_n" + Id + "_" + DimensionNames[D];
      if (Dim.InLaunchExpression) {
        if (!Grid->contains(*N) || !writtenRange(Ctx, Dim.Numerator->getSourceRange()))
          continue;
        Substitutions.push_back({*N, NVar});
      }
      Lines.push_back("const auto " + NVar + " = (" + textOf(Ctx, *N) + ");");
      Factors[D] = "(long long)(" + NVar + ")";
      Recovered.push_back(std::string(DimensionNames[D]) + ": " + textOf(Ctx, *N) + " (" +
                          Dim.Pattern + ")");
    }
    std::sort(Substitutions.begin(), Substitutions.end(),
              [](const auto &L, const auto &R) { return L.first.Begin > R.first.Begin; });
    for (const auto &[Range, Var] : Substitutions)
      GridText.replace(Range.Begin - Grid->Begin, Range.End - Range.Begin, Var);

    Lines.push_back("const dim3 " + GridVar + " = " + GridText + ";");
    Lines.push_back("const dim3 " + BlockVar + " = " + textOf(Ctx, *Block) + ";");
    Lines.push_back("const long long " + ThreadsVar + " = " + Factors[0] + " * " +
                    Factors[1] + " * " + Factors[2] + ";");

    std::string Config = GridVar + ", " + BlockVar;
    for (const clang::Expr *Extra : {Site.SharedMemory, Site.Stream}) {
      if (!Extra)
        break;
      std::optional<FileRange> R = spelledRange(Ctx, Extra->getSourceRange());
      if (!R) {
        Reason = "the launch configuration cannot be read from the source";
        return std::nullopt;
      }
      Config += ", " + textOf(Ctx, *R);
    }
    std::string Args;
    if (!Site.Arguments.empty()) {
      std::optional<FileRange> R = spelledRange(
          Ctx, {Site.Arguments.front()->getBeginLoc(), Site.Arguments.back()->getEndLoc()});
      if (!R) {
        Reason = "the launch arguments cannot be read from the source";
        return std::nullopt;
      }
      Args = textOf(Ctx, *R);
    }
    std::optional<FileRange> CalleeRange =
        writtenRange(Ctx, Site.Call->getCallee()->getSourceRange());
    if (!CalleeRange) {
      Reason = "the launched kernel's name comes from a macro";
      return std::nullopt;
    }
    std::string Launch = textOf(Ctx, *CalleeRange) + "<<<" + Config + ">>>(" + Args + ");";
    std::string Serial = SerialCallee + "(" + Args + (Args.empty() ? "" : ", ") + GridVar +
                         ", " + BlockVar + ");";

    std::string Indent =
        indentationAt(SM.getBufferData(SM.getMainFileID()),
                      SM.getFileOffset(SM.getExpansionLoc(Site.Call->getBeginLoc())));
    std::string Out = "{ // launchopt: thresholded launch of '" + Site.ChildName + "'\n";
    for (const std::string &L : Lines)
      Out += Indent + "  " + L + "\n";
    Out += Indent + "  if (" + ThreadsVar + " >= LAUNCHOPT_THRESHOLD)\n";
    Out += Indent + "    " + Launch + "\n";
    Out += Indent + "  else\n";
    Out += Indent + "    " + Serial + "\n";
    Out += Indent + "}";
    Remark.Parameters["threads"] =
        Recovered.empty() ? "grid x block (no ceiling division found)" : llvm::join(Recovered, "; ");
    return Out;
  }

private:
  clang::ASTContext &Ctx;
  const LaunchSite &Site;
};

// The launch is replaced by a block, which is valid only where the launch is
// a statement of its own: not where its value is used (`(void)k<<<...>>>()`,
// `return k<<<...>>>()`), nor as a for-loop's init or increment.
bool isWholeStatement(clang::ASTContext &Ctx, const clang::CUDAKernelCallExpr &Call) {
  clang::DynTypedNode Node = clang::DynTypedNode::create(Call);
  const clang::Stmt *Child = &Call;
  while (true) {
    auto Parents = Ctx.getParents(Node);
    if (Parents.empty())
      return false;
    const clang::Stmt *Parent = Parents[0].get<clang::Stmt>();
    if (!Parent)
      return false;
    if (llvm::isa<clang::ExprWithCleanups>(Parent)) {
      Child = Parent;
      Node = Parents[0];
      continue;
    }
    if (llvm::isa<clang::CompoundStmt, clang::CaseStmt, clang::DefaultStmt, clang::LabelStmt>(
            Parent))
      return true;
    if (auto *If = llvm::dyn_cast<clang::IfStmt>(Parent))
      return If->getThen() == Child || If->getElse() == Child;
    if (auto *For = llvm::dyn_cast<clang::ForStmt>(Parent))
      return For->getBody() == Child;
    if (auto *While = llvm::dyn_cast<clang::WhileStmt>(Parent))
      return While->getBody() == Child;
    if (auto *Do = llvm::dyn_cast<clang::DoStmt>(Parent))
      return Do->getBody() == Child;
    if (auto *Range = llvm::dyn_cast<clang::CXXForRangeStmt>(Parent))
      return Range->getBody() == Child;
    return false;
  }
}

// The statement range to replace: the launch and its semicolon.
std::optional<FileRange> statementRange(const clang::ASTContext &Ctx, const LaunchSite &Site) {
  std::optional<FileRange> Call = writtenRange(Ctx, Site.Call->getSourceRange());
  if (!Call)
    return std::nullopt;
  llvm::StringRef Buffer =
      Ctx.getSourceManager().getBufferData(Ctx.getSourceManager().getMainFileID());
  size_t Semi = Call->End;
  while (Semi < Buffer.size() && (Buffer[Semi] == ' ' || Buffer[Semi] == '\t'))
    ++Semi;
  if (Semi >= Buffer.size() || Buffer[Semi] != ';')
    return std::nullopt;
  return FileRange{Call->Begin, static_cast<unsigned>(Semi + 1)};
}

unsigned outerBegin(const clang::ASTContext &Ctx, const clang::FunctionDecl &F) {
  const clang::Decl *D = &F;
  if (const clang::FunctionTemplateDecl *T = F.getDescribedFunctionTemplate())
    D = T;
  std::optional<FileRange> R = spelledRange(Ctx, D->getSourceRange());
  return R ? R->Begin : 0;
}

} // namespace

PassResult ThresholdPass::run(clang::ASTContext &Ctx, const LaunchAnalysis &Launches) const {
  PassResult Result;
  std::map<const clang::FunctionDecl *, SerialChildOrReason> Serials;
  std::set<std::pair<unsigned, const clang::FunctionDecl *>> Prototypes;
  bool AnyApplied = false;

  for (const LaunchSite &Site : Launches.Sites) {
    LaunchRemark Remark;
    Remark.LaunchId = Site.Id;
    Remark.Position = Site.Position;
    Remark.Pass = "threshold";
    Remark.Parent = Site.ParentName;
    Remark.Child = Site.ChildName;
    auto Skip = [&](const std::string &Why) {
      Remark.Message = Why;
      Result.Remarks.push_back(Remark);
    };
    if (!Site.DeviceSide) {
      Skip("host-side launch: thresholding applies to launches from device code");
      continue;
    }
    // A __host__ __device__ parent is compiled for the host too, where the
    // __device__ serial copy cannot be called.
    if (Site.Parent->hasAttr<clang::CUDAHostAttr>()) {
      Skip("the parent is a __host__ __device__ function; the serial copy is device-only");
      continue;
    }
    if (!Site.Child) {
      Skip(Site.UnresolvedReason);
      continue;
    }
    std::string Blocker = serializationBlocker(Launches.ChildFeatures.at(Site.Child));
    if (!Blocker.empty()) {
      Skip(Blocker);
      continue;
    }
    if (Site.StreamKind == LaunchStream::TailLaunch) {
      Skip("the child is tail-launched: it must run after the whole parent grid");
      continue;
    }
    if (!Options.AssumeIndependentChildren && mayOvertakeEarlierLaunch(Launches, Site)) {
      Skip(std::string("the parent thread launches other children into the same ") +
           "stream before this one (in a loop or earlier); a serialized child could run " +
           "before them (pass --assume-independent-children if they do not depend on " +
           "each other)");
      continue;
    }
    if (!isWholeStatement(Ctx, *Site.Call)) {
      Skip("the launch is not a statement of its own (its value is used, or it is a "
           "for-loop's init or increment)");
      continue;
    }
    // The serial copy has no default arguments: a default argument is written
    // for the kernel's declaration and need not mean the same at the launch.
    if (Site.Arguments.size() != Site.Call->getNumArgs()) {
      Skip("the launch relies on default arguments of the child");
      continue;
    }
    std::optional<FileRange> Statement = statementRange(Ctx, Site);
    if (!Statement) {
      Skip("the launch is written inside a macro expansion");
      continue;
    }
    auto It = Serials.find(Site.Child);
    if (It == Serials.end())
      It = Serials.emplace(Site.Child, buildSerialChild(Ctx, *Site.Child)).first;
    if (!It->second.Serial) {
      Skip(It->second.Reason);
      continue;
    }
    const SerialChild &Serial = *It->second.Serial;
    unsigned ParentBegin = outerBegin(Ctx, *Site.Parent);
    bool NeedsPrototype = ParentBegin < Serial.InsertOffset;
    if (NeedsPrototype &&
        Site.Parent->getDeclContext()->getRedeclContext() !=
            Site.Child->getDeclContext()->getRedeclContext()) {
      Skip("the child is defined after the parent, in another namespace");
      continue;
    }
    std::optional<std::string> Callee = serialCallee(Ctx, *Site.Call, Site.ChildName);
    if (!Callee) {
      Skip("the launched kernel's name comes from a macro");
      continue;
    }
    std::string Reason;
    std::optional<std::string> Replacement = SiteRewriter(Ctx, Site).build(Reason, Remark, *Callee);
    if (!Replacement) {
      Skip(Reason);
      continue;
    }
    Result.Edits.replace(Statement->Begin, Statement->End - Statement->Begin, *Replacement);
    if (NeedsPrototype && Prototypes.insert({ParentBegin, Site.Child}).second)
      Result.Edits.insert(ParentBegin, Serial.Prototype + "\n");
    Remark.Applied = true;
    Remark.Parameters["serial-function"] = Serial.SerialName;
    if (mayOvertakeEarlierLaunch(Launches, Site))
      Remark.Warnings.push_back("serialized although earlier launches from this thread go "
                                "into the same stream (--assume-independent-children)");
    Result.Remarks.push_back(Remark);
    AnyApplied = true;
  }

  // Serial copies are built last, from the child bodies as this pass edited
  // them: a child's own launches are thresholded in its serial copy too.
  std::vector<SourceEdit> LaunchEdits = Result.Edits.edits();
  for (const auto &[Child, Serial] : Serials) {
    bool Used = Serial.Serial && std::any_of(Result.Remarks.begin(), Result.Remarks.end(),
                                             [&](const LaunchRemark &R) {
                                               auto It = R.Parameters.find("serial-function");
                                               return R.Applied && It != R.Parameters.end() &&
                                                      It->second == Serial.Serial->SerialName;
                                             });
    if (!Used)
      continue;
    SerialChildOrReason Edited = buildSerialChild(Ctx, *Child, LaunchEdits);
    Result.Edits.insert(Serial.Serial->InsertOffset, Edited.Serial->Definitions);
  }

  if (AnyApplied)
    Result.Edits.insert(0, "// launchopt: a device-side launch runs when its child has at least\n"
                           "// LAUNCHOPT_THRESHOLD threads; smaller children run serially in the\n"
                           "// parent thread. Override with -DLAUNCHOPT_THRESHOLD=<threads>.\n"
                           "#ifndef LAUNCHOPT_THRESHOLD\n#define LAUNCHOPT_THRESHOLD " +
                               std::to_string(Options.DefaultThreshold) + "\n#endif\n\n");
  return Result;
}

} // namespace launchopt
