// Informer figures, Capstan against three peers, each run on the same server and the same data
// (10,000 ConfigMaps of about 2 KB): @kubernetes/client-node, client-go's SharedIndexInformer
// and controller-runtime's cache (the last two built from tools/go.mod's pinned release).
//   - sync: time from start to every object in the cache
//   - memory: resident bytes per cached object (process RSS growth / objects)
//   - watch: events per second handled while catching up on 20,000 updates made while the
//     informer was paused (it resumes from its resourceVersion; the server replays at full speed)
// Each informer runs in its own process, speaking one line protocol (bench/informer_peer.cpp):
// bench/informer_peer, node bench/peer/informer.mjs, and informer-peer-client-go and
// informer-peer-controller-runtime from scripts/tools.sh (tools/informer-peers/). A peer that
// is not installed or not built is reported as such, with the command that provides it.
// Capstan's ratio against each peer follows the table; the target is >= 3x every peer on each.
#include "bench/cluster_client.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

using namespace capstan;

namespace {

constexpr int kObjects = 10000;
constexpr int kUpdates = 20000;
constexpr std::size_t kObjectBytes = 2048;

struct PeerResult {
  std::string name;
  bool ok = false;
  double sync_s = 0, bytes_per_object = 0, events_per_s = 0;
  std::string error;
};

std::optional<std::string> wait_line(e2e::Process& p, const std::string& prefix, std::chrono::seconds timeout) {
  std::optional<std::string> found;
  e2e::eventually(
      [&] {
        std::istringstream in(p.out());
        std::string line;
        while (std::getline(in, line))
          if (line.rfind(prefix, 0) == 0) {
            found = line;
            return true;
          }
        return !p.running();
      },
      timeout, std::chrono::milliseconds(5));
  return found;
}

void run_writers(int threads, int total, const std::function<void(http::Client&, int)>& op, const http::ClientOptions& co) {
  std::atomic<int> next{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < threads; ++t) {
    ts.emplace_back([&] {
      http::Client c(co);
      for (int i; (i = next++) < total;) op(c, i);
    });
  }
  for (auto& t : ts) t.join();
}

PeerResult run_peer(const std::string& name, std::vector<std::string> args, bench::ServerUnderTest& s, int round) {
  PeerResult r;
  r.name = name;
  e2e::Process::Options po;
  po.args = std::move(args);
  po.interactive_stdin = true;
  e2e::Process p(po);
  auto synced = wait_line(p, "synced ", std::chrono::seconds(180));
  if (!synced) {
    r.error = "did not sync: " + p.err().substr(0, 500);
    return r;
  }
  std::istringstream ss(synced->substr(7));
  std::size_t objects = 0;
  ss >> r.sync_s >> r.bytes_per_object >> objects;
  std::string coll = s.url + "/api/v1/namespaces/bench/configmaps/";
  run_writers(4, kUpdates, [&](http::Client& c, int i) {
    c.request("PATCH", coll + "cm-" + std::to_string(i % kObjects), {{"Content-Type", "application/merge-patch+json"}},
              R"({"metadata":{"annotations":{"round":")" + std::to_string(round) + "-" + std::to_string(i) + "\"}}}");
  }, s.client_options);
  p.write_stdin("resume " + std::to_string(kUpdates) + "\n");
  auto events = wait_line(p, "events ", std::chrono::seconds(180));
  if (!events) {
    r.error = "did not finish the watch: " + p.err().substr(0, 500);
    return r;
  }
  std::istringstream es(events->substr(7));
  es >> r.events_per_s;
  std::printf("%s watch: %s\n", name.c_str(), events->c_str());
  r.ok = objects == static_cast<std::size_t>(kObjects) + 1;  // the bench ConfigMaps and kube-root-ca.crt
  if (!r.ok) r.error = "cached " + std::to_string(objects) + " objects";
  p.stop(std::chrono::seconds(5));
  return r;
}

// A Go peer from scripts/tools.sh: $CAPSTAN_TOOLS_DIR/bin, else <source>/.tools/bin.
std::optional<std::string> built_tool(const std::string& source, const std::string& name) {
  std::vector<std::string> dirs;
  if (const char* t = std::getenv("CAPSTAN_TOOLS_DIR"); t && *t) dirs.push_back(std::string(t) + "/bin");
  dirs.push_back(source + "/.tools/bin");
  for (const auto& d : dirs)
    if (std::filesystem::exists(d + "/" + name)) return d + "/" + name;
  return std::nullopt;
}

