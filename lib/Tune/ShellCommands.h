#ifndef LAUNCHOPT_TUNE_SHELLCOMMANDS_H
#define LAUNCHOPT_TUNE_SHELLCOMMANDS_H

// What the tuner needs of the file system and of /bin/sh: paths, files, and
// commands run in parallel under a timeout, each with its output in a log.
// Plain C++17 and POSIX, like the rest of lib/Tune.

#include <map>
#include <string>
#include <vector>

namespace launchopt {

// Path itself when it is absolute or Dir is empty or "."; else Dir/Path.
std::string joinPath(const std::string &Dir, const std::string &Path);
// Creates Path and its missing parents; false when one cannot be created.
bool makeDirs(const std::string &Path);
bool fileExists(const std::string &Path);
// The file's text; empty when it cannot be read.
std::string readFile(const std::string &Path);
// The last Count lines of Text joined by '|', with commas and quotes blanked,
// for a note in a CSV row.
std::string lastLines(const std::string &Text, unsigned Count);

// How one shell command ended.
struct CommandStatus {
  int ExitCode = -1; // -1: did not start or was killed
  bool TimedOut = false;
};

// A command for /bin/sh -c and the file its output goes to.
struct PendingCommand {
  std::string Command, LogPath;
};

// Runs the commands, at most Jobs at a time, each in its own process group
// with its output in its log; a command still running after TimeoutSeconds
// (0: no limit) is killed with all it started.
std::vector<CommandStatus> runCommands(const std::vector<PendingCommand> &Commands, unsigned Jobs,
                                       double TimeoutSeconds);

// Replaces {name} with Values[name]; unknown {...} are left as written.
std::string expandPlaceholders(const std::string &Command,
                               const std::map<std::string, std::string> &Values);
// A path made safe for /bin/sh (single-quoted when it needs to be).
std::string shellQuote(const std::string &Text);

} // namespace launchopt

#endif
