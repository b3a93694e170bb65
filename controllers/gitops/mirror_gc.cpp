#include "controllers/gitops/mirror_gc.h"

#include "controllers/gitops/env.h"
#include "runtime/cache/informer.h"
#include "runtime/log/log.h"
#include "runtime/metrics/registry.h"

#include <string>
#include <vector>

namespace capstan::gitops {

MirrorCollector::MirrorCollector(Env& env, std::chrono::milliseconds interval)
    : env_(env),
      interval_(interval),
      storage_bytes_(metrics::Registry::global()
                         .gauge("capstan_gitops_storage_bytes", "Bytes the Git mirrors of the gitops controller take on disk.")
                         .with({})),
      collected_(metrics::Registry::global()
                     .counter("capstan_gitops_mirrors_collected_total",
                              "Git mirrors deleted because no GitRepository names their URL any more.")
                     .with({})) {}

MirrorCollector::~MirrorCollector() { stop(); }

std::size_t MirrorCollector::collect_once() {
  // Before the cache is complete every mirror would look unused.
  if (!env_.repositories.has_synced()) return 0;
  std::vector<std::string> urls;
  for (const auto& o : env_.repositories.store().list()) {
    const json::Value v = o->value();
    std::string url(json::get_string(v, {"spec", "url"}));
    if (!url.empty()) urls.push_back(std::move(url));
  }
  std::size_t removed = 0;
  try {
    removed = env_.mirrors.collect(urls);
  } catch (const std::exception& e) {
    log::warn("collecting unused Git mirrors failed", {{"error", e.what()}});
  }
  if (removed) {
    collected_.inc(static_cast<double>(removed));
    log::info("deleted unused Git mirrors", {{"count", removed}, {"kept", urls.size()}});
  }
  storage_bytes_.set(static_cast<double>(env_.mirrors.disk_usage()));
  return removed;
}

void MirrorCollector::start() {
  std::lock_guard lock(mu_);
  if (thread_.joinable()) return;
  stopping_ = false;
  thread_ = std::thread([this] {
    std::unique_lock lock(mu_);
    while (!wake_.wait_for(lock, interval_, [this] { return stopping_; })) {
      lock.unlock();
      collect_once();
      lock.lock();
    }
  });
}

void MirrorCollector::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace capstan::gitops
