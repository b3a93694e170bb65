#include "e2e/support/cluster.h"

#include "runtime/pki/pki.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <regex>
#include <thread>

namespace capstan::e2e {

std::string capstan_bin() {
  const char* b = std::getenv("CAPSTAN_BIN");
  return b ? b : "build/bin/capstan";
}

std::string source_dir() {
  const char* s = std::getenv("CAPSTAN_SOURCE_DIR");
  return s ? s : CAPSTAN_SOURCE_DIR_DEFAULT;
}

ApiServerProcess::ApiServerProcess(const TempDir& dir, Options o) : dir_(dir.path()), opts_(std::move(o)) {
  kubeconfig_ = dir_ + "/kubeconfig";
  port_ = opts_.port;
}

ApiServerProcess::~ApiServerProcess() {
  if (proc_) proc_->stop(std::chrono::seconds(10));
}

void ApiServerProcess::start() {
  // A restart reuses the port; right after the old process exits the port may still be
  // held briefly, so a failed bind is retried for a few seconds.
  for (int attempt = 0;; ++attempt) {
    std::filesystem::remove(kubeconfig_);
    Process::Options po;
    po.args = {capstan_bin(), "apiserver", "--listen", "127.0.0.1:" + std::to_string(port_), "--kubeconfig-out", kubeconfig_};
    if (!opts_.data_dir.empty()) {
      po.args.push_back("--data-dir");
      po.args.push_back(opts_.data_dir);
    }
    for (const auto& a : opts_.extra_args) po.args.push_back(a);
    po.stdout_path = dir_ + "/apiserver.out";
    po.stderr_path = dir_ + "/apiserver.log";
    proc_ = std::make_unique<Process>(po);
    bool up = eventually(
        [&] {
          if (!proc_->running()) return true;
          auto out = read_file(po.stdout_path);
          std::smatch m;
          static const std::regex re("serving on https://127\\.0\\.0\\.1:([0-9]+)");
          if (std::regex_search(out, m, re) && std::filesystem::exists(kubeconfig_)) {
            port_ = static_cast<std::uint16_t>(std::stoi(m[1]));
            return true;
          }
          return false;
        },
        std::chrono::seconds(20));
    if (up && proc_->running()) return;
    std::string log = read_file(po.stderr_path);
    if (port_ != 0 && attempt < 20 && log.find("Address already in use") != std::string::npos) {
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
      continue;
    }
    // Seen twice under full parallel load, only on restarts: a server that printed nothing at
    // all for 20 s (not even its first log line). Not understood yet; reported, then retried.
    if (!up && attempt < 2) {
      std::cerr << "capstan apiserver (pid " << proc_->pid() << ") printed nothing in 20 s; stdout: \"" << read_file(po.stdout_path)
                << "\" stderr: \"" << log << "\"; killing it and starting again" << std::endl;
      proc_->kill_now();
      continue;
    }
    throw std::runtime_error("capstan apiserver did not start (" + std::string(up ? "exited" : "timed out") + "): " + log);
  }
}

void ApiServerProcess::stop() {
  if (proc_) proc_->stop(std::chrono::seconds(10));
}

void ApiServerProcess::kill() {
  if (proc_) proc_->kill_now();
}

void ApiServerProcess::restart() {
  stop();
  start();
}

void ApiServerProcess::kill_and_restart() {
  kill();
  start();
}

int ApiServerProcess::pid() const { return proc_ ? proc_->pid() : 0; }

bool ApiServerProcess::running() { return proc_ && proc_->running(); }

std::string ApiServerProcess::url() const { return "https://127.0.0.1:" + std::to_string(port_); }

std::string ApiServerProcess::logs() const { return read_file(dir_ + "/apiserver.log"); }

std::uint16_t free_port() {
  int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  std::uint16_t port = 0;
  if (::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
    socklen_t len = sizeof a;
    ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
    port = ntohs(a.sin_port);
  }
  ::close(s);
  return port;
}

std::pair<int, std::string> http_get(std::uint16_t port, const std::string& path) {
  int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(port);
  timeval tv{2, 0};
  ::setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  if (::connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(s);
    return {0, ""};
  }
  std::string req = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
  if (::send(s, req.data(), req.size(), 0) < 0) {
    ::close(s);
    return {0, ""};
  }
  std::string resp;
  char buf[8192];
  ssize_t n;
  while ((n = ::recv(s, buf, sizeof buf, 0)) > 0) resp.append(buf, static_cast<std::size_t>(n));
  ::close(s);
  if (resp.size() < 12) return {0, ""};
  int code = std::atoi(resp.substr(9, 3).c_str());
  auto body_at = resp.find("\r\n\r\n");
  std::string body = body_at == std::string::npos ? "" : resp.substr(body_at + 4);
  // Decode a chunked body.
  if (resp.find("Transfer-Encoding: chunked") != std::string::npos || resp.find("transfer-encoding: chunked") != std::string::npos) {
    std::string out;
    std::size_t i = 0;
    while (i < body.size()) {
      auto eol = body.find("\r\n", i);
      if (eol == std::string::npos) break;
      std::size_t len = std::stoul(body.substr(i, eol - i), nullptr, 16);
      if (len == 0) break;
      out += body.substr(eol + 2, len);
      i = eol + 2 + len + 2;
    }
    body = out;
  }
  return {code, body};
}

ManagerProcess::ManagerProcess(const TempDir& dir, std::string kubeconfig, std::vector<std::string> extra_args, std::string tag)
    : dir_(dir.path()), kubeconfig_(std::move(kubeconfig)), tag_(std::move(tag)), extra_(std::move(extra_args)) {
  cert_dir_ = dir_ + "/" + tag_ + "-certs";
  std::filesystem::create_directories(cert_dir_);
  auto ca_key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA, 256);
  auto ca = pki::self_signed_ca("e2e-webhook-ca", std::chrono::hours(24), ca_key);
  auto serving = pki::serving_certificate({"127.0.0.1", "localhost"}, ca, ca_key, std::chrono::hours(24));
  ca_pem_ = ca.to_pem();
  write_file(cert_dir_ + "/ca.crt", ca_pem_);
  write_file(cert_dir_ + "/tls.crt", serving.certificate.to_pem());
  write_file(cert_dir_ + "/tls.key", serving.key.to_pem(pki::KeyEncoding::PKCS8));
}

