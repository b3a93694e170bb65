// Git peers for the gitops tests: a real `git daemon` on a free loopback port, a real `sshd`
// (Debian's openssh-server) serving the same repositories over SSH with a key of its own, and a
// working tree that commits and pushes to a bare repository they serve.
#pragma once

#include "testing/process.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace capstan::e2e {

// git-daemon serving every repository under `base` (git://127.0.0.1:<port>/<name>.git);
// stopped by its own PID.
class GitDaemon {
 public:
  explicit GitDaemon(std::string base);
  ~GitDaemon();
  void start();  // waits until it accepts connections (bounded); throws with its output if it cannot
  void stop();
  std::uint16_t port() const { return port_; }
  std::string url(const std::string& repo) const { return "git://127.0.0.1:" + std::to_string(port_) + "/" + repo + ".git"; }

 private:
  std::string base_;
  std::uint16_t port_ = 0;
  std::unique_ptr<Process> proc_;
};

// /usr/sbin/sshd on a free loopback port, with a host key and one authorized client key made for
// it under `dir`, logging in as the user running the tests (git-upload-pack then reads the bare
// repositories by their absolute paths); stopped by its own PID.
class SshServer {
 public:
  explicit SshServer(std::string dir);
  ~SshServer();
  static bool available();  // whether /usr/sbin/sshd is installed
  void start();             // waits until it accepts connections (bounded); throws with its log if not
  void stop();
  std::uint16_t port() const { return port_; }
  // ssh://<user>@127.0.0.1:<port><absolute path of the repository>
  std::string url(const std::string& repository_path) const;
  const std::string& client_key() const { return client_key_; }  // OpenSSH private key text
  // The known_hosts line for this server ("[127.0.0.1]:<port> ssh-ed25519 AAAA...").
  const std::string& known_hosts() const { return known_hosts_; }

 private:
  std::string dir_, user_, client_key_, known_hosts_;
  std::uint16_t port_ = 0;
  std::unique_ptr<Process> proc_;
};

// Git's smart HTTP (git-http-backend run per request, as a CGI) on a free loopback port, serving
// every repository under `base` (http(s)://127.0.0.1:<port>/<name>.git) only to requests with
// `username`/`password` (Basic) or `token` (Bearer); others get 401 with a Basic challenge.
class GitHttpServer {
 public:
  GitHttpServer(std::string base, std::string username, std::string password, std::string token);
  ~GitHttpServer();
  // Before start(): serve https with a certificate for 127.0.0.1 from a CA of its own, whose PEM
  // ca_pem() returns (what a GitRepository's secretRef ca.crt holds).
  void use_tls();
  const std::string& ca_pem() const { return ca_pem_; }
  void start();
  void stop();
  std::string url(const std::string& repo) const;
  int refused() const { return refused_; }  // requests answered 401

 private:
  struct Impl;
  std::string base_, username_, password_, token_;
  std::string ca_pem_, cert_pem_, key_pem_;  // with use_tls()
  std::unique_ptr<Impl> impl_;
  std::atomic<int> refused_{0};
};

// A bare repository `<base>/<name>.git` (branch main) and a working tree beside it.
class GitRepo {
 public:
  GitRepo(const std::string& base, const std::string& name);
  void write(const std::string& path, const std::string& text);  // relative to the tree root
  void remove(const std::string& path);
  // Commits everything and pushes main; returns the commit SHA-1.
  std::string commit(const std::string& message);
  void tag(const std::string& name);  // lightweight tag of HEAD, pushed

 private:
  std::string git(const std::vector<std::string>& args);
  std::string bare_, tree_;
};

}  // namespace capstan::e2e
