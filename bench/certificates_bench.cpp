// The certificates controller: time to Ready for 1,000 ECDSA P-256 Certificates from a CA
// Issuer (total, p50, p99), the manager's CPU-seconds per certificate and that cost in units of
// `openssl speed ecdsap256` signatures on this machine; RSA-2048 key generation on its own.
// The manager's client rate limit (--kube-api-qps, 20 by default as cert-manager's) is raised
// above what the run needs: a certificate takes about nine writes plus its Events, so at 500
// queries per second 1,000 of them would wait 15 s on the limiter alone. The requests per
// certificate and the time spent waiting on the limiter are printed.
#include "bench/cluster_client.h"
#include "testing/kubectl.h"
#include "testing/manager_process.h"
#include "runtime/json/decode.h"
#include "runtime/json/json.h"
#include "runtime/pki/key.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

using namespace capstan;
using Clock = std::chrono::steady_clock;

namespace {

// 1,000 by default; CAPSTAN_BENCH_CERTIFICATES=10000 for the issue's larger run (target < 60 s).
int certificate_count() {
  const char* v = std::getenv("CAPSTAN_BENCH_CERTIFICATES");
  int n = v ? std::atoi(v) : 1000;
  return n >= 1 && n <= 100000 ? n : 1000;
}
constexpr int kWriters = 4;
// 30,000 by default; CAPSTAN_BENCH_UNRELATED_SECRETS=0 leaves them out (a profile of issuance alone).
int unrelated_secret_count() {
  const char* v = std::getenv("CAPSTAN_BENCH_UNRELATED_SECRETS");
  int n = v ? std::atoi(v) : 30000;
  return n >= 0 && n <= 100000 ? n : 30000;
}
const std::string kQps = "5000", kBurst = "5000";

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// "sign/s" of `openssl speed ecdsap256`.
double openssl_ecdsap256_signs_per_second() {
  auto r = e2e::run({"openssl", "speed", "-seconds", "3", "ecdsap256"});
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find("(nistp256)") == std::string::npos) continue;
    std::istringstream f(line.substr(line.find("(nistp256)") + 10));
    std::string sign_time, verify_time;
    double signs = 0;
    if (f >> sign_time >> verify_time >> signs) return signs;
  }
  return 0;
}

struct Created {
  Clock::time_point created, ready;
  bool is_ready = false;
};

bool ready_in(const json::Value& crt) {
  const auto* conds = json::get_array(crt, {"status", "conditions"});
  if (!conds) return false;
  for (const auto& c : *conds)
    if (json::get_string(c, {"type"}) == "Ready") return json::get_string(c, {"status"}) == "True";
  return false;
}

void apply(e2e::Kubectl& k, const std::string& yaml) { k.ok({"apply", "-f", "-"}, yaml); }

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

// POSTs `count` objects to `collection` from kWriters connections at once; `body(i)` is the i-th.
void create_in_parallel(const bench::ServerUnderTest& s, const std::string& collection, int count, const std::function<std::string(int)>& body) {
  std::atomic<int> next{0};
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w)
    writers.emplace_back([&] {
      http::Client c(s.client_options);
      for (int i = next++; i < count; i = next++) {
        auto r = c.request("POST", collection, {{"Content-Type", "application/json"}}, body(i));
        if (r.status != 201) std::fprintf(stderr, "create %d in %s: HTTP %d %s\n", i, collection.c_str(), r.status, r.body.c_str());
      }
    });
  for (auto& w : writers) w.join();
}

}  // namespace

