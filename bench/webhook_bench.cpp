// Admission webhooks under load: AdmissionReviews per second and latency over TLS with
// keep-alive, Capstan's webhook server (bench/webhook_peer: the manager's server with the
// certificates webhooks) beside controller-runtime's (tools/webhook-peer, Go, pinned), each
// validating the same Certificate, driven by wrk in the same run on the same machine. Two
// setups: server and wrk sharing every core (what the machine gives), then each on a core of
// its own (taskset: the server on CPU 1, wrk on CPU 0), where the rate is the server's own
// capacity on one core rather than a share of the CPU it wins from wrk.
//
//   webhook_bench BUILD_DIR [SECONDS] [CONNECTIONS]
#include "bench/cluster_client.h"
#include "testing/cluster.h"
#include "testing/process.h"
#include "runtime/pki/pki.h"

#include <chrono>
#include <cstdio>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>

using namespace capstan;

namespace {

constexpr const char* kPath = "/validate-certs-capstan-dev-v1-certificate";

// An AdmissionReview v1 for CREATE of a valid Certificate, as kube-apiserver sends it.
std::string review(bool valid) {
  std::string duration = valid ? "2160h" : "30m";
  return R"({"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"705ab4f5-6393-11e8-b7cc-42010a800002",)"
         R"("kind":{"group":"certs.capstan.dev","version":"v1","kind":"Certificate"},)"
         R"("resource":{"group":"certs.capstan.dev","version":"v1","resource":"certificates"},)"
         R"("requestKind":{"group":"certs.capstan.dev","version":"v1","kind":"Certificate"},)"
         R"("requestResource":{"group":"certs.capstan.dev","version":"v1","resource":"certificates"},)"
         R"("name":"web","namespace":"shop","operation":"CREATE","userInfo":{"username":"admin","groups":["system:masters","system:authenticated"]},)"
         R"("object":{"apiVersion":"certs.capstan.dev/v1","kind":"Certificate","metadata":{"name":"web","namespace":"shop",)"
         R"("labels":{"app":"web","team":"shop"},"annotations":{"example.com/owner":"shop"}},)"
         R"("spec":{"secretName":"web-tls","commonName":"web.shop.svc","dnsNames":["web.shop.svc","web.shop.svc.cluster.local","web.example.com"],)"
         R"("duration":")" + duration + R"(","renewBefore":"360h","privateKey":{"algorithm":"ECDSA","size":256,"rotationPolicy":"Always"},)"
         R"("usages":["digital signature","key encipherment","server auth"],"issuerRef":{"name":"example-ca","kind":"ClusterIssuer","group":"certs.capstan.dev"}}},)"
         R"("oldObject":null,"dryRun":false,"options":{"apiVersion":"meta.k8s.io/v1","kind":"CreateOptions"}}})";
}

struct Peer {
  std::string name;
  std::unique_ptr<e2e::Process> proc;
  int port = 0;
};

Peer start_peer(const std::string& name, std::vector<std::string> args) {
  Peer p{name, nullptr, 0};
  e2e::Process::Options o;
  o.args = std::move(args);
  p.proc = std::make_unique<e2e::Process>(o);
  std::regex listening("listening ([0-9]+)");
  e2e::eventually(
      [&] {
        std::smatch m;
        std::string out = p.proc->out();
        if (std::regex_search(out, m, listening)) p.port = std::stoi(m[1]);
        return p.port != 0 || !p.proc->running();
      },
      std::chrono::seconds(20));
  if (p.port == 0) std::fprintf(stderr, "%s did not start: %s\n", name.c_str(), p.proc->err().c_str());
  return p;
}

// curl's answer for one review: the "allowed" member, to check both peers agree before timing.
std::string allowed(const Peer& p, const std::string& ca, const std::string& body) {
  auto r = e2e::run({"curl", "-sS", "--cacert", ca, "-H", "Content-Type: application/json", "--data-binary", "@-",
                     "https://127.0.0.1:" + std::to_string(p.port) + kPath},
                    {}, body, std::chrono::seconds(10));
  std::smatch m;
  std::regex re("\"allowed\"\\s*:\\s*(true|false)");
  return std::regex_search(r.out, m, re) ? m[1].str() : "no answer: " + r.out + r.err;
}

struct Figures {
  double rps = 0, p50_ms = 0, p99_ms = 0;
  double cpu_us_per_review = 0;  // the server's CPU time (user + system) per review answered
  long errors = 0;
  bool ok = false;
};

double to_ms(const std::string& value, const std::string& unit) {
  double v = std::stod(value);
  if (unit == "us") return v / 1000;
  if (unit == "s") return v * 1000;
  return v;  // ms
}

// The command prefix that keeps a process on `cpu` ({} when the machine has a single core).
std::vector<std::string> on_cpu(int cpu) {
  if (sysconf(_SC_NPROCESSORS_ONLN) < 2) return {};
  return {"taskset", "-c", std::to_string(cpu)};
}

