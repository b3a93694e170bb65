// The idle manager: resident memory of `capstan manager` with every controller enabled, once
// its caches synced, against a `capstan apiserver` holding unrelated objects it must not cache
// (Secrets and ConfigMaps that are not its own).
#include "bench/cluster_client.h"
#include "testing/kubectl.h"
#include "testing/manager_process.h"

#include <cstdio>
#include <thread>

using namespace capstan;

int main(int argc, char** argv) {
  std::string bin = argc > 1 ? argv[1] : "build/bin/capstan";
  const int kForeign = 500;
  auto s = bench::start_server(bin);
  bench::install_crds(bin, s);
  http::Client admin(s.client_options);
  for (int i = 0; i < kForeign; ++i) {
    admin.request("POST", s.url + "/api/v1/namespaces/default/secrets", {{"Content-Type", "application/json"}},
                  R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"foreign-)" + std::to_string(i) +
                      R"("},"stringData":{"password":"not the manager's business"}})");
    admin.request("POST", s.url + "/api/v1/namespaces/default/configmaps", {{"Content-Type", "application/json"}},
                  bench::configmap_json("default", "foreign-" + std::to_string(i), 2048));
  }
  // Each controller alone (what it adds), then all of them (the target).
  for (std::string controllers : {"certificates", "monitoring", "kafka", "gitops", "*"}) {
    e2e::ManagerProcess mgr(*s.dir, s.kubeconfig, {"--controllers=" + controllers}, "manager-" + (controllers == "*" ? "all" : controllers));
    mgr.start();
    bool ready = e2e::eventually([&] { return e2e::http_get(mgr.health_port(), "/readyz").first == 200; }, std::chrono::seconds(30));
    std::this_thread::sleep_for(std::chrono::seconds(3));
    std::size_t rss = bench::rss_bytes_of(mgr.pid());
    if (controllers == "*")
      std::printf("idle manager (every controller, caches synced, %d foreign Secrets and ConfigMaps): %.1f MB resident (target <= 25 MB)%s\n",
                  kForeign, rss / 1e6, ready && mgr.running() ? "" : " -- the manager is not ready; see its log");
    else
      std::printf("idle manager, --controllers=%s only: %.1f MB resident%s\n", controllers.c_str(), rss / 1e6,
                  ready && mgr.running() ? "" : " -- the manager is not ready; see its log");
    mgr.stop();
  }
  s.proc->stop();
  return 0;
}
