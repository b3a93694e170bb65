#include "testing/manager_process.h"

#include "testing/cluster.h"
#include "runtime/pki/pki.h"

#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace capstan::e2e {

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
  // Another process may take a port between free_port() and the manager's bind: then the
  // manager exits naming the address, and it is started again on fresh ports.
  const bool webhook_port_given = webhook_port_ != 0;
  for (int attempt = 1;; ++attempt) {
    metrics_port_ = free_port();
    health_port_ = free_port();
    if (!webhook_port_given) webhook_port_ = free_port();
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
    po.env = env_;
    po.stdout_path = dir_ + "/" + tag_ + ".out";
    po.stderr_path = dir_ + "/" + tag_ + ".log";
    proc_ = std::make_unique<Process>(po);
    bool up = eventually([&] { return !proc_->running() || http_get(health_port_, "/healthz").first == 200; }, std::chrono::seconds(20));
    if (up && proc_->running()) return;
    std::string log = read_file(po.stderr_path);
    proc_->stop(std::chrono::seconds(10));
    if (attempt < 3 && log.find("Address already in use") != std::string::npos) continue;
    throw std::runtime_error("capstan manager did not start: " + log);
  }
}

int ManagerProcess::stop() { return proc_ ? proc_->stop(std::chrono::seconds(15)) : -1; }
void ManagerProcess::kill() {
  if (proc_) proc_->kill_now();
}
bool ManagerProcess::running() { return proc_ && proc_->running(); }
std::optional<int> ManagerProcess::wait(std::chrono::milliseconds t) { return proc_ ? proc_->wait(t) : std::nullopt; }
std::string ManagerProcess::metrics() const { return http_get(metrics_port_, "/metrics").second; }
double ManagerProcess::metric(const std::string& name, const std::string& label) const { return metric_sum(metrics(), name, label); }

std::map<std::string, double> metric_sums_by(const std::string& text, const std::string& name, const std::string& by,
                                             const std::string& label) {
  std::map<std::string, double> sums;
  std::istringstream in(text);
  const std::string key = by.empty() ? "" : by + "=\"";
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(name, 0) != 0 || line.size() <= name.size() || (line[name.size()] != '{' && line[name.size()] != ' ')) continue;
    const std::string labels = line.substr(name.size(), line.rfind(' ') - name.size());
    if (labels.find(label) == std::string::npos) continue;
    std::string value;
    if (!key.empty()) {
      const auto at = labels.find(key);
      if (at == std::string::npos) continue;
      const auto start = at + key.size();
      value = labels.substr(start, labels.find('"', start) - start);
    }
    sums[value] += std::atof(line.substr(line.rfind(' ') + 1).c_str());
  }
  return sums;
}

double metric_sum(const std::string& text, const std::string& name, const std::string& label) {
  double sum = 0;
  for (const auto& [value, s] : metric_sums_by(text, name, "", label)) sum += s;
  return sum;
}

std::string ManagerProcess::logs() const { return read_file(dir_ + "/" + tag_ + ".log"); }

}  // namespace capstan::e2e