Figures load(const Peer& p, const std::string& script, int seconds, int connections, std::vector<std::string> prefix = {}) {
  const double cpu_before = bench::cpu_seconds_of(p.proc->pid());
  std::vector<std::string> args = std::move(prefix);
  for (const std::string& a : {std::string("wrk"), std::string("-t2"), "-c" + std::to_string(connections),
                               "-d" + std::to_string(seconds) + "s", std::string("--latency"), std::string("-s"), script,
                               "https://127.0.0.1:" + std::to_string(p.port) + kPath})
    args.push_back(a);
  auto r = e2e::run(args, {}, {}, std::chrono::seconds(seconds + 30));
  Figures f;
  std::smatch m;
  if (std::regex_search(r.out, m, std::regex("Requests/sec:\\s*([0-9.]+)"))) f.rps = std::stod(m[1]);
  if (std::regex_search(r.out, m, std::regex("\\n\\s*50%\\s+([0-9.]+)(us|ms|s)"))) f.p50_ms = to_ms(m[1], m[2]);
  if (std::regex_search(r.out, m, std::regex("\\n\\s*99%\\s+([0-9.]+)(us|ms|s)"))) f.p99_ms = to_ms(m[1], m[2]);
  if (std::regex_search(r.out, m, std::regex("Non-2xx or 3xx responses:\\s*([0-9]+)"))) f.errors += std::stol(m[1]);
  if (std::regex_search(r.out, m, std::regex("Socket errors: connect ([0-9]+), read ([0-9]+), write ([0-9]+), timeout ([0-9]+)")))
    f.errors += std::stol(m[1]) + std::stol(m[2]) + std::stol(m[3]) + std::stol(m[4]);
  f.ok = r.code == 0 && f.rps > 0;
  if (f.ok) f.cpu_us_per_review = (bench::cpu_seconds_of(p.proc->pid()) - cpu_before) * 1e6 / (f.rps * seconds);
  if (!f.ok) std::fprintf(stderr, "wrk against %s failed:\n%s%s\n", p.name.c_str(), r.out.c_str(), r.err.c_str());
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  std::string build = argc > 1 ? argv[1] : "build";
  int seconds = argc > 2 ? std::stoi(argv[2]) : 10;
  int connections = argc > 3 ? std::stoi(argv[3]) : 32;
  e2e::TempDir dir("webhook-bench");
  auto ca_key = pki::PrivateKey::generate(pki::KeyAlgorithm::ECDSA);
  auto ca = pki::self_signed_ca("webhook-bench-ca", std::chrono::hours(24), ca_key);
  auto serving = pki::serving_certificate({"127.0.0.1"}, ca, ca_key, std::chrono::hours(24));
  e2e::write_file(dir.file("tls.crt"), serving.certificate.to_pem());
  e2e::write_file(dir.file("tls.key"), serving.key.to_pem(pki::KeyEncoding::PKCS8));
  e2e::write_file(dir.file("ca.crt"), ca.to_pem());
  // wrk sends the same review on every keep-alive connection.
  std::string body = review(true), escaped;
  for (char c : body) escaped += (c == '\\' || c == '"') ? std::string("\\") + c : std::string(1, c);
  e2e::write_file(dir.file("review.lua"), "wrk.method = \"POST\"\nwrk.headers[\"Content-Type\"] = \"application/json\"\nwrk.body = \"" +
                                              escaped + "\"\n");

  const std::vector<std::string> capstan_cmd{build + "/bin/webhook_peer", dir.path()};
  const std::vector<std::string> cr_cmd{e2e::tools_bin_dir() + "/webhook-peer-controller-runtime", "--cert-dir", dir.path()};
  std::printf("AdmissionReviews over TLS with keep-alive, wrk -t2 -c%d, %d s each, one Certificate validated per review\n", connections,
              seconds);
  // Shared cores, then a core each: the servers are started anew for each setup, so that each
  // sizes itself (GOMAXPROCS, I/O threads) to the CPUs it is given.
  for (bool pinned : {false, true}) {
    if (pinned && on_cpu(1).empty()) break;
    std::vector<Peer> peers;
    for (const auto& [name, cmd] : {std::pair{"capstan", capstan_cmd}, std::pair{"controller-runtime", cr_cmd}}) {
      std::vector<std::string> args = pinned ? on_cpu(1) : std::vector<std::string>{};
      args.insert(args.end(), cmd.begin(), cmd.end());
      peers.push_back(start_peer(name, args));
    }
    std::vector<Figures> figures;
    for (const auto& p : peers) {
      if (p.port == 0) return 1;
      // Both validate alike: the valid review is allowed, the 30-minute one denied.
      std::string yes = allowed(p, dir.file("ca.crt"), review(true)), no = allowed(p, dir.file("ca.crt"), review(false));
      if (yes != "true" || no != "false") {
        std::fprintf(stderr, "%s answers wrongly: valid -> %s, invalid -> %s\n", p.name.c_str(), yes.c_str(), no.c_str());
        return 1;
      }
      const auto wrk_prefix = pinned ? on_cpu(0) : std::vector<std::string>{};
      load(p, dir.file("review.lua"), 2, connections, wrk_prefix);  // warm-up
      figures.push_back(load(p, dir.file("review.lua"), seconds, connections, wrk_prefix));
    }
    std::printf("\n%s\n", pinned ? "each on a core of its own (server: CPU 1, wrk: CPU 0)" : "server and wrk sharing both cores");
    std::printf("%-20s %12s %9s %9s %18s %7s\n", "server", "reviews/s", "p50 ms", "p99 ms", "CPU us per review", "errors");
    for (std::size_t i = 0; i < peers.size(); ++i)
      std::printf("%-20s %12.0f %9.3f %9.3f %18.1f %7ld\n", peers[i].name.c_str(), figures[i].rps, figures[i].p50_ms, figures[i].p99_ms,
                  figures[i].cpu_us_per_review, figures[i].errors);
    if (figures.size() == 2 && figures[1].rps > 0 && figures[0].cpu_us_per_review > 0)
      std::printf("capstan / controller-runtime: %.2fx the reviews per second, %.2fx less CPU per review, %.1fx lower p99 "
                  "(targets: >= 20,000/s, p99 < 2 ms, >= 3x)\n",
                  figures[0].rps / figures[1].rps, figures[1].cpu_us_per_review / figures[0].cpu_us_per_review,
                  figures[1].p99_ms / figures[0].p99_ms);
    for (auto& p : peers) p.proc->stop();
  }
  return 0;
}
