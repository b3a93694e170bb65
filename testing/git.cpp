#include "testing/git.h"

#include "runtime/http/server.h"
#include "runtime/meta/base64.h"
#include "runtime/pki/sign.h"
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

struct GitHttpServer::Impl {
  std::unique_ptr<http::Server> server;
};

GitHttpServer::GitHttpServer(std::string base, std::string username, std::string password, std::string token)
    : base_(std::move(base)), username_(std::move(username)), password_(std::move(password)), token_(std::move(token)) {}

GitHttpServer::~GitHttpServer() { stop(); }

std::string GitHttpServer::url(const std::string& repo) const {
  return std::string(cert_pem_.empty() ? "http" : "https") + "://127.0.0.1:" + std::to_string(impl_ ? impl_->server->port() : 0) + "/" +
         repo + ".git";
}

void GitHttpServer::use_tls() {
  auto ca_key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  auto ca = pki::self_signed_ca("git-http test CA", std::chrono::hours(24), ca_key);
  auto serving = pki::serving_certificate({"127.0.0.1"}, ca, ca_key, std::chrono::hours(24));
  ca_pem_ = ca.to_pem();
  cert_pem_ = serving.certificate.to_pem();
  key_pem_ = serving.key.to_pem();
}

void GitHttpServer::start() {
  impl_ = std::make_unique<Impl>();
  http::ServerOptions o;
  o.name = "git-http";
  o.address = "127.0.0.1";
  if (!cert_pem_.empty()) {
    http::ServerTls tls;
    tls.cert_pem = cert_pem_;
    tls.key_pem = key_pem_;
    o.tls = tls;
  }
  impl_->server = std::make_unique<http::Server>(o, [this](http::Request& req, http::Reply& reply) {
    const std::string_view auth = req.headers.get_or("Authorization", "");
    const bool basic = !username_.empty() && auth == "Basic " + meta::base64_encode(username_ + ":" + password_);
    const bool bearer = !token_.empty() && auth == "Bearer " + token_;
    if (!basic && !bearer) {
      ++refused_;
      http::Response r(401, "authentication required\n", "text/plain");
      r.headers.set("WWW-Authenticate", "Basic realm=\"git\"");
      return reply.send(std::move(r));
    }
    std::map<std::string, std::string> env{{"GIT_PROJECT_ROOT", base_},
                                           {"GIT_HTTP_EXPORT_ALL", "1"},
                                           {"REQUEST_METHOD", req.method},
                                           {"PATH_INFO", std::string(req.path())},
                                           {"QUERY_STRING", std::string(req.raw_query())},
                                           {"CONTENT_TYPE", std::string(req.headers.get_or("Content-Type", ""))},
                                           {"CONTENT_LENGTH", std::to_string(req.body.size())},
                                           {"HTTP_CONTENT_ENCODING", std::string(req.headers.get_or("Content-Encoding", ""))},
                                           {"GIT_PROTOCOL", std::string(req.headers.get_or("Git-Protocol", ""))},
                                           {"REMOTE_USER", basic ? username_ : "token"},
                                           {"REMOTE_ADDR", "127.0.0.1"}};
    auto r = run({"/usr/lib/git-core/git-http-backend"}, env, req.body, std::chrono::seconds(60));
    // CGI output: header lines, a blank line, the body.
    auto end = r.out.find("\r\n\r\n");
    std::size_t skip = 4;
    if (end == std::string::npos) end = r.out.find("\n\n"), skip = 2;
    if (r.code != 0 || end == std::string::npos) return reply.send(http::Response(500, "git-http-backend: " + r.err, "text/plain"));
    http::Response resp(200, r.out.substr(end + skip), "application/octet-stream");
    std::string_view head(r.out.data(), end);
    while (!head.empty()) {
      auto eol = head.find('\n');
      std::string_view line = head.substr(0, eol);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      head = eol == std::string_view::npos ? std::string_view() : head.substr(eol + 1);
      auto colon = line.find(':');
      if (colon == std::string_view::npos) continue;
      std::string_view name = line.substr(0, colon), value = line.substr(colon + 1);
      while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
      if (http::iequals(name, "Status")) resp.status = std::atoi(std::string(value).c_str());
      else resp.headers.set(name, value);
    }
    reply.send(std::move(resp));
  });
  impl_->server->start();
}

void GitHttpServer::stop() {
  if (impl_ && impl_->server) impl_->server->stop();
  impl_.reset();
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
