// The gitops controller at scale, against a `capstan apiserver` and a `git daemon`: one repository
// applied by many Kustomizations. For each shape it prints the first sync (apply to every
// Kustomization Ready), an idle re-sync (reconciles over a minute of intervals: the manager's CPU,
// the request bodies, apply requests and API requests it sent), the
// time from a commit to the changed object in the API server, and the manager's resident memory.
//
//   - the issue's shape: 2,000 objects (ConfigMaps and Secrets) in 20 directories, one
//     Kustomization each;
//   - flux-benchmark's shape: 500 Kustomizations of 4 objects (ServiceAccount, Service,
//     Deployment scaled to zero, Ingress), whose Flux figures are published (fluxcd/flux-benchmark
//     RESULTS.md, Flux v2.6.0 on a 16-core runner with kind: 500 Kustomizations Ready in 2m2s,
//     kustomize-controller at most 122 MiB; source-controller beside it, 65 MiB).
#include "bench/cluster_client.h"
#include "runtime/json/json.h"
#include "testing/git.h"
#include "testing/kubectl.h"
#include "testing/manager_process.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace capstan;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

std::string pad(int i, int width) {
  std::string s = std::to_string(i);
  return std::string(width - std::min<int>(width, static_cast<int>(s.size())), '0') + s;
}

struct Shape {
  std::string title;
  int kustomizations;
  // The files of directory apps/<i>, for Kustomization i; `generation` varies one object.
  std::function<std::vector<std::pair<std::string, std::string>>(int i, int generation)> files;
  int objects_per;
  std::string changed_kind, changed_name, changed_jsonpath;  // what the commit changes, in Kustomization 0
};

// ConfigMaps config-<first>..config-<first+count-1> of ~0.5 KB; config-000 carries `generation`.
std::string config_maps(int i, int first, int count, int generation) {
  std::string out;
  for (int j = first; j < first + count; ++j) {
    std::string value(400, static_cast<char>('a' + (i + j) % 26));
    out += "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config-" + pad(j, 3) + "\ndata:\n  generation: \"" +
           std::to_string(j == 0 ? generation : 0) + "\"\n  payload: " + value + "\n";
  }
  return out;
}

std::string secrets(int i, int count) {
  std::string out;
  for (int j = 0; j < count; ++j)
    out += "---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: secret-" + pad(j, 3) + "\nstringData:\n  token: t" + std::to_string(i * 1000 + j) +
           "\n";
  return out;
}

Shape issue_shape() {
  Shape s;
  s.title = "2,000 objects in 20 Kustomizations (90 ConfigMaps of ~0.5 KB and 10 Secrets each)";
  s.kustomizations = 20;
  s.objects_per = 100;
  s.files = [](int i, int generation) {
    std::vector<std::pair<std::string, std::string>> files;
    for (int f = 0; f < 9; ++f) files.emplace_back("configs-" + std::to_string(f) + ".yaml", config_maps(i, f * 10, 10, generation));
    files.emplace_back("secrets.yaml", secrets(i, 10));
    return files;
  };
  s.changed_kind = "configmap";
  s.changed_name = "config-000";
  s.changed_jsonpath = "{.data.generation}";
  return s;
}

Shape flux_benchmark_shape() {
  Shape s;
  s.title = "500 Kustomizations of 4 objects (flux-benchmark's app: ServiceAccount, Service, Deployment at 0 replicas, Ingress)";
  s.kustomizations = 500;
  s.objects_per = 4;
  s.files = [](int i, int generation) {
    const std::string name = "app-" + std::to_string(i);
    std::string text = "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: " + name + "}\n---\n"
                       "apiVersion: v1\nkind: Service\nmetadata: {name: " + name + "}\nspec:\n  selector: {app: " + name +
                       "}\n  ports: [{name: http, port: 9898, targetPort: 9898}]\n---\n"
                       "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: " + name + "}\nspec:\n  replicas: 0\n  selector:\n"
                       "    matchLabels: {app: " + name + "}\n  template:\n    metadata:\n      labels: {app: " + name +
                       "}\n      annotations: {generation: \"" + std::to_string(generation) + "\"}\n    spec:\n      serviceAccountName: " + name +
                       "\n      containers:\n      - name: podinfo\n        image: ghcr.io/stefanprodan/podinfo:6.7.1\n"
                       "        ports: [{containerPort: 9898}]\n---\n"
                       "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: " + name + "}\nspec:\n  rules:\n"
                       "  - host: " + name + ".example.com\n    http:\n      paths:\n      - path: /\n        pathType: Prefix\n"
                       "        backend: {service: {name: " + name + ", port: {number: 9898}}}\n";
    return std::vector<std::pair<std::string, std::string>>{{"app.yaml", text}};
  };
  s.changed_kind = "deployment";
  s.changed_name = "app-0";
  s.changed_jsonpath = "{.spec.template.metadata.annotations.generation}";
  return s;
}

