// Child processes for end-to-end tests: started with arguments and environment, output
// captured to files, stopped by their own PID (SIGTERM, then SIGKILL), never by name.
#pragma once

#include "testing/eventually.h"
#include "testing/temp_dir.h"

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace capstan::e2e {

class Process {
 public:
  struct Options {
    std::vector<std::string> args;               // args[0] is the program path
    std::map<std::string, std::string> env;      // added to (overriding) the current environment
    std::string stdout_path;                     // default: a temp file
    std::string stderr_path;
    std::string stdin_text;                      // written to the child's stdin, then closed
    bool interactive_stdin = false;              // keep stdin open for write_stdin()
    std::string cwd;
  };
  explicit Process(Options o);
  ~Process();  // stops the child if still running
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  int pid() const { return pid_; }
  bool running();
  // Waits for exit; returns the exit code (128+signal when killed) or nullopt on timeout.
  std::optional<int> wait(std::chrono::milliseconds timeout);
  // SIGTERM, wait up to `grace`, then SIGKILL. Returns the exit code.
  int stop(std::chrono::milliseconds grace = std::chrono::seconds(10));
  void kill_now();  // SIGKILL
  void signal(int sig);
  void write_stdin(const std::string& text);
  void close_stdin();
  std::string out() const;  // captured stdout so far
  std::string err() const;  // captured stderr so far

 private:
  Options opts_;
  int pid_ = -1;
  int stdin_fd_ = -1;
  std::optional<int> exit_;
};

struct RunResult {
  int code = -1;
  std::string out;
  std::string err;
  bool timed_out = false;
};

// Runs a program to completion (bounded by `timeout`).
RunResult run(const std::vector<std::string>& args, const std::map<std::string, std::string>& env = {},
              const std::string& stdin_text = {}, std::chrono::milliseconds timeout = std::chrono::seconds(60));

std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& text);

}  // namespace capstan::e2e
