#include "ShellCommands.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <fcntl.h>
#include <fstream>
#include <signal.h>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace launchopt {

std::string joinPath(const std::string &Dir, const std::string &Path) {
  if (Path.empty() || Path[0] == '/' || Dir.empty() || Dir == ".")
    return Path;
  return Dir + "/" + Path;
}

bool makeDirs(const std::string &Path) {
  std::string Prefix;
  std::stringstream Parts(Path);
  std::string Part;
  if (!Path.empty() && Path[0] == '/')
    Prefix = "/";
  while (std::getline(Parts, Part, '/')) {
    if (Part.empty())
      continue;
    Prefix += Part + "/";
    if (mkdir(Prefix.c_str(), 0777) != 0 && errno != EEXIST)
      return false;
  }
  return true;
}

bool fileExists(const std::string &Path) {
  struct stat S;
  return stat(Path.c_str(), &S) == 0;
}

std::string readFile(const std::string &Path) {
  std::ifstream In(Path);
  std::stringstream Text;
  Text << In.rdbuf();
  return Text.str();
}

std::string lastLines(const std::string &Text, unsigned Count) {
  size_t End = Text.find_last_not_of("\n");
  if (End == std::string::npos)
    return "";
  size_t Start = End + 1;
  for (unsigned I = 0; I < Count && Start > 0; ++I) {
    size_t NewLine = Text.rfind('\n', Start - 1);
    Start = NewLine == std::string::npos ? 0 : NewLine;
  }
  std::string Tail = Text.substr(Start, End + 1 - Start);
  for (char &Ch : Tail)
    if (Ch == '\n' || Ch == ',' || Ch == '"')
      Ch = Ch == '\n' ? '|' : ' ';
  return Tail.substr(Tail.find_first_not_of("| "));
}

namespace {

pid_t startCommand(const PendingCommand &C) {
  pid_t Pid = fork();
  if (Pid != 0)
    return Pid;
  // Its own process group, so a timeout ends whatever the shell started.
  setpgid(0, 0);
  int Log = open(C.LogPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (Log >= 0) {
    dup2(Log, 1);
    dup2(Log, 2);
    close(Log);
  }
  int Null = open("/dev/null", O_RDONLY);
  if (Null >= 0)
    dup2(Null, 0);
  execl("/bin/sh", "sh", "-c", C.Command.c_str(), static_cast<char *>(nullptr));
  _exit(127);
}

} // namespace

std::vector<CommandStatus> runCommands(const std::vector<PendingCommand> &Commands, unsigned Jobs,
                                       double TimeoutSeconds) {
  using Clock = std::chrono::steady_clock;
  std::vector<CommandStatus> Status(Commands.size());
  struct Running {
    pid_t Pid;
    size_t Index;
    Clock::time_point Start;
  };
  std::vector<Running> Active;
  size_t Next = 0;
  while (Next < Commands.size() || !Active.empty()) {
    while (Next < Commands.size() && Active.size() < std::max(1u, Jobs)) {
      pid_t Pid = startCommand(Commands[Next]);
      if (Pid < 0)
        Status[Next].ExitCode = -1;
      else
        Active.push_back({Pid, Next, Clock::now()});
      ++Next;
    }
    bool Reaped = false;
    for (size_t I = 0; I < Active.size();) {
      int WaitStatus = 0;
      pid_t Done = waitpid(Active[I].Pid, &WaitStatus, WNOHANG);
      CommandStatus &S = Status[Active[I].Index];
      if (Done == Active[I].Pid) {
        S.ExitCode = WIFEXITED(WaitStatus) ? WEXITSTATUS(WaitStatus) : -1;
      } else if (TimeoutSeconds > 0 &&
                 std::chrono::duration<double>(Clock::now() - Active[I].Start).count() >
                     TimeoutSeconds) {
        kill(-Active[I].Pid, SIGKILL);
        waitpid(Active[I].Pid, &WaitStatus, 0);
        S.ExitCode = -1;
        S.TimedOut = true;
      } else {
        ++I;
        continue;
      }
      Active.erase(Active.begin() + static_cast<long>(I));
      Reaped = true;
    }
    if (!Reaped && !Active.empty())
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return Status;
}

std::string expandPlaceholders(const std::string &Command,
                               const std::map<std::string, std::string> &Values) {
  std::string Result;
  size_t Cursor = 0;
  while (Cursor < Command.size()) {
    size_t Open = Command.find('{', Cursor);
    size_t Close = Open == std::string::npos ? Open : Command.find('}', Open);
    if (Close == std::string::npos) {
      Result += Command.substr(Cursor);
      break;
    }
    auto It = Values.find(Command.substr(Open + 1, Close - Open - 1));
    Result += Command.substr(Cursor, Open - Cursor);
    if (It == Values.end()) {
      Result += '{';
      Cursor = Open + 1;
    } else {
      Result += It->second;
      Cursor = Close + 1;
    }
  }
  return Result;
}

std::string shellQuote(const std::string &Text) {
  static const std::string Safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                  "0123456789_-./:=+,@%";
  if (!Text.empty() && Text.find_first_not_of(Safe) == std::string::npos)
    return Text;
  std::string Quoted = "'";
  for (char Ch : Text)
    Quoted += Ch == '\'' ? std::string("'\\''") : std::string(1, Ch);
  return Quoted + "'";
}

} // namespace launchopt
