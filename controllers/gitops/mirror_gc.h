// Keeps the Git mirror volume to what GitRepositories use: every `interval` (once the
// GitRepository cache has synced) the mirrors of URLs no GitRepository names any more are
// deleted, and the volume's use is published as capstan_gitops_storage_bytes; deletions count in
// capstan_gitops_mirrors_collected_total.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace capstan::metrics {
class Gauge;
class Counter;
}  // namespace capstan::metrics

namespace capstan::gitops {

struct Env;

class MirrorCollector {
 public:
  MirrorCollector(Env& env, std::chrono::milliseconds interval);
  ~MirrorCollector();  // stop()
  MirrorCollector(const MirrorCollector&) = delete;
  MirrorCollector& operator=(const MirrorCollector&) = delete;

  // One collection now; returns how many mirrors it deleted (0 before the cache has synced).
  std::size_t collect_once();
  void start();
  void stop();

 private:
  Env& env_;
  std::chrono::milliseconds interval_;
  metrics::Gauge& storage_bytes_;
  metrics::Counter& collected_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace capstan::gitops
