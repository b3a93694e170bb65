// Capstan's side of bench/informer_bench: one runtime/cache informer in its own process,
// speaking the driver's line protocol:
//   -> "synced SECONDS RSS_BYTES_PER_OBJECT OBJECTS"   after the first list is in the cache
//   <- "resume N"                                    the driver made N updates meanwhile
//   -> "events EVENTS_PER_SECOND SECONDS"            once the N updates were handled
#include "bench/cluster_client.h"
#include "runtime/cache/informer.h"
#include "runtime/client/client.h"
#include "runtime/client/config.h"
#include "runtime/log/log.h"

#include <malloc.h>

#include <atomic>
#include <condition_variable>
#include <iostream>
#include <mutex>

using namespace capstan;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: informer_peer KUBECONFIG NAMESPACE EXPECTED_OBJECTS\n";
    return 2;
  }
  log::init(log::Format::Text, 0);
  auto cfg = client::load_kubeconfig(argv[1]);
  cfg.qps = 0;
  client::Client c(cfg);
  std::string ns = argv[2];
  std::size_t expected = std::stoul(argv[3]);

  malloc_trim(0);
  std::size_t baseline = bench::rss_bytes();
  std::mutex mu;
  std::condition_variable cv;
  std::atomic<long> updates{0};
  long target = -1;
  Clock::time_point first_event{};
  cache::Informer inf(c, {.gvr = {"", "v1", "configmaps"}, .ns = ns});
  inf.add_handlers({.on_update = [&](const cache::ObjectPtr&, const cache::ObjectPtr&) {
    long n = ++updates;
    if (n == 1) first_event = Clock::now();
    if (n == target) cv.notify_all();
  }});
  auto t0 = Clock::now();
  inf.start();
  if (!inf.wait_for_sync(std::chrono::seconds(120))) {
    std::cerr << "informer did not sync\n";
    return 1;
  }
  double sync_s = std::chrono::duration<double>(Clock::now() - t0).count();
  inf.stop();
  malloc_trim(0);
  double per_object = static_cast<double>(bench::rss_bytes() - baseline) / static_cast<double>(expected);
  std::printf("synced %.4f %.0f %zu\n", sync_s, per_object, inf.store().size());
  std::fflush(stdout);

  std::string cmd;
  long n = 0;
  while (std::cin >> cmd >> n) {
    if (cmd != "resume") continue;
    {
      std::lock_guard<std::mutex> l(mu);
      target = n;
      updates = 0;
    }
    auto t1 = Clock::now();
    inf.start();
    std::unique_lock<std::mutex> l(mu);
    cv.wait_for(l, std::chrono::seconds(120), [&] { return updates.load() >= target; });
    auto end = Clock::now();
    double secs = std::chrono::duration<double>(end - t1).count();
    double stream = std::chrono::duration<double>(end - first_event).count();
    std::printf("events %.0f %.4f (first event after %.4f s, then %.0f events/s)\n", static_cast<double>(updates.load()) / secs, secs,
                secs - stream, static_cast<double>(updates.load()) / stream);
    std::fflush(stdout);
    break;
  }
  inf.stop();
  return 0;
}
