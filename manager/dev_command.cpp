#include "manager/dev_command.h"

#include "apiserver/server.h"
#include "manager/flags.h"
#include "manager/install.h"
#include "manager/registry.h"
#include "manager/run.h"
#include "runtime/client/client.h"
#include "runtime/client/config.h"
#include "runtime/log/log.h"
#include "runtime/pki/pki.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

namespace capstan::manager {
namespace fs = std::filesystem;
namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_text(const fs::path& p, const std::string& text, bool secret = false) {
  std::ofstream(p, std::ios::trunc) << text;
  if (secret) fs::permissions(p, fs::perms::owner_read | fs::perms::owner_write);
}

// Free loopback ports for one run, each remembered in a file so restarts keep their addresses
// when they can. A port is only bound here for a moment, and the servers that will hold it start
// later, so the kernel may offer a port it already gave out in this run: the picker never hands
// out the same port twice.
class PortPicker {
 public:
  std::uint16_t pick(const fs::path& file) {
    std::uint16_t remembered = 0;
    if (fs::exists(file)) {
      try {
        remembered = static_cast<std::uint16_t>(std::stoi(read_text(file)));
      } catch (const std::exception&) {
        // an unreadable file only costs the remembered address
      }
    }
    std::uint16_t port = remembered && !taken_.contains(remembered) ? try_bind(remembered) : 0;
    for (int attempt = 0; !port && attempt < 64; ++attempt) {
      port = try_bind(0);
      if (taken_.contains(port)) port = 0;
    }
    if (!port) throw std::runtime_error("no free loopback port for " + file.filename().string());
    taken_.insert(port);
    write_text(file, std::to_string(port));
    return port;
  }

 private:
  static std::uint16_t try_bind(std::uint16_t port) {
    int s = ::socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0) return 0;
    int one = 1;
    ::setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(port);
    std::uint16_t got = 0;
    if (::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
      socklen_t len = sizeof a;
      ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
      got = ntohs(a.sin_port);
    }
    ::close(s);
    return got;
  }

  std::set<std::uint16_t> taken_;
};

// The webhook server's CA and serving certificate for 127.0.0.1, kept across restarts.
std::string ensure_webhook_certs(const fs::path& dir) {
  fs::create_directories(dir);
  if (!fs::exists(dir / "ca.crt") || !fs::exists(dir / "tls.crt") || !fs::exists(dir / "tls.key")) {
    auto ca_key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA, 256);
    auto ca = pki::self_signed_ca("capstan-dev-webhook-ca", std::chrono::hours(24 * 365 * 10), ca_key);
    auto serving = pki::serving_certificate({"127.0.0.1", "localhost"}, ca, ca_key, std::chrono::hours(24 * 365 * 10));
    write_text(dir / "ca.crt", ca.to_pem());
    write_text(dir / "tls.crt", serving.certificate.to_pem());
    write_text(dir / "tls.key", serving.key.to_pem(pki::KeyEncoding::PKCS8), true);
  }
  return read_text(dir / "ca.crt");
}

}  // namespace

int dev_command(const std::vector<std::string>& args) {
  std::string data_dir = ".capstan", controllers = "*", log_format = "text";
  std::string metrics_bind, health_bind;
  long long verbosity = 0;
  const plugin::Registry registry = all_controllers();
  FlagSet fs("capstan dev");
  fs.add_string("data-dir", &data_dir, "where the dev cluster keeps its data (store, certificates, kubeconfig)");
  fs.add_string("controllers", &controllers, "controllers to run ('*' = all default-on, 'name' enables, '-name' disables)");
  fs.add_string("metrics-bind-address", &metrics_bind,
                "where the controllers' Prometheus metrics are served (\"0\" disables; default: a free loopback port, kept across restarts)");
  fs.add_string("health-probe-bind-address", &health_bind,
                "where /healthz and /readyz are served (default: a free loopback port, kept across restarts)");
  fs.add_string("log-format", &log_format, "log format: text or json");
  fs.add_int("v", &verbosity, "log verbosity (0 info, 1-3 debug, 4+ trace)");
  registry.add_flags(fs);  // each controller's own
  fs.parse(args);
  if (fs.help_requested()) {
    std::cout << "Runs Capstan's embedded API server and every controller in one process.\n\nUsage:\n  capstan dev [flags]\n\n"
              << fs.usage();
    return 0;
  }
  check_log_format(log_format);
  log::init(log::parse_format(log_format), static_cast<int>(verbosity));
  auto enabled = registry.enabled(split_csv(controllers));
  fs::path dir = fs::absolute(data_dir);
  fs::create_directories(dir);

  PortPicker ports;
  apiserver::ApiServerOptions ao;
  ao.listen = "127.0.0.1:" + std::to_string(ports.pick(dir / "apiserver.port"));
  ao.data_dir = (dir / "apiserver").string();
  ao.kubeconfig_out = (dir / "kubeconfig").string();
  ao.simulate_workloads = true;
  apiserver::ApiServer server(ao);
  server.start();

  client::Config cfg = client::load_kubeconfig(ao.kubeconfig_out);
  cfg.qps = 0;  // the dev cluster is ours
  cfg.user_agent = "capstan-dev/" CAPSTAN_VERSION;
  client::Client client(cfg);

  std::string ca = ensure_webhook_certs(dir / "webhook");
  std::uint16_t webhook_port = ports.pick(dir / "webhook.port");
  RunOptions ro;
  WebhookEndpoint endpoint{"https://127.0.0.1:" + std::to_string(webhook_port), "", "", ca, ro.env.pod_namespace};
  // The manager's namespace, where ClusterIssuers keep their Secrets (a Helm install creates it).
  ensure_namespace(client, ro.env.pod_namespace, "capstan-dev");
  install_crds(client, enabled, endpoint, "capstan-dev");
  install_webhooks(client, enabled, endpoint, "capstan-dev");

  ro.controllers = enabled;
  auto loopback = [&](const char* file) { return "127.0.0.1:" + std::to_string(ports.pick(dir / file)); };
  ro.manager.metrics_bind_address = metrics_bind.empty() ? loopback("metrics.port") : metrics_bind;
  ro.manager.health_probe_bind_address = health_bind.empty() ? loopback("health.port") : health_bind;
  ro.webhook_host = "127.0.0.1";
  ro.webhook_port = webhook_port;
  ro.webhook_cert_dir = (dir / "webhook").string();
  // The controllers' own defaults for one machine (each plug-in's, for the flags not given).
  plugin::DevEnvironment dev{dir.string(), [&](const std::string& name) { return ports.pick(dir / (name + ".port")); }};
  const std::vector<std::string> banner = registry.apply_dev_defaults(fs, dev);
  ro.on_ready = [&](controller::Manager&) {
    std::cout << "\nCapstan dev cluster is running (Ctrl-C stops it; data in " << dir.string() << ").\n"
              << "API server: " << server.url() << "\n";
    for (const auto& line : banner) std::cout << line << "\n";
    if (ro.manager.metrics_bind_address != "0") std::cout << "Metrics: http://" << ro.manager.metrics_bind_address << "/metrics\n";
    std::cout << "Health: http://" << ro.manager.health_probe_bind_address << "/readyz\n"
              << "Point kubectl at it:\n\n  export KUBECONFIG=" << ao.kubeconfig_out << "\n\n"
              << std::flush;
  };
  int rc = run_controllers(client, ro);
  server.stop();
  return rc;
}

}  // namespace capstan::manager
