#include "Tune/ShellCommands.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <string>
#include <unistd.h>

using namespace launchopt;

namespace {

// A fresh folder under the system's temporary directory.
std::string temporaryFolder() {
  std::string Template = (std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp");
  Template += "/launchopt-shell-XXXXXX";
  return mkdtemp(Template.data()) ? Template : "";
}

} // namespace

TEST(ShellCommands, JoinPathKeepsAbsolutePaths) {
  EXPECT_EQ(joinPath("plan", "a.cu"), "plan/a.cu");
  EXPECT_EQ(joinPath("plan", "/abs/a.cu"), "/abs/a.cu");
  EXPECT_EQ(joinPath(".", "a.cu"), "a.cu");
  EXPECT_EQ(joinPath("", "a.cu"), "a.cu");
}

TEST(ShellCommands, Placeholders) {
  EXPECT_EQ(expandPlaceholders("nvcc {defines} {src} -o {exe} {other}",
                               {{"src", "a.cu"}, {"exe", "a"}, {"defines", "-DX=1"}}),
            "nvcc -DX=1 a.cu -o a {other}");
  EXPECT_EQ(expandPlaceholders("awk '{print $1}' {exe", {{"exe", "e"}}), "awk '{print $1}' {exe");
  EXPECT_EQ(shellQuote("dir/a.cu"), "dir/a.cu");
  EXPECT_EQ(shellQuote("my dir/it's"), "'my dir/it'\\''s'");
}

TEST(ShellCommands, LastLinesFitOneCsvField) {
  EXPECT_EQ(lastLines("one\ntwo, \"three\"\nfour\n\n", 2), "two   three |four");
  EXPECT_EQ(lastLines("\n\n", 2), "");
}

TEST(ShellCommands, MakeDirsCreatesParents) {
  std::string Dir = temporaryFolder();
  ASSERT_FALSE(Dir.empty());
  EXPECT_TRUE(makeDirs(Dir + "/a/b/c"));
  EXPECT_TRUE(fileExists(Dir + "/a/b/c"));
  EXPECT_TRUE(makeDirs(Dir + "/a/b/c")); // already there
}

TEST(ShellCommands, RunCommandsReportsExitCodesAndLogs) {
  std::string Dir = temporaryFolder();
  ASSERT_FALSE(Dir.empty());
  std::vector<CommandStatus> Status = runCommands(
      {{"echo built; exit 0", Dir + "/ok.log"}, {"echo broken >&2; exit 3", Dir + "/bad.log"}}, 2,
      0);
  ASSERT_EQ(Status.size(), 2u);
  EXPECT_EQ(Status[0].ExitCode, 0);
  EXPECT_EQ(Status[1].ExitCode, 3);
  EXPECT_FALSE(Status[1].TimedOut);
  EXPECT_EQ(readFile(Dir + "/ok.log"), "built\n");
  EXPECT_EQ(readFile(Dir + "/bad.log"), "broken\n");
}

TEST(ShellCommands, RunCommandsKillsWhatOutlivesTheTimeout) {
  std::string Dir = temporaryFolder();
  ASSERT_FALSE(Dir.empty());
  // The shell's child must go too: the whole process group is killed.
  std::vector<CommandStatus> Status = runCommands({{"sleep 30 & wait", Dir + "/slow.log"}}, 1, 0.3);
  ASSERT_EQ(Status.size(), 1u);
  EXPECT_TRUE(Status[0].TimedOut);
  EXPECT_EQ(Status[0].ExitCode, -1);
}