ManagerProcess::~ManagerProcess() {
  if (proc_) proc_->stop(std::chrono::seconds(10));
}

void ManagerProcess::start() {
  metrics_port_ = free_port();
  health_port_ = free_port();
  if (!webhook_port_) webhook_port_ = free_port();
  Process::Options po;
  po.args = {capstan_bin(),
             "manager",
             "--kubeconfig=" + kubeconfig_,
             "--metrics-bind-address=127.0.0.1:" + std::to_string(metrics_port_),
             "--health-probe-bind-address=127.0.0.1:" + std::to_string(health_port_),
             "--webhook-port=" + std::to_string(webhook_port_),
             "--webhook-cert-dir=" + cert_dir_};
  bool solver_port_given = false;
  for (const auto& a : extra_) {
    po.args.push_back(a);
    solver_port_given |= a.rfind("--acme-http01-solver-port", 0) == 0;
  }
  // Never the fixed default: tests run managers side by side.
  if (!solver_port_given) po.args.push_back("--acme-http01-solver-port=" + std::to_string(free_port()));
  po.stdout_path = dir_ + "/" + tag_ + ".out";
  po.stderr_path = dir_ + "/" + tag_ + ".log";
  proc_ = std::make_unique<Process>(po);
  bool up = eventually([&] { return !proc_->running() || http_get(health_port_, "/healthz").first == 200; }, std::chrono::seconds(20));
  if (!up || !proc_->running()) throw std::runtime_error("capstan manager did not start: " + read_file(po.stderr_path));
}

int ManagerProcess::stop() { return proc_ ? proc_->stop(std::chrono::seconds(15)) : -1; }
void ManagerProcess::kill() {
  if (proc_) proc_->kill_now();
}
bool ManagerProcess::running() { return proc_ && proc_->running(); }
std::optional<int> ManagerProcess::wait(std::chrono::milliseconds t) { return proc_ ? proc_->wait(t) : std::nullopt; }
std::string ManagerProcess::metrics() const { return http_get(metrics_port_, "/metrics").second; }
std::string ManagerProcess::logs() const { return read_file(dir_ + "/" + tag_ + ".log"); }

Kubectl::Kubectl(const TempDir& dir, std::string kubeconfig) : home_(dir.path() + "/home"), kubeconfig_(std::move(kubeconfig)) {
  std::filesystem::create_directories(home_);
}

std::map<std::string, std::string> Kubectl::env() const { return {{"KUBECONFIG", kubeconfig_}, {"HOME", home_}}; }

RunResult Kubectl::operator()(const std::vector<std::string>& args, const std::string& stdin_text,
                              std::chrono::milliseconds timeout) const {
  std::vector<std::string> full = {"/usr/bin/kubectl"};
  full.insert(full.end(), args.begin(), args.end());
  return run(full, env(), stdin_text, timeout);
}

std::string Kubectl::ok(const std::vector<std::string>& args, const std::string& stdin_text) const {
  auto r = (*this)(args, stdin_text);
  std::string cmd;
  for (const auto& a : args) cmd += " " + a;
  EXPECT_EQ(r.code, 0) << "kubectl" << cmd << "\nstdout: " << r.out << "\nstderr: " << r.err;
  return r.out;
}

void KubectlFixture::TearDown() {
  if (HasFailure()) std::cerr << "apiserver log:\n" << server_->logs() << std::endl;
  server_.reset();
}

}  // namespace capstan::e2e
