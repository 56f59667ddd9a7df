// launchopt-dpgen: random dynamic-parallelism programs for differential tests
// of launchopt's passes, and a reducer for the failing ones. Links neither LLVM
// nor Clang, so it builds wherever a C++17 compiler does.

#include "Generator.h"
#include "Printer.h"
#include "Reducer.h"
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sys/wait.h>

namespace {

const char *Usage = R"(usage:
  launchopt-dpgen [--seed=S] [--count=N | --seeds=S1,S2,...] [-o FILE]
      programs S, S+1, ..., S+N-1 (defaults 1 and 1), or the listed ones, in one CUDA
      file, standard output without -o; the binary runs programs FIRST..LAST (indices in
      the file, arguments; default all) and prints one line per program:
      `program I seed S checksum H launch_errors E`
  launchopt-dpgen --stats [--seed=S] [--count=N]
      per program: kernels, statements by kind, launch sites by stream, launch bound
  launchopt-dpgen --reduce --seed=S --test=CMD [--jobs=N] -o FILE
      removes kernels, callees, statements and launch sites of program S while
      `CMD <candidate.cu>` exits 0 (the failure is still there); writes the smallest to FILE
      (and each smaller one as it is found, so a reduction cut short keeps its progress);
      runs up to N tests at once (default 1), each on its own candidate file, and
      reduces to the same program whatever N is
)";

int fail(int Code, const std::string &Message) {
  std::cerr << "launchopt-dpgen: error: " << Message << "\n";
  return Code;
}

/// Whole or not at all: a reader (or a reduction stopped mid-write) never
/// sees half a file.
bool writeFile(const std::string &Path, const std::string &Text) {
  std::string Temporary = Path + ".partial";
  {
    std::ofstream Out(Temporary, std::ios::binary);
    Out << Text;
    if (!Out.flush())
      return false;
  }
  return std::rename(Temporary.c_str(), Path.c_str()) == 0;
}

std::string shellQuote(const std::string &Text) {
  std::string Quoted = "'";
  for (char C : Text)
    Quoted += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Quoted + "'";
}

void countStatements(const std::vector<dpgen::Stmt> &Body,
                     std::map<std::string, unsigned> &Counts) {
  static const char *Kinds[] = {"atomic", "warp-reduce",   "warp-broadcast", "shared-exchange",
                                "launch", "buffer-launch", "branch",         "loop"};
  static const char *Streams[] = {"default", "null",       "fire-and-forget",
                                  "tail",    "per-thread", "created"};
  for (const dpgen::Stmt &S : Body) {
    ++Counts[Kinds[S.What]];
    if (S.What == dpgen::Stmt::Launch || S.What == dpgen::Stmt::BufferLaunch)
      ++Counts[std::string("stream-") + Streams[static_cast<int>(S.Stream)]];
    countStatements(S.Body, Counts);
  }
}

void printStats(const dpgen::Program &P) {
  std::map<std::string, unsigned> Counts;
  for (const dpgen::Kernel &K : P.Kernels) {
    countStatements(K.Body, Counts);
    Counts["template-kernel"] += K.IsTemplate;
    Counts["recursive-kernel"] += K.Recursive;
    Counts["bounded-kernel"] += K.Bounded;
    Counts["buffer-kernel"] += K.WritesBuffer;
  }
  std::cout << "seed " << P.Seed << " kernels " << P.Kernels.size() << " callees "
            << P.Callees.size() << " launch_bound " << P.LaunchBound;
  for (const auto &[Name, Count] : Counts)
    std::cout << " " << Name << " " << Count;
  std::cout << "\n";
}

} // namespace

