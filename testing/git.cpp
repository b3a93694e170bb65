#include "testing/git.h"

#include "testing/cluster.h"
#include "testing/ports.h"

#include <unistd.h>

#include <filesystem>
#include <stdexcept>

namespace capstan::e2e {
namespace {

std::string checked(const std::vector<std::string>& args, const std::string& cwd = {}) {
  std::vector<std::string> full = args;
  if (!cwd.empty()) full.insert(full.begin() + 1, {"-C", cwd});
  auto r = run(full, {{"GIT_CONFIG_NOSYSTEM", "1"}, {"HOME", "/nonexistent"}});
  if (r.code != 0) {
    std::string cmd;
    for (const auto& a : full) cmd += a + " ";
    throw std::runtime_error(cmd + "failed: " + r.err + r.out);
  }
  return r.out;
}

}  // namespace

GitDaemon::GitDaemon(std::string base) : base_(std::move(base)) {}

GitDaemon::~GitDaemon() { stop(); }

void GitDaemon::start() {
  std::string output;
  for (int attempt = 0; attempt < 3; ++attempt) {  // a free port may be taken between probe and bind
    port_ = free_port();
    Process::Options o;
    o.args = {"/usr/lib/git-core/git-daemon", "--reuseaddr", "--export-all", "--base-path=" + base_,
              "--listen=127.0.0.1", "--port=" + std::to_string(port_), base_};
    proc_ = std::make_unique<Process>(o);
    if (eventually([&] { return !proc_->running() || accepts_connections(port_); }, std::chrono::seconds(10)) && proc_->running()) return;
    output = proc_->err();
    proc_->stop();
    proc_.reset();
  }
  throw std::runtime_error("git daemon did not start: " + output);
}

void GitDaemon::stop() {
  if (proc_) proc_->stop(std::chrono::seconds(5));
  proc_.reset();
}

bool SshServer::available() { return std::filesystem::exists("/usr/sbin/sshd"); }

SshServer::SshServer(std::string dir) : dir_(std::move(dir)) {}

SshServer::~SshServer() { stop(); }

std::string SshServer::url(const std::string& repository_path) const {
  return "ssh://" + user_ + "@127.0.0.1:" + std::to_string(port_) + repository_path;
}

void SshServer::start() {
  namespace fs = std::filesystem;
  fs::create_directories(dir_);
  const std::string host_key = dir_ + "/host_key", client = dir_ + "/client_key";
  for (const auto& key : {host_key, client}) {
    fs::remove(key);
    fs::remove(key + ".pub");
    auto r = run({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "capstan-e2e", "-f", key});
    if (r.code != 0) throw std::runtime_error("ssh-keygen failed: " + r.err);
  }
  client_key_ = read_file(client);
  write_file(dir_ + "/authorized_keys", read_file(client + ".pub"));
  fs::permissions(dir_ + "/authorized_keys", fs::perms::owner_read | fs::perms::owner_write);
  user_ = run({"id", "-un"}).out;
  while (!user_.empty() && (user_.back() == '\n' || user_.back() == '\r')) user_.pop_back();
  // sshd run by root needs its privilege-separation directory.
  if (::geteuid() == 0) fs::create_directories("/run/sshd");
  std::string host_pub = read_file(host_key + ".pub");
  host_pub = host_pub.substr(0, host_pub.rfind(' '));  // "ssh-ed25519 AAAA..." without the comment

  std::string output;
  for (int attempt = 0; attempt < 3; ++attempt) {  // a free port may be taken between probe and bind
    port_ = free_port();
    write_file(dir_ + "/sshd_config",
               "Port " + std::to_string(port_) + "\nListenAddress 127.0.0.1\nHostKey " + host_key + "\nAuthorizedKeysFile " + dir_ +
                   "/authorized_keys\nPasswordAuthentication no\nKbdInteractiveAuthentication no\nPubkeyAuthentication yes\n"
                   "UsePAM no\nStrictModes no\nPermitRootLogin prohibit-password\nAllowUsers " + user_ + "\nPidFile " + dir_ +
                   "/sshd.pid\nLogLevel VERBOSE\nMaxStartups 50\n");
    Process::Options o;
    o.args = {"/usr/sbin/sshd", "-D", "-e", "-f", dir_ + "/sshd_config"};
    o.stderr_path = dir_ + "/sshd.log";
    proc_ = std::make_unique<Process>(o);
    if (eventually([&] { return !proc_->running() || accepts_connections(port_); }, std::chrono::seconds(10)) && proc_->running()) {
      known_hosts_ = "[127.0.0.1]:" + std::to_string(port_) + " " + host_pub + "\n";
      return;
    }
    output = proc_->err();
    proc_->stop();
    proc_.reset();
  }
  throw std::runtime_error("sshd did not start: " + output);
}

void SshServer::stop() {
  if (proc_) proc_->stop(std::chrono::seconds(5));
  proc_.reset();
}

GitRepo::GitRepo(const std::string& base, const std::string& name)
    : bare_(base + "/" + name + ".git"), tree_(base + "/" + name + "-tree") {
  checked({"git", "init", "-q", "--bare", "-b", "main", bare_});
  checked({"git", "init", "-q", "-b", "main", tree_});
  git({"remote", "add", "origin", bare_});
}

std::string GitRepo::git(const std::vector<std::string>& args) {
  std::vector<std::string> full{"git", "-c", "user.name=capstan-e2e", "-c", "user.email=e2e@capstan.dev"};
  full.insert(full.end(), args.begin(), args.end());
  return checked(full, tree_);
}

void GitRepo::write(const std::string& path, const std::string& text) {
  std::filesystem::path p = std::filesystem::path(tree_) / path;
  std::filesystem::create_directories(p.parent_path());
  write_file(p.string(), text);
}

void GitRepo::remove(const std::string& path) { git({"rm", "-q", path}); }

std::string GitRepo::commit(const std::string& message) {
  git({"add", "-A"});
  git({"commit", "-q", "-m", message});
  git({"push", "-q", "origin", "main"});
  std::string sha = git({"rev-parse", "HEAD"});
  while (!sha.empty() && (sha.back() == '\n' || sha.back() == '\r')) sha.pop_back();
  return sha;
}

void GitRepo::tag(const std::string& name) {
  git({"tag", name});
  git({"push", "-q", "origin", name});
}

}  // namespace capstan::e2e
