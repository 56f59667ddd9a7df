#include "TunePlan.h"

#include "ShellCommands.h"
#include "TuneParameters.h"
#include <sstream>

namespace launchopt {

std::string formatPlan(const TunePlan &Plan) {
  const TuneVariantParameter &Variant = tuneVariant();
  std::string Text = "# launchopt tune plan: the input, the space, and the transformed file of\n"
                     "# each " +
                     Variant.Noun + " (relative to this folder). Read by --from.\n";
  Text += "input " + Plan.Input + "\n";
  // A macro not shown at its default is left out at its default list.
  for (int Slot : parameterOrder()) {
    if (Slot == VariantSlot) {
      Text += Variant.List + " " + formatList(Plan.Space.Variants) + "\n";
      continue;
    }
    const TuneMacroParameter &Macro = tuneMacros()[Slot];
    if (static_cast<size_t>(Slot) < Plan.Space.Values.size() &&
        (Macro.ShownAtDefault || Plan.Space.Values[Slot] != std::vector<unsigned>{Macro.Start}))
      Text += Macro.List + " " + formatList(Plan.Space.Values[Slot]) + "\n";
  }
  for (const std::string &V : Plan.Space.Variants)
    if (Plan.Sources.count(V))
      Text += "source " + V + " " + Plan.Sources.at(V) + "\n";
  if (Plan.Start) {
    Text += "start " + Plan.Start->Variant;
    for (unsigned Value : Plan.Start->Values)
      Text += " " + std::to_string(Value);
    Text += "\n";
  }
  return Text;
}

OrError<TunePlan> parsePlan(const std::string &Text) {
  std::stringstream Lines(Text);
  std::string Line;
  unsigned Number = 0;
  TunePlan Plan;
  std::map<std::string, std::string> Lists;
  auto IsList = [](const std::string &Key) {
    if (Key == tuneVariant().List)
      return true;
    for (const TuneMacroParameter &M : tuneMacros())
      if (Key == M.List)
        return true;
    return false;
  };
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
    } else if (IsList(Key)) {
      Ok = Key == tuneVariant().List ? parseNameList(Value).has_value()
                                     : parseUnsignedList(Value).has_value();
      Lists[Key] = Value;
    } else if (Key == "start") {
      std::stringstream Words(Value);
      TuneConfig Start;
      std::string Number;
      Ok = static_cast<bool>(Words >> Start.Variant);
      while (Ok && Words >> Number) {
        std::optional<std::vector<unsigned>> One = parseUnsignedList(Number);
        Ok = One && One->size() == 1;
        if (Ok)
          Start.Values.push_back(One->front());
      }
      Ok = Ok && Start.Values.size() == tuneMacros().size();
      if (Ok)
        Plan.Start = Start;
    } else if (Key == "source") {
      size_t Split = Value.find(' ');
      Ok = Split != std::string::npos && Split + 1 < Value.size();
      if (Ok)
        Plan.Sources[Value.substr(0, Split)] = Value.substr(Split + 1);
    } else {
      Ok = false;
    }
    if (!Ok)
      return TuneError{"line " + std::to_string(Number) + ": cannot read '" + Line + "'"};
  }
  // A list the plan leaves out is the registry's default; a variant a
  // plan names but the grammar rejects makes the plan unreadable.
  OrError<TuneSpace> Space = parseTuneSpace(Lists);
  if (!Space)
    return TuneError{Space.error()};
  Plan.Space = *Space;
  if (Plan.Sources.empty())
    return TuneError{"no 'source <" + tuneVariant().Noun + "> <file>' line"};
  return Plan;
}

OrError<TunePlan> loadPlan(const std::string &Dir) {
  std::string Path = Dir + "/plan.txt";
  if (!fileExists(Path))
    return TuneError{"cannot read '" + Path + "' (write it with launchopt tune --transform-only)"};
  OrError<TunePlan> Plan = parsePlan(readFile(Path));
  if (!Plan)
    return TuneError{Path + ": " + Plan.error()};
  return Plan;
}

} // namespace launchopt
