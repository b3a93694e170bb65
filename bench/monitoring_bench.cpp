// The monitoring controller at scale: one Prometheus selecting 1,000 ServiceMonitors, 500
// PodMonitors and 2,000 PrometheusRules over 50 namespaces. Prints the time to the full
// configuration (every job in the config Secret, every rule file in the rule ConfigMaps), then
// for single rule changes: the time from the change to the new rule file in the API server, the
// bytes the manager sent for it (rest_client_request_size_bytes) against the size of everything
// it manages, and the manager's CPU per change; and the manager's RSS.
#include "bench/cluster_client.h"
#include "runtime/gzip/gzip.h"
#include "testing/kubectl.h"
#include "testing/manager_process.h"
#include "runtime/json/decode.h"
#include "runtime/json/json.h"
#include "runtime/meta/base64.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace capstan;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kNamespaces = 50;
constexpr int kServiceMonitors = 1000, kPodMonitors = 500, kRules = 2000;
constexpr int kChanges = 5;
constexpr int kWriters = 4;

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

std::string ns_of(int i) { return "team-" + std::to_string(i % kNamespaces); }

std::string service_monitor(int i) {
  return R"({"apiVersion":"monitoring.capstan.dev/v1","kind":"ServiceMonitor","metadata":{"name":"sm-)" + std::to_string(i) +
         R"(","labels":{"team":"shop"}},"spec":{"selector":{"matchLabels":{"app":"app-)" + std::to_string(i) +
         R"("}},"endpoints":[{"port":"metrics","interval":"30s","relabelings":[{"sourceLabels":["__meta_kubernetes_pod_node_name"],"targetLabel":"node"}]}]}})";
}

std::string pod_monitor(int i) {
  return R"({"apiVersion":"monitoring.capstan.dev/v1","kind":"PodMonitor","metadata":{"name":"pm-)" + std::to_string(i) +
         R"(","labels":{"team":"shop"}},"spec":{"selector":{"matchLabels":{"app":"worker-)" + std::to_string(i) +
         R"("}},"podMetricsEndpoints":[{"port":"metrics"}]}})";
}

std::string rule(int i, const std::string& threshold) {
  const std::string n = std::to_string(i);
  return R"j({"apiVersion":"monitoring.capstan.dev/v1","kind":"PrometheusRule","metadata":{"name":"rules-)j" + n +
         R"j(","labels":{"team":"shop"}},"spec":{"groups":[{"name":"app-)j" + n + R"j(","rules":[)j" +
         R"j({"record":"job:http_requests:rate5m","expr":"sum by (job) (rate(http_requests_total{app=\"app-)j" + n + R"j(\"}[5m]))"},)j" +
         R"j({"alert":"App)j" + n + R"j(ErrorsHigh","expr":"sum(rate(http_errors_total{app=\"app-)j" + n + R"j(\"}[5m])) > )j" + threshold +
         R"j(","for":"10m","labels":{"severity":"page"},"annotations":{"summary":"app-)j" + n + R"j( fails"}}]}]}})j";
}

// POSTs `count` objects made by `make` into their namespaces, with kWriters connections.
void create_all(const bench::ServerUnderTest& s, const std::string& resource, int count, std::string (*make)(int)) {
  std::atomic<int> next{0};
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&] {
      http::Client c(s.client_options);
      for (int i = next++; i < count; i = next++) {
        auto r = c.request("POST", s.url + "/apis/monitoring.capstan.dev/v1/namespaces/" + ns_of(i) + "/" + resource,
                           {{"Content-Type", "application/json"}}, make(i));
        if (r.status != 201) std::fprintf(stderr, "create %s %d: HTTP %d %s\n", resource.c_str(), i, r.status, r.body.c_str());
      }
    });
  }
  for (auto& w : writers) w.join();
}

std::string initial_rule(int i) { return rule(i, "1"); }

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + what.size())) ++n;
  return n;
}

struct Generated {
  std::size_t service_monitor_jobs = 0, pod_monitor_jobs = 0, rule_files = 0, bytes = 0;
};

