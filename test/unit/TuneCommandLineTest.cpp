#include "Tune/TuneCommandLine.h"
#include <gtest/gtest.h>

namespace launchopt {
namespace {

const std::vector<std::string> Commands = {"--build", "nvcc {src} {defines} -o {exe}", "--run",
                                           "{exe}"};

std::vector<std::string> with(std::vector<std::string> Args) {
  Args.insert(Args.end(), Commands.begin(), Commands.end());
  return Args;
}

TEST(TuneCommandLine, BothToolsReadTheSameOptions) {
  for (TuneTool Tool : {TuneTool::Launchopt, TuneTool::RunHalf}) {
    OrError<TuneCommandLine> Line = parseTuneCommandLine(
        with({"--from", "dir", "--thresholds=32,64", "--jobs", "3", "--no-exhaustive"}), Tool);
    ASSERT_TRUE(Line) << Line.error();
    EXPECT_EQ(Line->From, "dir");
    EXPECT_EQ(Line->Lists.at("thresholds"), "32,64");
    EXPECT_EQ(Line->Session.Jobs, 3u);
    EXPECT_FALSE(Line->Session.Exhaustive);
  }
}

TEST(TuneCommandLine, TheRunHalfTakesNoInputAndNeedsFrom) {
  EXPECT_NE(parseTuneCommandLine(with({"app.cu"}), TuneTool::RunHalf).error().find("unexpected"),
            std::string::npos);
  EXPECT_NE(parseTuneCommandLine(with({}), TuneTool::RunHalf).error().find("--from DIR"),
            std::string::npos);
  EXPECT_NE(parseTuneCommandLine(with({"--from", "d", "--cuda-path", "/x"}), TuneTool::RunHalf)
                .error()
                .find("unknown argument '--cuda-path'"),
            std::string::npos);
  OrError<TuneCommandLine> Line =
      parseTuneCommandLine(with({"app.cu", "--cuda-path", "/x"}), TuneTool::Launchopt);
  ASSERT_TRUE(Line) << Line.error();
  EXPECT_EQ(Line->Input, "app.cu");
}

TEST(TuneCommandLine, UsageErrors) {
  auto Error = [](std::vector<std::string> Args) {
    return parseTuneCommandLine(with(Args), TuneTool::Launchopt).error();
  };
  EXPECT_NE(Error({"a.cu", "--jobs", "0"}).find("--jobs must be at least 1"), std::string::npos);
  EXPECT_NE(Error({"a.cu", "--jobs", "x"}).find("--jobs takes a number"), std::string::npos);
  EXPECT_NE(Error({"a.cu", "--no-build=1"}).find("takes no value"), std::string::npos);
  EXPECT_NE(parseTuneCommandLine({"a.cu", "--guided-runs"}, TuneTool::Launchopt)
                .error()
                .find("--guided-runs needs a value"),
            std::string::npos);
  EXPECT_NE(Error({"a.cu", "--from", "d"}).find("exactly one"), std::string::npos);
  EXPECT_NE(Error({"a.cu", "--bogus"}).find("unknown argument '--bogus'"), std::string::npos);
}

TEST(TuneCommandLine, HelpListsEveryTunableOfTheRegistry) {
  std::string Help = tuneHelp(TuneTool::RunHalf);
  for (const std::string &List :
       {"--thresholds", "--cfactors", "--granularities", "--agg-thresholds"})
    EXPECT_NE(Help.find(List + "=<list>"), std::string::npos) << List;
  EXPECT_EQ(Help.find("\n  --transform-only"), std::string::npos);
  EXPECT_NE(tuneHelp(TuneTool::Launchopt).find("\n  --transform-only"), std::string::npos);
  OrError<TuneCommandLine> Line = parseTuneCommandLine({"--help"}, TuneTool::RunHalf);
  ASSERT_TRUE(Line);
  EXPECT_TRUE(Line->Help);
}

TEST(TuneCommandLine, ListsGivenNarrowThePlans) {
  TunePlan Plan;
  Plan.Space = *parseTuneSpace({{"thresholds", "32,256"}, {"granularities", "block,grid"}});
  OrError<TuneCommandLine> Line =
      parseTuneCommandLine(with({"--from", "d", "--granularities", "grid"}), TuneTool::RunHalf);
  ASSERT_TRUE(Line);
  OrError<TuneSpace> Space = resolveTuneSpace(*Line, &Plan);
  ASSERT_TRUE(Space) << Space.error();
  EXPECT_EQ(Space->Variants, std::vector<std::string>{"grid"});
  EXPECT_EQ(Space->Values[0], (std::vector<unsigned>{32, 256}));
}

} // namespace
} // namespace launchopt
