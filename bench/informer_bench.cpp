// Informer figures, Capstan against the peer @kubernetes/client-node, in one run on the same
// server and the same data: 10,000 ConfigMaps of about 2 KB.
//   - sync: time from start to every object in the cache
//   - memory: resident bytes per cached object (process RSS growth / objects)
//   - watch: events per second handled while catching up on 20,000 updates made while the
//     informer was stopped (it resumes from its resourceVersion; the server replays at full speed)
// Each informer runs in its own process (bench/informer_peer, node bench/peer/informer.mjs).
#include "bench/cluster_client.h"

#include <atomic>
#include <cstdio>
#include <filesystem>
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
  r.ok = objects == static_cast<std::size_t>(kObjects);
  if (!r.ok) r.error = "cached " + std::to_string(objects) + " objects";
  p.stop(std::chrono::seconds(5));
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

  std::vector<PeerResult> results;
  results.push_back(run_peer("capstan", {build + "/bin/informer_peer", s.kubeconfig, "bench", std::to_string(kObjects)}, s, 1));
  std::string peer_script = source + "/bench/peer/informer.mjs";
  if (std::filesystem::exists(source + "/bench/peer/node_modules/@kubernetes/client-node")) {
    results.push_back(run_peer("client-node", {"/usr/bin/env", "node", "--expose-gc", peer_script, s.kubeconfig, "bench",
                                               std::to_string(kObjects)},
                               s, 2));
  } else {
    PeerResult missing;
    missing.name = "client-node";
    missing.error = "not installed (scripts/deps.sh runs npm install in bench/peer)";
    results.push_back(missing);
  }
  std::printf("%-12s %12s %22s %14s %16s\n", "informer", "sync (s)", "RSS bytes per object", "x JSON size", "watch events/s");
  for (const auto& r : results) {
    if (!r.error.empty() && !r.ok) {
      std::printf("%-12s %s\n", r.name.c_str(), r.error.c_str());
      continue;
    }
    std::printf("%-12s %12.3f %22.0f %14.2f %16.0f\n", r.name.c_str(), r.sync_s, r.bytes_per_object, r.bytes_per_object / avg_json,
                r.events_per_s);
  }
  if (results.size() == 2 && results[0].ok && results[1].ok) {
    const auto& a = results[0];
    const auto& b = results[1];
    std::printf("capstan vs client-node: sync %.1fx faster, %.1fx less memory per object, %.1fx more watch events/s\n",
                b.sync_s / a.sync_s, b.bytes_per_object / a.bytes_per_object, a.events_per_s / b.events_per_s);
    std::printf("targets: sync <= 1 s: %s; memory <= 1.5x JSON: %s; >= 3x the peer on each: %s\n", a.sync_s <= 1.0 ? "met" : "MISSED",
                a.bytes_per_object <= 1.5 * avg_json ? "met" : "MISSED",
                (b.sync_s / a.sync_s >= 3 && b.bytes_per_object / a.bytes_per_object >= 3 && a.events_per_s / b.events_per_s >= 3) ? "met" : "MISSED");
  }
  s.proc->stop();
  return 0;
}