int main(int Argc, char **Argv) {
  uint64_t Seed = 1;
  unsigned Count = 1, Jobs = 1;
  std::string Output, Test;
  std::vector<uint64_t> Seeds;
  bool Reduce = false, Stats = false;
  for (int I = 1; I < Argc; ++I) {
    std::string Arg = Argv[I];
    auto Value = [&](const std::string &Flag) { return Arg.substr(Flag.size()); };
    if (Arg == "--help" || Arg == "-h") {
      std::cout << Usage;
      return 0;
    }
    if (Arg.rfind("--seed=", 0) == 0) {
      Seed = std::strtoull(Value("--seed=").c_str(), nullptr, 10);
    } else if (Arg.rfind("--count=", 0) == 0) {
      Count = static_cast<unsigned>(std::strtoul(Value("--count=").c_str(), nullptr, 10));
    } else if (Arg.rfind("--seeds=", 0) == 0) {
      std::string List = Value("--seeds=");
      for (size_t Start = 0; Start < List.size();) {
        size_t End = List.find(',', Start);
        End = End == std::string::npos ? List.size() : End;
        Seeds.push_back(std::strtoull(List.substr(Start, End - Start).c_str(), nullptr, 10));
        Start = End + 1;
      }
    } else if (Arg.rfind("--jobs=", 0) == 0) {
      Jobs = static_cast<unsigned>(std::strtoul(Value("--jobs=").c_str(), nullptr, 10));
    } else if (Arg.rfind("--test=", 0) == 0) {
      Test = Value("--test=");
    } else if (Arg == "-o" && I + 1 < Argc) {
      Output = Argv[++I];
    } else if (Arg == "--reduce") {
      Reduce = true;
    } else if (Arg == "--stats") {
      Stats = true;
    } else {
      return fail(2, "unknown argument '" + Arg + "'\n" + Usage);
    }
  }
  if (Count == 0)
    return fail(2, "--count must be at least 1");
  if (Jobs == 0)
    return fail(2, "--jobs must be at least 1");

  if (Reduce) {
    if (Test.empty() || Output.empty())
      return fail(2, "--reduce needs --test=CMD and -o FILE");
    auto Candidate = [&](unsigned Slot) {
      return Output + ".candidate" + (Slot ? "." + std::to_string(Slot) : "") + ".cu";
    };
    auto StillFails = [&](const std::string &Source, unsigned Slot) {
      if (!writeFile(Candidate(Slot), Source))
        return false;
      int Status = std::system((Test + " " + shellQuote(Candidate(Slot))).c_str());
      return Status != -1 && WIFEXITED(Status) && WEXITSTATUS(Status) == 0;
    };
    dpgen::Program P = dpgen::generateProgram(Seed);
    if (!StillFails(dpgen::printFile({P}), 0))
      return fail(1,
                  "program " + std::to_string(Seed) + " does not fail the test: nothing to reduce");
    // The smallest so far is written as it is found, so that a reduction
    // stopped early (a time limit) still leaves its progress in FILE.
    dpgen::Reduction R = dpgen::reduceProgram(P, StillFails, Jobs, [&](const std::string &Smaller) {
      if (!writeFile(Output, Smaller))
        std::cerr << "launchopt-dpgen: cannot write '" << Output << "'\n";
    });
    for (unsigned Slot = 0; Slot < Jobs; ++Slot)
      std::remove(Candidate(Slot).c_str());
    if (!writeFile(Output, R.Source))
      return fail(1, "cannot write '" + Output + "'");
    std::cerr << "launchopt-dpgen: program " << Seed << ": removed " << R.Removed.size() << " of "
              << R.Items << " items in " << R.Tests << " tests: " << Output << "\n";
    return 0;
  }

  std::vector<dpgen::Program> Programs;
  if (Seeds.empty())
    for (unsigned I = 0; I < Count; ++I)
      Seeds.push_back(Seed + I);
  for (uint64_t Each : Seeds)
    Programs.push_back(dpgen::generateProgram(Each));
  if (Stats) {
    for (const dpgen::Program &P : Programs)
      printStats(P);
    return 0;
  }
  std::string Text = dpgen::printFile(Programs);
  if (Output.empty()) {
    std::cout << Text;
    return 0;
  }
  if (!writeFile(Output, Text))
    return fail(1, "cannot write '" + Output + "'");
  return 0;
}
