#include "testing/process.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace capstan::e2e {
namespace fs = std::filesystem;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << text;
}

Process::Process(Options o) : opts_(std::move(o)) {
  if (opts_.args.empty()) throw std::invalid_argument("Process: no program given");
  static std::atomic<int> counter{0};
  std::string base = (fs::temp_directory_path() / ("capstan-proc-" + std::to_string(::getpid()) + "-" + std::to_string(counter++))).string();
  if (opts_.stdout_path.empty()) opts_.stdout_path = base + ".out";
  if (opts_.stderr_path.empty()) opts_.stderr_path = base + ".err";
  int in_pipe[2];
  if (pipe(in_pipe) != 0) throw std::runtime_error("pipe failed");
  std::vector<std::string> envs;
  for (char** e = environ; *e; ++e) {
    std::string kv(*e);
    auto eq = kv.find('=');
    if (eq != std::string::npos && opts_.env.count(kv.substr(0, eq))) continue;
    envs.push_back(kv);
  }
  for (const auto& [k, v] : opts_.env) envs.push_back(k + "=" + v);
  std::vector<char*> argv, envp;
  for (auto& a : opts_.args) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (auto& e : envs) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    // The child: its own process group so a stop reaches its children too, and killed with
    // the test when the test dies first (a ctest timeout), so no server outlives its test.
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    sigset_t all;
    sigemptyset(&all);
    sigprocmask(SIG_SETMASK, &all, nullptr);
    dup2(in_pipe[0], 0);
    close(in_pipe[0]);
    close(in_pipe[1]);
    int out = open(opts_.stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = open(opts_.stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out >= 0) dup2(out, 1);
    if (err >= 0) dup2(err, 2);
    if (!opts_.cwd.empty() && chdir(opts_.cwd.c_str()) != 0) _exit(126);
    execve(argv[0], argv.data(), envp.data());
    // PATH lookup for bare names.
    execvpe(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  close(in_pipe[0]);
  stdin_fd_ = in_pipe[1];
  if (!opts_.stdin_text.empty()) write_stdin(opts_.stdin_text);
  if (!opts_.interactive_stdin) close_stdin();
}

void Process::write_stdin(const std::string& text) {
  const char* p = text.data();
  std::size_t left = text.size();
  while (stdin_fd_ >= 0 && left > 0) {
    ssize_t n = write(stdin_fd_, p, left);
    if (n <= 0) break;
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

void Process::close_stdin() {
  if (stdin_fd_ >= 0) close(stdin_fd_);
  stdin_fd_ = -1;
}

Process::~Process() {
  close_stdin();
  if (pid_ > 0 && !exit_) stop(std::chrono::seconds(5));
  std::error_code ec;
  fs::remove(opts_.stdout_path, ec);
  fs::remove(opts_.stderr_path, ec);
}

bool Process::running() {
  if (exit_) return false;
  int status = 0;
  pid_t r = waitpid(pid_, &status, WNOHANG);
  if (r == pid_) {
    exit_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return false;
  }
  return true;
}

std::optional<int> Process::wait(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (running()) {
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return exit_;
}

void Process::signal(int sig) {
  if (pid_ > 0 && !exit_) ::kill(pid_, sig);
}

int Process::stop(std::chrono::milliseconds grace) {
  if (exit_) return *exit_;
  signal(SIGTERM);
  if (auto c = wait(grace)) return *c;
  kill_now();
  return wait(std::chrono::seconds(10)).value_or(-1);
}

void Process::kill_now() {
  if (pid_ > 0 && !exit_) {
    ::kill(pid_, SIGKILL);
    wait(std::chrono::seconds(10));
  }
}

std::string Process::out() const { return read_file(opts_.stdout_path); }
std::string Process::err() const { return read_file(opts_.stderr_path); }

RunResult run(const std::vector<std::string>& args, const std::map<std::string, std::string>& env, const std::string& stdin_text,
              std::chrono::milliseconds timeout) {
  Process::Options o;
  o.args = args;
  o.env = env;
  o.stdin_text = stdin_text;
  Process p(o);
  RunResult r;
  auto code = p.wait(timeout);
  if (!code) {
    r.timed_out = true;
    r.code = p.stop(std::chrono::seconds(2));
  } else {
    r.code = *code;
  }
  r.out = p.out();
  r.err = p.err();
  return r;
}

}  // namespace capstan::e2e