int run_shape(const std::string& bin, const Shape& shape) {
  auto s = bench::start_server(bin);
  bench::install_crds(bin, s);
  e2e::Kubectl kubectl(*s.dir, s.kubeconfig);
  const std::string git_base = s.dir->file("git");
  std::filesystem::create_directories(git_base);
  e2e::GitRepo repo(git_base, "fleet");
  e2e::GitDaemon daemon(git_base);
  daemon.start();
  for (int i = 0; i < shape.kustomizations; ++i)
    for (const auto& [name, text] : shape.files(i, 0)) repo.write("apps/" + pad(i, 3) + "/" + name, text);
  repo.commit("fleet");

  std::string namespaces;
  for (int i = 0; i < shape.kustomizations; ++i) namespaces += "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: team-" + pad(i, 3) + "}\n";
  kubectl.ok({"apply", "-f", "-"}, namespaces);

  e2e::ManagerProcess mgr(*s.dir, s.kubeconfig,
                          {"--controllers=gitops", "--gitops-storage-path=" + s.dir->file("mirrors"), "--kube-api-qps=500",
                           "--kube-api-burst=1000"},
                          "manager-gitops");
  mgr.start();

  // Idle intervals of 20 s: a minute holds three of each Kustomization's.
  std::string sources = "apiVersion: gitops.capstan.dev/v1\nkind: GitRepository\nmetadata: {name: fleet, namespace: default}\nspec:\n  url: " +
                        daemon.url("fleet") + "\n  interval: 1s\n  ref: {branch: main}\n";
  for (int i = 0; i < shape.kustomizations; ++i)
    sources += "---\napiVersion: gitops.capstan.dev/v1\nkind: Kustomization\nmetadata: {name: app-" + pad(i, 3) +
               ", namespace: default}\nspec:\n  sourceRef: {kind: GitRepository, name: fleet}\n  interval: 20s\n  path: apps/" + pad(i, 3) +
               "\n  prune: true\n  targetNamespace: team-" + pad(i, 3) + "\n";
  const double cpu_start = bench::cpu_seconds_of(mgr.pid());
  const auto t0 = Clock::now();
  kubectl.ok({"apply", "-f", "-"}, sources);
  auto ready_count = [&] {
    std::string statuses = kubectl.ok({"get", "ks", "-n", "default", "-o", "jsonpath={.items[*].status.conditions[?(@.type==\"Ready\")].status}"});
    int n = 0;
    for (std::size_t at = statuses.find("True"); at != std::string::npos; at = statuses.find("True", at + 1)) ++n;
    return n;
  };
  const bool synced = e2e::eventually([&] { return ready_count() == shape.kustomizations; }, std::chrono::minutes(10), std::chrono::milliseconds(200));
  const double first_sync = seconds(Clock::now() - t0);
  const double first_cpu = bench::cpu_seconds_of(mgr.pid()) - cpu_start;
  const std::size_t rss_synced = bench::rss_bytes_of(mgr.pid());
  std::printf("gitops [%s]\n", shape.title.c_str());
  if (!synced) {
    std::printf("  first sync did not finish: %d of %d Kustomizations Ready after 10 minutes\n", ready_count(), shape.kustomizations);
    return 1;
  }
  std::printf("  first sync: %d objects, %d Kustomizations Ready in %.2f s (manager CPU %.2f s, %.2f ms per object)\n",
              shape.kustomizations * shape.objects_per, shape.kustomizations, first_sync, first_cpu,
              first_cpu * 1e3 / (shape.kustomizations * shape.objects_per));

  // Idle: nothing changes for a minute while the intervals run.
  std::this_thread::sleep_for(std::chrono::seconds(2));
  const std::string m0 = mgr.metrics();
  const double cpu0 = bench::cpu_seconds_of(mgr.pid());
  const auto idle_start = Clock::now();
  std::this_thread::sleep_for(std::chrono::seconds(60));
  const double idle_s = seconds(Clock::now() - idle_start);
  const std::string m1 = mgr.metrics();
  const double idle_cpu = bench::cpu_seconds_of(mgr.pid()) - cpu0;
  const double body_bytes = e2e::metric_sum(m1, "rest_client_request_size_bytes_sum") - e2e::metric_sum(m0, "rest_client_request_size_bytes_sum");
  const double reconciles = e2e::metric_sum(m1, "controller_runtime_reconcile_total", "controller=\"kustomizations\"") -
                            e2e::metric_sum(m0, "controller_runtime_reconcile_total", "controller=\"kustomizations\"");
  const double applies = e2e::metric_sum(m1, "capstan_gitops_apply_requests_total") - e2e::metric_sum(m0, "capstan_gitops_apply_requests_total");
  const double not_sent = e2e::metric_sum(m1, "capstan_gitops_apply_unchanged_total") - e2e::metric_sum(m0, "capstan_gitops_apply_unchanged_total");
  std::string by_method;
  for (const char* method : {"GET", "PATCH", "PUT", "POST", "DELETE"}) {
    double n = e2e::metric_sum(m1, "rest_client_requests_total", std::string("method=\"") + method + "\"") -
               e2e::metric_sum(m0, "rest_client_requests_total", std::string("method=\"") + method + "\"");
    if (n > 0) by_method += std::string(by_method.empty() ? "" : ", ") + method + " " + std::to_string(static_cast<long>(n));
  }
  std::printf("  idle re-sync over %.0f s: %.0f reconciles, %.0f objects checked and not sent, %.0f apply requests; manager CPU %.2f s "
              "(%.2f ms per reconcile, %.1f%% of a core); request bodies sent %.1f KB; API requests: %s\n",
              idle_s, reconciles, not_sent, applies, idle_cpu, reconciles > 0 ? idle_cpu * 1e3 / reconciles : 0, idle_cpu * 100 / idle_s,
              body_bytes / 1e3, by_method.empty() ? "none" : by_method.c_str());

  // A commit changing one object of the first Kustomization: time until the API server has it.
  std::vector<double> latencies;
  for (int generation = 1; generation <= 3; ++generation) {
    for (const auto& [name, text] : shape.files(0, generation)) repo.write("apps/000/" + name, text);
    const auto c0 = Clock::now();
    repo.commit("generation " + std::to_string(generation));
    const bool seen = e2e::eventually(
        [&] {
          return kubectl.ok({"get", shape.changed_kind, shape.changed_name, "-n", "team-000", "-o", "jsonpath=" + shape.changed_jsonpath}) ==
                 std::to_string(generation);
        },
        std::chrono::seconds(60), std::chrono::milliseconds(20));
    if (seen) latencies.push_back(seconds(Clock::now() - c0));
  }
  std::sort(latencies.begin(), latencies.end());
  std::printf("  commit to applied (GitRepository interval 1s, commit pushed to git daemon): median %.2f s of %zu (min %.2f, max %.2f)\n",
              latencies.empty() ? 0 : latencies[latencies.size() / 2], latencies.size(), latencies.empty() ? 0 : latencies.front(),
              latencies.empty() ? 0 : latencies.back());
  std::printf("  manager resident memory: %.1f MB after the first sync, %.1f MB now\n", rss_synced / 1e6, bench::rss_bytes_of(mgr.pid()) / 1e6);
  mgr.stop();
  daemon.stop();
  s.proc->stop();
  return latencies.size() == 3 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string bin = argc > 1 ? argv[1] : "build/bin/capstan";
  int rc = run_shape(bin, issue_shape());
  rc |= run_shape(bin, flux_benchmark_shape());
  std::printf("flux-benchmark (published, Flux v2.6.0, 16-core runner, kind): 500 Kustomizations of the same 4 objects Ready in 2m2s; "
              "kustomize-controller at most 122 MiB, source-controller 65 MiB\n");
  return rc;
}
