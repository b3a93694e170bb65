// Embedded API server figures: creates/s, the latency of listing 10,000 objects, and watch
// fan-out to 50 watchers (events delivered per second).
#include "bench/cluster_client.h"
#include "runtime/json/decode.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

using namespace capstan;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

void create_namespace(http::Client& c, const std::string& url, const std::string& ns) {
  c.request("POST", url + "/api/v1/namespaces", {{"Content-Type", "application/json"}},
            R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")" + ns + "\"}}");
}

}  // namespace

int main(int argc, char** argv) {
  std::string bin = argc > 1 ? argv[1] : "build/bin/capstan";
  const int kObjects = 10000, kThreads = 4, kWatchers = 50, kUpdates = 2000;
  auto server = bench::start_server(bin);
  http::Client client(server.client_options);
  create_namespace(client, server.url, "bench");
  std::string coll = server.url + "/api/v1/namespaces/bench/configmaps";

  // Creates.
  std::atomic<int> next{0}, failures{0};
  auto t0 = Clock::now();
  std::vector<std::thread> writers;
  for (int t = 0; t < kThreads; ++t) {
    writers.emplace_back([&] {
      http::Client c(server.client_options);
      for (int i; (i = next++) < kObjects;) {
        auto r = c.request("POST", coll, {{"Content-Type", "application/json"}}, bench::configmap_json("bench", "cm-" + std::to_string(i), 2048));
        if (r.status != 201) ++failures;
      }
    });
  }
  for (auto& w : writers) w.join();
  double create_s = seconds_since(t0);
  std::printf("apiserver creates: %d ConfigMaps (~2 KB) with %d clients in %.2f s = %.0f creates/s (%d failed)\n", kObjects, kThreads,
              create_s, kObjects / create_s, failures.load());

  // List latency (whole list, and paged the way informers list).
  std::vector<double> full, paged;
  std::size_t bytes = 0;
  for (int run = 0; run < 5; ++run) {
    auto t1 = Clock::now();
    auto r = client.request("GET", coll, {{"Accept", "application/json"}});
    full.push_back(seconds_since(t1));
    bytes = r.body.size();
    auto t2 = Clock::now();
    std::string cont;
    int items = 0;
    do {
      auto p = client.request("GET", coll + "?limit=500" + (cont.empty() ? "" : "&continue=" + cont), {{"Accept", "application/json"}});
      json::ListMeta meta;
      json::decode_list(p.body, meta, [&](std::string_view) { ++items; });
      cont = meta.continue_token;
    } while (!cont.empty());
    paged.push_back(seconds_since(t2));
  }
  std::sort(full.begin(), full.end());
  std::sort(paged.begin(), paged.end());
  std::printf("apiserver list: %d objects (%.1f MB) median %.1f ms whole, %.1f ms in pages of 500\n", kObjects, bytes / 1e6,
              full[2] * 1e3, paged[2] * 1e3);

  // Watch fan-out.
  auto head = client.request("GET", coll + "?limit=1");
  json::ListMeta lm;
  json::decode_list(head.body, lm, [](std::string_view) {});
  std::atomic<long> delivered{0};
  std::atomic<int> ready{0};
  std::vector<std::unique_ptr<http::Cancellation>> cancels;
  std::vector<std::thread> watchers;
  for (int w = 0; w < kWatchers; ++w) {
    cancels.push_back(std::make_unique<http::Cancellation>());
    watchers.emplace_back([&, cancel = cancels.back().get()] {
      http::Client c(server.client_options);
      json::WatchDecoder dec([&](json::EventType t, std::string_view, const json::MetaSummary&) {
        if (t == json::EventType::Modified) ++delivered;
      }, "bench watch");
      try {
        c.stream("GET", coll + "?watch=1&resourceVersion=" + lm.resource_version, {}, {},
                 [&](int, const http::Headers&) {
                   ++ready;
                   return true;
                 },
                 [&](std::string_view d) {
                   dec.feed(d);
                   return true;
                 },
                 cancel, std::chrono::seconds(60));
      } catch (const std::exception&) {
      }
    });
  }
  while (ready.load() < kWatchers) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  auto t3 = Clock::now();
  std::thread updater([&] {
    http::Client c(server.client_options);
    for (int i = 0; i < kUpdates; ++i) {
      c.request("PATCH", coll + "/cm-" + std::to_string(i % kObjects), {{"Content-Type", "application/merge-patch+json"}},
                R"({"metadata":{"annotations":{"rev":")" + std::to_string(i) + "\"}}}");
    }
  });
  long want = static_cast<long>(kWatchers) * kUpdates;
  while (delivered.load() < want && seconds_since(t3) < 120) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  double fan_s = seconds_since(t3);
  updater.join();
  for (auto& c : cancels) c->cancel();
  for (auto& w : watchers) w.join();
  std::printf("apiserver watch fan-out: %d updates to %d watchers, %ld/%ld events delivered in %.2f s = %.0f events/s\n", kUpdates,
              kWatchers, delivered.load(), want, fan_s, delivered.load() / fan_s);
  server.proc->stop();
  return 0;
}
