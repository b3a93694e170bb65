#include "runtime/plugin/storage_migration.h"

#include "runtime/controller/manager.h"
#include "runtime/crd/storage_migration.h"
#include "runtime/log/log.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace capstan::plugin {
namespace {

using namespace std::chrono_literals;

class Migration {
 public:
  Migration(client::Client& c, std::vector<std::string> crds) : client_(c), crds_(std::move(crds)) {}
  ~Migration() { stop(); }

  void start() {
    stop_ = false;
    thread_ = std::thread([this] { run(); });
  }
  void stop() {
    {
      std::lock_guard l(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

 private:
  void run() {
    std::chrono::milliseconds backoff = 1s;
    std::vector<std::string> left = crds_;
    while (!left.empty() && !stop_) {
      std::vector<std::string> failed;
      for (const auto& name : left) {
        try {
          auto r = crd::migrate_storage_version(client_, name, &stop_);
          if (!r.done) failed.push_back(name);
        } catch (const std::exception& e) {
          log::warn("storage version migration failed; retrying", {{"crd", name}, {"error", e.what()}, {"retryIn", backoff.count()}});
          failed.push_back(name);
        }
      }
      left = std::move(failed);
      if (left.empty()) break;
      std::unique_lock l(mu_);
      cv_.wait_for(l, backoff, [this] { return stop_.load(); });
      backoff = std::min<std::chrono::milliseconds>(backoff * 2, 5min);
    }
  }

  client::Client& client_;
  const std::vector<std::string> crds_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace

void add_storage_migration(controller::Manager& mgr, std::string name, std::vector<std::string> crds) {
  auto m = std::make_shared<Migration>(mgr.client(), std::move(crds));
  mgr.add_leader_runnable(std::move(name), [m] { m->start(); }, [m] { m->stop(); });
}

}  // namespace capstan::plugin
