#include "manager/manager_command.h"

#include "manager/flags.h"
#include "manager/registry.h"
#include "manager/run.h"
#include "runtime/client/client.h"
#include "runtime/client/config.h"
#include "runtime/log/log.h"
#include "runtime/meta/time.h"

#include <malloc.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>

namespace capstan::manager {
namespace {

std::string pod_namespace() {
  if (const char* ns = std::getenv("POD_NAMESPACE")) return ns;
  std::ifstream in("/var/run/secrets/kubernetes.io/serviceaccount/namespace");
  std::string ns;
  if (in >> ns) return ns;
  return "";
}

std::string controller_help(const plugin::Registry& registry) {
  return "a list of controllers to enable. '*' enables all on-by-default controllers, 'foo' enables the controller named 'foo', "
         "'-foo' disables it. All controllers: " +
         registry.names();
}

}  // namespace

int manager_command(const std::vector<std::string>& args) {
  // Two malloc arenas instead of glibc's 8 per core: the manager's threads (an informer per
  // resource, workers) are mostly idle, each arena they touch stays resident (~0.5 MB of the
  // idle figure), and per-thread caches keep small allocations off the arena locks anyway.
  // MALLOC_ARENA_MAX in the environment still wins.
  if (!std::getenv("MALLOC_ARENA_MAX")) mallopt(M_ARENA_MAX, 2);
  std::string kubeconfig, controllers = "*", ns, log_format = "text";
  std::string metrics = ":8080", health = ":8081", cert_dir = "/tmp/k8s-webhook-server/serving-certs";
  std::string lease_id = "capstan-manager", lease_ns;
  std::string metrics_cert_dir, cert_secret, cert_hosts;
  bool leader_elect = false, metrics_secure = false;
  std::chrono::milliseconds lease_duration{15000}, renew_deadline{10000}, retry_period{2000}, reconcile_timeout{0};
  long long webhook_port = 9443, burst = 30, verbosity = 0;
  double qps = 20;
  const plugin::Registry registry = all_controllers();
  FlagSet fs("capstan manager");
  fs.add_string("kubeconfig", &kubeconfig, "path to a kubeconfig; default $KUBECONFIG, then in-cluster, then ~/.kube/config");
  fs.add_string("controllers", &controllers, controller_help(registry));
  fs.add_string("namespace", &ns, "restrict every watch to this namespace (default: all namespaces)");
  fs.add_bool("leader-elect", &leader_elect, "elect a leader with a coordination.k8s.io Lease so only one replica reconciles");
  fs.add_string("leader-election-id", &lease_id, "the name of the leader election Lease");
  fs.add_string("leader-election-namespace", &lease_ns, "the namespace of the Lease (default: the pod's namespace)");
  auto duration = [](std::chrono::milliseconds* target, const char* flag) {
    return [target, flag](const std::string& v) {
      auto d = meta::parse_go_duration(v);
      if (!d || d->count() <= 0) throw UsageError(std::string("invalid duration \"") + v + "\" for --" + flag + " (use e.g. 15s)");
      *target = std::chrono::duration_cast<std::chrono::milliseconds>(*d);
    };
  };
  fs.add_custom("leader-elect-lease-duration", duration(&lease_duration, "leader-elect-lease-duration"),
                "how long a non-leader waits after the last renewal it saw before taking over", "15s");
  fs.add_custom("leader-elect-renew-deadline", duration(&renew_deadline, "leader-elect-renew-deadline"),
                "how long the leader retries renewing before it gives up leading", "10s");
  fs.add_custom("leader-elect-retry-period", duration(&retry_period, "leader-elect-retry-period"),
                "the pause between acquisition and renewal attempts", "2s");
  fs.add_custom("reconcile-timeout", duration(&reconcile_timeout, "reconcile-timeout"),
                "time budget of one reconcile: past it the reconcile is cancelled and retried with backoff, and the "
                "controller's other objects are never held back by it",
                "5m");
  std::optional<std::size_t> memory_limit;
  fs.add_bytes(
      "reconcile-memory-limit", [&](std::size_t v) { memory_limit = v; },
      "memory budget of one reconcile (bytes it holds allocated at once): past it the reconcile fails alone and is "
      "retried with backoff; 0 = none. capstan_reconcile_peak_memory_bytes shows what reconciles use",
      "256Mi");
  fs.add_string("metrics-bind-address", &metrics, "address of the Prometheus metrics endpoint (\"0\" disables)");
  fs.add_bool("metrics-secure", &metrics_secure, "serve the metrics endpoint over HTTPS instead of HTTP");
  fs.add_string("metrics-cert-dir", &metrics_cert_dir,
                "with --metrics-secure: directory with the metrics serving certificate (tls.crt, tls.key; re-read when "
                "they change); empty: a self-signed certificate generated at start");
  fs.add_string("health-probe-bind-address", &health, "address of /healthz and /readyz (\"0\" disables)");
  fs.add_int("webhook-port", &webhook_port, "port of the admission and conversion webhook server (HTTPS)", 1, 65535);
  fs.add_string("webhook-cert-dir", &cert_dir, "directory with the webhook serving certificate (tls.crt, tls.key)");
  fs.add_string("webhook-cert-secret", &cert_secret,
                "keep the webhook serving certificate and its CA in this Secret of the pod's namespace (made when missing, "
                "renewed before expiry), write it into --webhook-cert-dir, and inject the CA into webhook configurations and "
                "CRDs annotated capstan.dev/inject-ca-from-secret; empty: the files in --webhook-cert-dir are given");
  std::chrono::milliseconds cert_validity = std::chrono::hours(24 * 365), ca_validity = std::chrono::hours(24 * 3650),
                            cert_check = std::chrono::minutes(1);
  fs.add_duration("webhook-cert-validity", &cert_validity,
                  "with --webhook-cert-secret: life of a serving certificate (renewed past two thirds of it)", "8760h");
  fs.add_duration("webhook-ca-validity", &ca_validity, "with --webhook-cert-secret: life of the CA (renewed past two thirds of it)",
                  "87600h");
  fs.add_duration("webhook-cert-check-interval", &cert_check,
                  "with --webhook-cert-secret: how often the certificate and the injected CA bundles are checked", "1m");
  fs.add_string("webhook-cert-hosts", &cert_hosts,
                "with --webhook-cert-secret: the certificate's DNS names and IP addresses, comma-separated (default: the "
                "Service capstan-webhook-service in the pod's namespace, .svc and .svc.cluster.local)");
  fs.add_double("kube-api-qps", &qps, "client-side rate limit: queries per second to the API server (<= 0: unlimited)");
  fs.add_int("kube-api-burst", &burst, "client-side rate limit: burst");
  // Each controller's own flags (--gitops-*, --acme-*, ...), whether enabled or not.
  registry.add_flags(fs);
  fs.add_string("log-format", &log_format, "log format: text or json");
  fs.add_int("v", &verbosity, "log verbosity (0 info, 1-3 debug, 4+ trace)");
  fs.parse(args);
  if (fs.help_requested()) {
    std::cout << "Runs the enabled Capstan controllers against a cluster.\n\nUsage:\n  capstan manager [flags]\n\n" << fs.usage();
    return 0;
  }
  check_log_format(log_format);
  log::init(log::parse_format(log_format), static_cast<int>(verbosity));

  RunOptions ro;
  ro.controllers = registry.enabled(split_csv(controllers));
  ro.manager.namespace_restriction = ns;
  ro.manager.metrics_bind_address = metrics;
  ro.manager.metrics_secure = metrics_secure;
  ro.manager.metrics_cert_dir = metrics_cert_dir;
  if (!metrics_cert_dir.empty() && !metrics_secure) throw UsageError("--metrics-cert-dir needs --metrics-secure");
  ro.manager.health_probe_bind_address = health;
  ro.manager.reconcile_timeout = reconcile_timeout;
  ro.reconcile_memory_limit = memory_limit;
  ro.manager.leader_election.enabled = leader_elect;
  ro.manager.leader_election.id = lease_id;
  ro.manager.leader_election.ns = lease_ns.empty() ? pod_namespace() : lease_ns;
  ro.manager.leader_election.lease_duration = lease_duration;
  ro.manager.leader_election.renew_deadline = renew_deadline;
  ro.manager.leader_election.retry_period = retry_period;
  if (leader_elect && ro.manager.leader_election.ns.empty())
    throw UsageError("--leader-election-namespace is required when not running in a cluster");
  if (auto pns = pod_namespace(); !pns.empty()) ro.env.pod_namespace = pns;
  ro.webhook_port = static_cast<int>(webhook_port);
  ro.webhook_cert_dir = cert_dir;
  ro.webhook_cert_secret = cert_secret;
  ro.webhook_cert_hosts = split_csv(cert_hosts);
  if (ro.webhook_cert_hosts.empty()) {
    std::string service = "capstan-webhook-service." + ro.env.pod_namespace + ".svc";
    ro.webhook_cert_hosts = {service, service + ".cluster.local"};
  }
  if (!cert_hosts.empty() && cert_secret.empty()) throw UsageError("--webhook-cert-hosts needs --webhook-cert-secret");
  // Bounds: a certificate must outlive a few checks and the webhook server's 10 s reload.
  if (cert_validity < std::chrono::seconds(30)) throw UsageError("--webhook-cert-validity must be at least 30s");
  if (ca_validity < 2 * cert_validity) throw UsageError("--webhook-ca-validity must be at least twice --webhook-cert-validity");
  if (cert_check < std::chrono::seconds(1) || cert_check * 6 > cert_validity)
    throw UsageError("--webhook-cert-check-interval must be at least 1s and at most a sixth of --webhook-cert-validity");
  ro.webhook_cert_validity = std::chrono::duration_cast<std::chrono::seconds>(cert_validity);
  ro.webhook_ca_validity = std::chrono::duration_cast<std::chrono::seconds>(ca_validity);
  ro.webhook_cert_check_interval = cert_check;
  client::Config cfg = client::load_config(kubeconfig);
  cfg.qps = qps;
  cfg.burst = static_cast<int>(burst);
  cfg.user_agent = "capstan-manager/" CAPSTAN_VERSION;
  client::Client client(cfg);
  log::info("connecting", {{"server", cfg.server}, {"source", cfg.source}});
  return run_controllers(client, ro);
}

}  // namespace capstan::manager