int main(int argc, char** argv) {
  const int certificates_total = certificate_count();
  std::string bin = argc > 1 ? argv[1] : "build/bin/capstan";
  auto s = bench::start_server(bin);
  bench::install_crds(bin, s);
  e2e::ManagerProcess mgr(*s.dir, s.kubeconfig, {"--kube-api-qps=" + kQps, "--kube-api-burst=" + kBurst});
  mgr.start();
  if (std::getenv("CAPSTAN_BENCH_PIDS")) std::fprintf(stderr, "manager pid %d, apiserver pid %d\n", mgr.pid(), s.proc->pid());
  e2e::Kubectl kubectl(*s.dir, s.kubeconfig);
  kubectl.ok({"create", "namespace", "bench"});
  apply(kubectl, R"(apiVersion: certs.capstan.dev/v1
kind: Issuer
metadata: {name: selfsigned, namespace: bench}
spec: {selfSigned: {}}
---
apiVersion: certs.capstan.dev/v1
kind: Certificate
metadata: {name: ca, namespace: bench}
spec:
  isCA: true
  commonName: bench-ca
  secretName: bench-ca
  privateKey: {algorithm: ECDSA, size: 256}
  issuerRef: {name: selfsigned}
---
apiVersion: certs.capstan.dev/v1
kind: Issuer
metadata: {name: ca, namespace: bench}
spec: {ca: {secretName: bench-ca}}
)");
  bool issuer_ready = e2e::eventually(
      [&] { return kubectl.ok({"get", "issuer", "ca", "-n", "bench", "-o", "jsonpath={.status.conditions[0].status}"}) == "True"; },
      std::chrono::seconds(60));
  if (!issuer_ready) {
    std::fprintf(stderr, "the CA Issuer did not become Ready; manager log:\n%s\n", mgr.logs().c_str());
    return 1;
  }

  // 30,000 Secrets no certificate refers to: cert-manager caches every Secret of the cluster
  // (its users report gigabytes); the manager's RSS must stay within 10 MB of an empty cluster.
  std::this_thread::sleep_for(std::chrono::seconds(2));
  const double rss_empty = bench::rss_bytes_of(mgr.pid()) / 1e6;
  kubectl.ok({"create", "namespace", "unrelated"});
  const std::string value(684, 'A');  // 512 bytes of data, base64
  const int unrelated_secrets = unrelated_secret_count();
  create_in_parallel(s, s.url + "/api/v1/namespaces/unrelated/secrets", unrelated_secrets, [&](int i) {
    return R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"unrelated-)" + std::to_string(i) +
           R"("},"type":"Opaque","data":{"payload":")" + value + R"("}})";
  });
  std::this_thread::sleep_for(std::chrono::seconds(3));
  const double rss_unrelated = bench::rss_bytes_of(mgr.pid()) / 1e6;
  std::printf("certificates: manager RSS %.1f MB with %d unrelated Secrets of 512 bytes, %.1f MB before them (%+.1f MB; target within 10 MB)\n",
              rss_unrelated, unrelated_secrets, rss_empty, rss_unrelated - rss_empty);

  std::mutex mu;
  std::map<std::string, Created> certs;
  std::atomic<int> ready{0};
  std::string coll = s.url + "/apis/certs.capstan.dev/v1/namespaces/bench/certificates";
  http::Client head(s.client_options);
  auto list = head.request("GET", coll);
  json::ListMeta lm;
  json::decode_list(list.body, lm, [](std::string_view) {});
  http::Cancellation cancel;
  std::atomic<bool> watching{false};
  std::thread watcher([&] {
    http::Client c(s.client_options);
    json::WatchDecoder dec([&](json::EventType, std::string_view raw, const json::MetaSummary&) {
      auto obj = json::parse(raw);
      if (!ready_in(obj)) return;
      std::lock_guard<std::mutex> lock(mu);
      auto it = certs.find(std::string(json::get_string(obj, {"metadata", "name"})));
      if (it == certs.end() || it->second.is_ready) return;
      it->second.is_ready = true;
      it->second.ready = Clock::now();
      ++ready;
    }, "certificates bench watch");
    try {
      c.stream("GET", coll + "?watch=1&resourceVersion=" + lm.resource_version, {}, {},
               [&](int, const http::Headers&) { return watching = true; },
               [&](std::string_view d) {
                 dec.feed(d);
                 return true;
               },
               &cancel, std::chrono::seconds(900));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "watch ended: %s\n", e.what());
    }
  });
  while (!watching) std::this_thread::sleep_for(std::chrono::milliseconds(5));

  double cpu0 = bench::cpu_seconds_of(mgr.pid()), server_cpu0 = bench::cpu_seconds_of(s.proc->pid());
  auto t0 = Clock::now();
  create_in_parallel(s, coll, certificates_total, [&](int i) {
    std::string name = "leaf-" + std::to_string(i);
    {
      std::lock_guard<std::mutex> lock(mu);
      certs[name].created = Clock::now();
    }
    return R"({"apiVersion":"certs.capstan.dev/v1","kind":"Certificate","metadata":{"name":")" + name + R"("},"spec":{"secretName":")" + name +
           R"(","dnsNames":[")" + name + R"(.bench.svc"],"privateKey":{"algorithm":"ECDSA","size":256},"issuerRef":{"name":"ca"}}})";
  });
  double created_s = seconds(Clock::now() - t0);
  auto deadline = Clock::now() + std::chrono::minutes(10);
  while (ready < certificates_total && Clock::now() < deadline && mgr.running()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  double total_s = seconds(Clock::now() - t0);
  double cpu = bench::cpu_seconds_of(mgr.pid()) - cpu0, server_cpu = bench::cpu_seconds_of(s.proc->pid()) - server_cpu0;
  cancel.cancel();
  watcher.join();

  std::vector<double> latencies;
  {
    std::lock_guard<std::mutex> lock(mu);
    for (const auto& [name, c] : certs)
      if (c.is_ready) latencies.push_back(seconds(c.ready - c.created));
  }
  int n = ready.load();
  std::printf("certificates: %d/%d ECDSA P-256 Certificates from a CA Issuer Ready in %.2f s (created in %.2f s; manager --kube-api-qps=%s)\n",
              n, certificates_total, total_s, created_s, kQps.c_str());
  std::printf("certificates: time to Ready p50 %.3f s, p99 %.3f s, max %.3f s\n", percentile(latencies, 0.5), percentile(latencies, 0.99),
              percentile(latencies, 1.0));
  double per_cert = n ? cpu / n : 0;
  double signs = openssl_ecdsap256_signs_per_second();
  std::printf("certificates: manager CPU %.2f s = %.2f ms per certificate (API server %.2f ms per certificate)\n", cpu, per_cert * 1e3,
              n ? server_cpu / n * 1e3 : 0);
  if (signs > 0)
    std::printf("certificates: openssl speed ecdsap256 signs %.0f/s (%.3f ms each): one certificate costs the manager %.1f such signatures\n",
                signs, 1e3 / signs, per_cert * signs);
  std::printf("certificates: reconciles per certificate:");
  for (const auto& [controller, total] : e2e::metric_sums_by(mgr.metrics(), "controller_runtime_reconcile_total", "controller", "result=\"success\""))
    std::printf(" %s %.1f", controller.c_str(), total / std::max(n, 1));
  std::printf("\n");
  const std::string metrics = mgr.metrics();
  std::printf("certificates: API requests per certificate:");
  for (const auto& [method, total] : e2e::metric_sums_by(metrics, "rest_client_requests_total", "method"))
    std::printf(" %s %.1f", method.c_str(), total / std::max(n, 1));
  double limiter_wait = 0;
  for (const auto& [verb, seconds] : e2e::metric_sums_by(metrics, "rest_client_rate_limiter_duration_seconds_sum", "verb")) limiter_wait += seconds;
  std::printf("; waiting on the client rate limiter: %.2f s in all\n", limiter_wait);
  const double rss_issued = bench::rss_bytes_of(mgr.pid()) / 1e6;
  std::printf("certificates: manager resident memory after issuing: %.1f MB (%+.1f MB for %d certificates)\n", rss_issued, rss_issued - rss_unrelated, n);

  // RSA-2048 key generation, reported on its own: it dominates RSA issuance.
  constexpr int kRsaKeys = 10;
  auto r0 = Clock::now();
  for (int i = 0; i < kRsaKeys; ++i) pki::PrivateKey::generate(pki::KeyAlgorithm::RSA, 2048);
  std::printf("certificates: RSA-2048 key generation %.3f s per key (mean of %d, in process)\n", seconds(Clock::now() - r0) / kRsaKeys, kRsaKeys);
  mgr.stop();
  s.proc->stop();
  return n == certificates_total ? 0 : 1;
}