PeerResult missing_peer(const std::string& name, const std::string& why) {
  PeerResult r;
  r.name = name;
  r.error = why;
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  std::string build = argc > 1 ? argv[1] : "build";
  std::string source = argc > 2 ? argv[2] : ".";
  auto s = bench::start_server(build + "/bin/capstan", {"--watch-history", "200000"});
  http::Client admin(s.client_options);
  admin.request("POST", s.url + "/api/v1/namespaces", {{"Content-Type", "application/json"}},
                R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"bench"}})");
  std::string coll = s.url + "/api/v1/namespaces/bench/configmaps";
  // As in any cluster, the namespace gets its kube-root-ca.crt: the informers cache it too.
  for (int i = 0; i < 200 && admin.request("GET", coll + "/kube-root-ca.crt", {}, "").status != 200; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::size_t json_bytes = 0;
  std::mutex mu;
  run_writers(4, kObjects, [&](http::Client& c, int i) {
    auto body = bench::configmap_json("bench", "cm-" + std::to_string(i), kObjectBytes);
    auto res = c.request("POST", coll, {{"Content-Type", "application/json"}}, body);
    std::lock_guard<std::mutex> l(mu);
    json_bytes += res.body.size();
  }, s.client_options);
  double avg_json = static_cast<double>(json_bytes) / kObjects;
  std::printf("informer data: %d ConfigMaps, %.0f bytes of JSON each as the server returns them\n", kObjects, avg_json);

  // Each peer's updates carry its round, so every one of them is a real change.
  const std::string expected = std::to_string(kObjects + 1);  // with kube-root-ca.crt
  std::vector<PeerResult> results;
  results.push_back(run_peer("capstan", {build + "/bin/informer_peer", s.kubeconfig, "bench", expected}, s, 1));
  if (std::filesystem::exists(source + "/bench/peer/node_modules/@kubernetes/client-node")) {
    results.push_back(run_peer("client-node", {"/usr/bin/env", "node", "--expose-gc", source + "/bench/peer/informer.mjs", s.kubeconfig,
                                               "bench", expected},
                               s, 2));
  } else {
    results.push_back(missing_peer("client-node", "not installed (scripts/deps.sh runs npm install in bench/peer)"));
  }
  const std::pair<const char*, const char*> go_peers[] = {{"client-go", "informer-peer-client-go"},
                                                          {"ctrl-runtime", "informer-peer-controller-runtime"}};
  int round = 3;
  for (const auto& [name, tool] : go_peers) {
    if (auto path = built_tool(source, tool)) {
      results.push_back(run_peer(name, {*path, s.kubeconfig, "bench", expected}, s, round++));
    } else {
      results.push_back(missing_peer(name, std::string("not built (build it with: scripts/tools.sh ") + tool + ")"));
    }
  }

  std::printf("\n%-13s %10s %22s %12s %16s\n", "informer", "sync (s)", "RSS bytes per object", "x JSON size", "watch events/s");
  for (const auto& r : results) {
    if (!r.ok) {
      std::printf("%-13s %s\n", r.name.c_str(), r.error.c_str());
      continue;
    }
    std::printf("%-13s %10.3f %22.0f %12.2f %16.0f\n", r.name.c_str(), r.sync_s, r.bytes_per_object, r.bytes_per_object / avg_json,
                r.events_per_s);
  }
  const auto& a = results[0];
  if (!a.ok) {
    s.proc->stop();
    return 1;
  }
  // Capstan's ratio against each peer: > 1 is Capstan ahead; the target is >= 3 on each figure.
  std::printf("\n%-13s %12s %22s %18s\n", "capstan vs", "sync", "memory per object", "watch events/s");
  std::string short_of;  // the figures below 3x
  int compared = 0;
  auto cell = [](double ratio, const char* word) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1fx %s", ratio, word);
    return std::string(buf);
  };
  for (std::size_t i = 1; i < results.size(); ++i) {
    const auto& b = results[i];
    if (!b.ok) continue;
    ++compared;
    const std::pair<const char*, double> ratios[] = {{"sync", b.sync_s / a.sync_s},
                                                     {"memory", b.bytes_per_object / a.bytes_per_object},
                                                     {"watch", a.events_per_s / b.events_per_s}};
    std::printf("%-13s %12s %22s %18s\n", b.name.c_str(), cell(ratios[0].second, "faster").c_str(), cell(ratios[1].second, "less").c_str(),
                cell(ratios[2].second, "more").c_str());
    for (const auto& [figure, ratio] : ratios) {
      if (ratio >= 3) continue;
      char buf[96];
      std::snprintf(buf, sizeof buf, "%s%s %s %.1fx", short_of.empty() ? "" : ", ", b.name.c_str(), figure, ratio);
      short_of += buf;
    }
  }
  std::string ran = std::to_string(compared) + " of " + std::to_string(results.size() - 1) + " peers ran";
  std::string vs_peers = compared == 0 ? "no peer ran" : short_of.empty() ? "met (" + ran + ")" : "MISSED (" + short_of + "; " + ran + ")";
  std::printf("\ntargets: sync <= 1 s: %s; memory <= 1.5x JSON: %s; >= 3x every peer on each figure: %s\n",
              a.sync_s <= 1.0 ? "met" : "MISSED", a.bytes_per_object <= 1.5 * avg_json ? "met" : "MISSED", vs_peers.c_str());
  s.proc->stop();
  return 0;
}