// What the API server holds for Prometheus monitoring/main: the jobs in its configuration, the
// rule files in its ConfigMaps and the bytes of both.
Generated generated(http::Client& c, const bench::ServerUnderTest& s) {
  Generated g;
  auto secret = c.request("GET", s.url + "/api/v1/namespaces/monitoring/secrets/prometheus-main");
  if (secret.status == 200) {
    auto gz = meta::base64_decode(json::get_string(json::parse(secret.body), {"data", "prometheus.yaml.gz"}));
    std::string config = gz ? gzip::decompress(*gz) : "";
    g.service_monitor_jobs = count(config, "job_name: serviceMonitor/");
    g.pod_monitor_jobs = count(config, "job_name: podMonitor/");
    g.bytes += secret.body.size();
  }
  for (int i = 0;; ++i) {
    auto cm = c.request("GET", s.url + "/api/v1/namespaces/monitoring/configmaps/prometheus-main-rulefiles-" + std::to_string(i));
    if (cm.status != 200) break;
    g.bytes += cm.body.size();
    const json::Value configmap = json::parse(cm.body);
    if (const auto* data = json::find(configmap, {"data"}); data && data->is_object()) g.rule_files += data->as_object().size();
  }
  return g;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// "prometheus 12 x 85 ms, servicemonitors-bindings 2000 x 0.4 ms, ...": each controller's
// reconciles so far and their mean duration.
std::string reconciles(const e2e::ManagerProcess& mgr) {
  const std::string text = mgr.metrics();
  const auto sums = e2e::metric_sums_by(text, "controller_runtime_reconcile_time_seconds_sum", "controller");
  const auto counts = e2e::metric_sums_by(text, "controller_runtime_reconcile_time_seconds_count", "controller");
  std::string out;
  char buf[160];
  for (const auto& [name, count] : counts) {
    const double sum = sums.contains(name) ? sums.at(name) : 0;
    std::snprintf(buf, sizeof buf, "%s%s %.0f x %.1f ms", out.empty() ? "" : ", ", name.c_str(), count, count > 0 ? sum / count * 1e3 : 0);
    out += buf;
  }
  return out;
}

double bytes_sent(const e2e::ManagerProcess& mgr) { return mgr.metric("rest_client_request_size_bytes_sum"); }

}  // namespace

