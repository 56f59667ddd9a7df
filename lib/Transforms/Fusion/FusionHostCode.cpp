#include "FusionHostCode.h"

#include "Support/GeneratedNames.h"
#include "clang/AST/ASTContext.h"
#include <cstring>
#include <functional>
#include <map>
#include <set>

namespace launchopt {

using namespace clang;

// The launch statement as written, with the arguments that get a renamed
// buffer replaced.
std::string launchText(const ASTContext &Ctx, const ExtractedLaunch &L,
                       const std::map<unsigned, std::string> *Buffers) {
  if (!Buffers || Buffers->empty())
    return L.StatementText;
  std::string Out;
  unsigned At = L.Statement.Begin;
  for (const auto &[Argument, Buffer] : *Buffers) {
    std::optional<FileRange> R = spelledRange(Ctx, L.Site->Arguments[Argument]->getSourceRange());
    Out += textOf(Ctx, FileRange{At, R->Begin}) + Buffer;
    At = R->End;
  }
  return Out + textOf(Ctx, FileRange{At, L.Statement.End});
}

// Event timing around every new launch, compiled in with
// -DLAUNCHOPT_FUSION_TIMING: the definitions the launches need, placed
// before the host function, and the launches wrapped.
std::string addTimingHooks(const std::vector<std::string> &Names,
                           std::vector<std::string> &Launch) {
  const std::string Prefix = generated::FusionTiming;
  const std::string Kernels = Prefix + "names", Events = Prefix + "events", Ms = Prefix + "ms";
  const std::string Begin = Prefix + "begin", End = Prefix + "end";
  std::string Count = std::to_string(Names.size());
  std::string Timing = "#ifdef LAUNCHOPT_FUSION_TIMING\n#include <cstdio>\n";
  Timing += "static const char *const " + Kernels + "[] = {";
  for (const std::string &Name : Names)
    Timing += "\"" + Name + "\", ";
  Timing += "};\n";
  Timing += "static cudaEvent_t " + Events + "[2 * " + Count + "];\n";
  Timing += "static double " + Ms + "[" + Count + "];\n";
  Timing += "static void " + Begin + "(int I) {\n";
  Timing += "  if (!" + Events + "[0])\n";
  Timing += "    for (cudaEvent_t &E : " + Events + ")\n";
  Timing += "      cudaEventCreate(&E);\n";
  Timing += "  cudaEventRecord(" + Events + "[2 * I]);\n}\n";
  Timing += "static void " + End + "(int I) {\n";
  Timing += "  float Ms = 0;\n";
  Timing += "  cudaEventRecord(" + Events + "[2 * I + 1]);\n";
  Timing += "  cudaEventSynchronize(" + Events + "[2 * I + 1]);\n";
  Timing += "  cudaEventElapsedTime(&Ms, " + Events + "[2 * I], " + Events + "[2 * I + 1]);\n";
  Timing += "  " + Ms + "[I] += Ms;\n}\n";
  Timing += "static void " + std::string(generated::FusionTimingReport) + "(int Runs) {\n";
  Timing += "  for (int I = 0; I < " + Count + "; ++I)\n";
  Timing +=
      "    printf(\"launch %d %s: %.4f ms\\n\", I, " + Kernels + "[I], " + Ms + "[I] / Runs);\n}\n";
  Timing += "#else\n#define " + Begin + "(I)\n#define " + End + "(I)\n#endif\n\n";
  for (unsigned F = 0; F < Launch.size(); ++F)
    Launch[F] = Begin + "(" + std::to_string(F) + ");\n  " + Launch[F] + "\n  " + End + "(" +
                std::to_string(F) + ");";
  return Timing;
}

namespace {

// The renamed buffers of one segment around its new launches (paper §II-B1
// c): each version but the last gets a copy of the user's allocation, and the
// original launches run when a buffer cannot be had.
std::string renamedSequence(const FusionProblem &P, const SegmentRenaming &S,
                            const std::string &Launches, const std::string &Original,
                            unsigned Segment) {
  unsigned Buffers = 0;
  for (const SegmentRenaming::Array &A : S.Arrays)
    Buffers += A.LastVersion - A.FirstVersion;
  std::string Set = generated::RenamedBufferSet + std::to_string(Segment);
  std::string Out = "{\n    // launchopt fuse: renamed buffers of expandable arrays.\n"
                    "    launchopt::RenamedArrays<" +
                    std::to_string(Buffers) + "> " + Set + "(" + S.Stream + ");\n";
  for (const SegmentRenaming::Array &A : S.Arrays)
    for (unsigned V = A.FirstVersion; V < A.LastVersion; ++V)
      Out += "    auto *const " + renamedBufferName(P.Arrays[A.Allocation].Name, V) + " = " + Set +
             ".rename(" + A.User + ");\n";
  // The launches move two levels in.
  auto Indent = [](const std::string &Text) {
    std::string Out;
    for (char C : Text)
      Out += C == '\n' ? std::string("\n    ") : std::string(1, C);
    return Out;
  };
  Out += "    if (" + Set + ".ok()) {\n      " + Indent(Launches) + "\n";
  Out += "    } else {\n      " + Indent(Original) + "\n    }\n  }";
  return Out;
}

} // namespace

void replaceLaunchSequence(ASTContext &Ctx, const FusionExtraction &X, const FusionPlan &Plan,
                           const FusionCodegenOptions &Options,
                           const std::vector<std::string> &Launch, SourceEdits &Edits) {
  const FusionProblem &P = X.Problem;
  std::map<unsigned, std::string> SegmentText;
  for (unsigned F = 0; F < Plan.NewKernels.size(); ++F) {
    std::string &S = SegmentText[P.Kernels[Plan.NewKernels[F].Members.front()].Segment];
    S += (S.empty() ? "" : "\n  ") + Launch[F];
  }
  if (Options.Renaming)
    for (const auto &[Segment, Renaming] : Options.Renaming->Segments) {
      std::string Original;
      for (unsigned K = 0; K < X.Launches.size(); ++K)
        if (P.Kernels[K].Segment == Segment)
          Original += (Original.empty() ? "" : "\n  ") + X.Launches[K].StatementText;
      SegmentText[Segment] = renamedSequence(P, Renaming, SegmentText[Segment], Original, Segment);
    }
  // A wrapper call holds all its launches, possibly of several segments:
  // statements and segments that share launches are rewritten together, and
  // such a group with launches from a wrapper only when something in it is
  // fused or renamed (the call is kept as written otherwise).
  std::map<unsigned, unsigned> GroupOf; // segment -> group
  std::function<unsigned(unsigned)> Find = [&](unsigned S) {
    auto [It, Fresh] = GroupOf.try_emplace(S, S);
    return It->second == S ? S : It->second = Find(It->second);
  };
  std::map<unsigned, unsigned> FirstSegmentAt; // statement begin -> segment
  for (unsigned K = 0; K < X.Launches.size(); ++K) {
    auto [It, Fresh] =
        FirstSegmentAt.try_emplace(X.Launches[K].Statement.Begin, P.Kernels[K].Segment);
    GroupOf[Find(P.Kernels[K].Segment)] = Find(It->second);
  }
  std::set<unsigned> Inlined, Changed; // groups
  for (unsigned K = 0; K < X.Launches.size(); ++K)
    if (!X.Launches[K].Wrapper.empty())
      Inlined.insert(Find(P.Kernels[K].Segment));
  for (const NewKernelProjection &N : Plan.NewKernels)
    if (N.Members.size() > 1)
      Changed.insert(Find(P.Kernels[N.Members.front()].Segment));
  if (Options.Renaming)
    for (const auto &[Segment, Renaming] : Options.Renaming->Segments)
      Changed.insert(Find(Segment));

  std::set<unsigned> Placed, Edited;
  std::map<unsigned, std::string> StatementText; // statement begin -> new text
  std::vector<unsigned> Order;                   // statement begins, first seen first
  for (unsigned K = 0; K < X.Launches.size(); ++K) {
    unsigned Segment = P.Kernels[K].Segment, Group = Find(Segment);
    if (Inlined.count(Group) && !Changed.count(Group))
      continue;
    const FileRange &R = X.Launches[K].Statement;
    if (Edited.insert(R.Begin).second)
      Order.push_back(K);
    if (Placed.insert(Segment).second) {
      std::string &S = StatementText[R.Begin];
      S += (S.empty() ? "" : "\n  ") + SegmentText[Segment];
    }
  }
  for (unsigned K : Order) {
    const FileRange &R = X.Launches[K].Statement;
    if (!StatementText[R.Begin].empty()) {
      Edits.replace(R.Begin, R.End - R.Begin, StatementText[R.Begin]);
      continue;
    }
    // A removed launch takes its line with it.
    llvm::StringRef Text =
        Ctx.getSourceManager().getBufferData(Ctx.getSourceManager().getMainFileID());
    unsigned Begin = R.Begin, End = R.End;
    while (Begin > 0 && (Text[Begin - 1] == ' ' || Text[Begin - 1] == '\t'))
      --Begin;
    if (End < Text.size() && Text[End] == '\n')
      ++End;
    Edits.replace(Begin, End - Begin, "");
  }
}

std::vector<LaunchRemark> fusionRemarks(const FusionExtraction &X,
                                        const std::vector<std::string> &Message,
                                        const FusionCodegenOptions &Options) {
  std::vector<LaunchRemark> Remarks;
  for (unsigned K = 0; K < X.Launches.size(); ++K) {
    const LaunchSite &S = *X.Launches[K].Site;
    LaunchRemark R = remarkFor(S, "fuse");
    R.Applied = Message[K].rfind("fused into", 0) == 0;
    if (R.Applied)
      R.Parameters["new kernel"] = Message[K].substr(strlen("fused into "));
    else
      R.Message = Message[K];
    Remarks.push_back(R);
  }
  if (Options.Renaming)
    Remarks.insert(Remarks.end(), Options.Renaming->Remarks.begin(),
                   Options.Renaming->Remarks.end());
  Remarks.insert(Remarks.end(), X.Remarks.begin(), X.Remarks.end());
  return Remarks;
}

} // namespace launchopt
