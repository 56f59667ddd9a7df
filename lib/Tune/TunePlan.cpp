#include "TunePlan.h"

#include "ShellCommands.h"
#include <sstream>

namespace launchopt {

std::string formatPlan(const TunePlan &Plan) {
  std::string Text = "# launchopt tune plan: the input, the space, and the transformed file of\n"
                     "# each granularity (relative to this folder). Read by --from.\n";
  Text += "input " + Plan.Input + "\n";
  Text += "thresholds " + formatList(Plan.Space.Thresholds) + "\n";
  Text += "cfactors " + formatList(Plan.Space.CoarsenFactors) + "\n";
  Text += "granularities " + formatList(Plan.Space.Granularities) + "\n";
  if (Plan.Space.AggThresholds != std::vector<unsigned>{DefaultAggThreshold})
    Text += "agg-thresholds " + formatList(Plan.Space.AggThresholds) + "\n";
  for (const std::string &G : Plan.Space.Granularities)
    if (Plan.Sources.count(G))
      Text += "source " + G + " " + Plan.Sources.at(G) + "\n";
  return Text;
}

bool parsePlan(const std::string &Text, TunePlan &Plan, std::string &Error) {
  std::stringstream Lines(Text);
  std::string Line;
  unsigned Number = 0;
  Plan = TunePlan();
  while (std::getline(Lines, Line)) {
    ++Number;
    if (Line.empty() || Line[0] == '#')
      continue;
    size_t Space = Line.find(' ');
    std::string Key = Line.substr(0, Space);
    std::string Value = Space == std::string::npos ? "" : Line.substr(Space + 1);
    bool Ok = true;
    if (Key == "input") {
      Plan.Input = Value;
    } else if (Key == "thresholds" || Key == "cfactors" || Key == "agg-thresholds") {
      auto Values = parseUnsignedList(Value);
      Ok = Values.has_value();
      if (Ok)
        (Key == "thresholds"   ? Plan.Space.Thresholds
         : Key == "cfactors"   ? Plan.Space.CoarsenFactors
                               : Plan.Space.AggThresholds) = *Values;
    } else if (Key == "granularities") {
      auto Names = parseNameList(Value);
      Ok = Names.has_value();
      if (Ok)
        Plan.Space.Granularities = *Names;
    } else if (Key == "source") {
      size_t Split = Value.find(' ');
      Ok = Split != std::string::npos && Split + 1 < Value.size();
      if (Ok)
        Plan.Sources[Value.substr(0, Split)] = Value.substr(Split + 1);
    } else {
      Ok = false;
    }
    if (!Ok) {
      Error = "line " + std::to_string(Number) + ": cannot read '" + Line + "'";
      return false;
    }
  }
  if (Plan.Sources.empty()) {
    Error = "no 'source <granularity> <file>' line";
    return false;
  }
  return true;
}

bool loadPlan(const std::string &Dir, TunePlan &Plan, std::string &Error) {
  std::string Path = Dir + "/plan.txt";
  if (!fileExists(Path)) {
    Error = "cannot read '" + Path + "' (write it with launchopt tune --transform-only)";
    return false;
  }
  if (!parsePlan(readFile(Path), Plan, Error)) {
    Error = Path + ": " + Error;
    return false;
  }
  return true;
}

} // namespace launchopt