int main(int argc, char** argv) {
  std::string bin = argc > 1 ? argv[1] : "build/bin/capstan";
  auto s = bench::start_server(bin);
  bench::install_crds(bin, s);
  e2e::Kubectl kubectl(*s.dir, s.kubeconfig);
  std::string namespaces = "apiVersion: v1\nkind: Namespace\nmetadata: {name: monitoring}\n";
  for (int i = 0; i < kNamespaces; ++i) namespaces += "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: " + ns_of(i) + ", labels: {bench: \"true\"}}\n";
  kubectl.ok({"apply", "-f", "-"}, namespaces);

  auto c0 = Clock::now();
  create_all(s, "servicemonitors", kServiceMonitors, service_monitor);
  create_all(s, "podmonitors", kPodMonitors, pod_monitor);
  create_all(s, "prometheusrules", kRules, initial_rule);
  std::printf("monitoring: %d ServiceMonitors, %d PodMonitors, %d PrometheusRules in %d namespaces created in %.1f s\n", kServiceMonitors,
              kPodMonitors, kRules, kNamespaces, seconds(Clock::now() - c0));

  e2e::ManagerProcess mgr(*s.dir, s.kubeconfig, {"--controllers=monitoring", "--kube-api-qps=500", "--kube-api-burst=1000"});
  mgr.start();
  if (std::getenv("CAPSTAN_BENCH_PIDS")) std::fprintf(stderr, "manager pid %d, apiserver pid %d\n", mgr.pid(), s.proc->pid());
  // Settled: the bindings controllers have looked at every object once (none is bound yet).
  if (!e2e::eventually([&] {
        return mgr.metric("controller_runtime_reconcile_total") >= kServiceMonitors + kPodMonitors + kRules && mgr.metric("workqueue_depth") == 0;
      }, std::chrono::seconds(120))) {
    std::fprintf(stderr, "the manager did not settle; log:\n%s\n", mgr.logs().c_str());
  }
  const double idle_rss = bench::rss_bytes_of(mgr.pid()) / 1e6;

  // The full configuration, from the Prometheus's creation.
  const double cpu0 = bench::cpu_seconds_of(mgr.pid()), sent0 = bytes_sent(mgr);
  auto t0 = Clock::now();
  kubectl.ok({"apply", "-f", "-"}, R"(apiVersion: monitoring.capstan.dev/v1
kind: Prometheus
metadata: {name: main, namespace: monitoring}
spec:
  serviceMonitorSelector: {matchLabels: {team: shop}}
  serviceMonitorNamespaceSelector: {matchLabels: {bench: "true"}}
  podMonitorSelector: {matchLabels: {team: shop}}
  podMonitorNamespaceSelector: {matchLabels: {bench: "true"}}
  ruleSelector: {matchLabels: {team: shop}}
  ruleNamespaceSelector: {matchLabels: {bench: "true"}}
)");
  http::Client poll(s.client_options);
  Generated g;
  bool complete = e2e::eventually([&] {
    g = generated(poll, s);
    return g.service_monitor_jobs == kServiceMonitors && g.pod_monitor_jobs == kPodMonitors && g.rule_files == kRules;
  }, std::chrono::seconds(300), std::chrono::milliseconds(100));
  const double full_s = seconds(Clock::now() - t0);
  if (!complete) {
    std::fprintf(stderr, "incomplete configuration: %zu ServiceMonitor jobs, %zu PodMonitor jobs, %zu rule files\n%s\n", g.service_monitor_jobs,
                 g.pod_monitor_jobs, g.rule_files, mgr.logs().c_str());
    mgr.stop();
    s.proc->stop();
    return 1;
  }
  std::printf("monitoring: full configuration (%zu + %zu jobs, %zu rule files, %.0f KB) in the API server %.2f s after the Prometheus\n",
              g.service_monitor_jobs, g.pod_monitor_jobs, g.rule_files, g.bytes / 1e3, full_s);
  // Status bindings of all 3,500 objects are written next: wait until the work queues drain.
  auto b0 = Clock::now();
  e2e::eventually([&] { return mgr.metric("workqueue_depth") == 0; }, std::chrono::seconds(300), std::chrono::milliseconds(100));
  std::this_thread::sleep_for(std::chrono::seconds(2));
  std::printf("monitoring: status.bindings of the %d objects written %.2f s later; manager CPU for all of it %.2f s, %.1f MB sent\n",
              kServiceMonitors + kPodMonitors + kRules, seconds(Clock::now() - b0), bench::cpu_seconds_of(mgr.pid()) - cpu0,
              (bytes_sent(mgr) - sent0) / 1e6);

  // One rule changed at a time: the new rule file appears in a ConfigMap (watched).
  std::mutex mu;
  std::string marker;
  std::optional<Clock::time_point> seen;
  http::Cancellation cancel;
  std::atomic<bool> watching{false};
  std::string coll = s.url + "/api/v1/namespaces/monitoring/configmaps";
  json::ListMeta lm;
  json::decode_list(poll.request("GET", coll).body, lm, [](std::string_view) {});
  std::thread watcher([&] {
    http::Client c(s.client_options);
    json::WatchDecoder dec([&](json::EventType, std::string_view raw, const json::MetaSummary&) {
      std::lock_guard<std::mutex> lock(mu);
      if (!marker.empty() && !seen && raw.find(marker) != std::string_view::npos) seen = Clock::now();
    }, "monitoring bench watch");
    try {
      c.stream("GET", coll + "?watch=1&resourceVersion=" + lm.resource_version, {}, {}, [&](int, const http::Headers&) { return watching = true; },
               [&](std::string_view d) {
                 dec.feed(d);
                 return true;
               },
               &cancel, std::chrono::seconds(600));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "watch ended: %s\n", e.what());
    }
  });
  while (!watching) std::this_thread::sleep_for(std::chrono::milliseconds(5));

  std::vector<double> latencies, bytes, cpus;
  for (int k = 0; k < kChanges; ++k) {
    const int i = 137 + 311 * k;
    const std::string threshold = "0.0" + std::to_string(1000 + k);
    {
      std::lock_guard<std::mutex> lock(mu);
      marker = "> " + threshold;
      seen.reset();
    }
    const double cpu_before = bench::cpu_seconds_of(mgr.pid()), sent_before = bytes_sent(mgr);
    auto changed = Clock::now();
    auto p = poll.request("PATCH", s.url + "/apis/monitoring.capstan.dev/v1/namespaces/" + ns_of(i) + "/prometheusrules/rules-" + std::to_string(i),
                          {{"Content-Type", "application/merge-patch+json"}}, rule(i, threshold));
    if (p.status != 200) std::fprintf(stderr, "patch rules-%d: HTTP %d %s\n", i, p.status, p.body.c_str());
    bool landed = e2e::eventually([&] {
      std::lock_guard<std::mutex> lock(mu);
      return seen.has_value();
    }, std::chrono::seconds(60), std::chrono::milliseconds(2));
    if (!landed) {
      std::fprintf(stderr, "change %d did not reach a rule ConfigMap\n", k);
      continue;
    }
    {
      std::lock_guard<std::mutex> lock(mu);
      latencies.push_back(seconds(*seen - changed));
    }
    e2e::eventually([&] { return mgr.metric("workqueue_depth") == 0; }, std::chrono::seconds(60), std::chrono::milliseconds(20));
    std::this_thread::sleep_for(std::chrono::seconds(2));  // the reconciles the change's own writes start
    bytes.push_back(bytes_sent(mgr) - sent_before);
    cpus.push_back(bench::cpu_seconds_of(mgr.pid()) - cpu_before);
  }
  cancel.cancel();
  watcher.join();

  g = generated(poll, s);
  std::printf("monitoring: one rule changed -> new rule file in the API server: median %.0f ms, max %.0f ms (%zu changes; target < 1,000 ms)\n",
              median(latencies) * 1e3, latencies.empty() ? 0 : *std::max_element(latencies.begin(), latencies.end()) * 1e3, latencies.size());
  std::printf("monitoring: bytes sent per change: median %.0f KB, of %.0f KB the Prometheus's configuration and rule files hold\n", median(bytes) / 1e3,
              g.bytes / 1e3);
  std::printf("monitoring: manager CPU per change: median %.0f ms (the reconciles the change starts, and 2 s of idling after them)\n",
              median(cpus) * 1e3);
  std::printf("monitoring: reconciles: %s\n", reconciles(mgr).c_str());
  std::printf("monitoring: manager RSS %.1f MB (%.1f MB with the objects cached, before the Prometheus)\n", bench::rss_bytes_of(mgr.pid()) / 1e6,
              idle_rss);
  if (std::getenv("CAPSTAN_BENCH_LOGS")) std::fprintf(stderr, "manager log:\n%s\n", mgr.logs().c_str());
  mgr.stop();
  s.proc->stop();
  return latencies.size() == kChanges ? 0 : 1;
}
