#include "apiserver/system/loop.h"

#include <algorithm>

namespace capstan::apiserver::system {

class Loop::Sink : public storage::Watcher {
 public:
  Sink(Loop& loop, Map map) : loop_(loop), map_(std::move(map)) {}
  void on_event(const storage::Event& e) override {
    if (map_) {
      for (auto& k : map_(e)) loop_.enqueue(k);
      return;
    }
    const auto& v = *e.object.value;
    loop_.enqueue(Key{e.resource, std::string(json::get_string(v, {"metadata", "namespace"})),
                      std::string(json::get_string(v, {"metadata", "name"}))});
  }

 private:
  Loop& loop_;
  Map map_;
};

Loop::Loop(std::string name, storage::Store& store, Reconcile reconcile)
    : name_(std::move(name)), store_(store), reconcile_(std::move(reconcile)), log_({{"loop", name_}}) {}

Loop::~Loop() { stop(); }

void Loop::watch(const std::string& resource, Map map) {
  watch_ids_.push_back(store_.watch(resource, -1, std::make_shared<Sink>(*this, std::move(map)), true));
}

void Loop::enqueue(const Key& k, std::chrono::milliseconds after) {
  std::lock_guard<std::mutex> l(mu_);
  if (stopping_) return;
  if (after.count() > 0) {
    delayed_.emplace(std::chrono::steady_clock::now() + after, k);
  } else if (queued_.insert(k).second) {
    queue_.push_back(k);
  }
  cv_.notify_one();
}

void Loop::start() {
  if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
}

void Loop::stop() {
  {
    std::lock_guard<std::mutex> l(mu_);
    if (stopping_) return;
    stopping_ = true;
    cv_.notify_all();
  }
  for (auto id : watch_ids_) store_.unwatch(id);
  watch_ids_.clear();
  if (thread_.joinable()) thread_.join();
}

void Loop::run() {
  std::unique_lock<std::mutex> l(mu_);
  while (!stopping_) {
    auto now = std::chrono::steady_clock::now();
    while (!delayed_.empty() && delayed_.begin()->first <= now) {
      Key k = delayed_.begin()->second;
      delayed_.erase(delayed_.begin());
      if (queued_.insert(k).second) queue_.push_back(k);
    }
    if (queue_.empty()) {
      if (delayed_.empty()) cv_.wait(l);
      else cv_.wait_until(l, delayed_.begin()->first);
      continue;
    }
    Key k = queue_.front();
    queue_.pop_front();
    queued_.erase(k);
    l.unlock();
    std::chrono::milliseconds again{0};
    bool failed = false;
    try {
      again = reconcile_(k);
    } catch (const std::exception& e) {
      failed = true;
      log_.warn("reconcile failed; retrying", {{"resource", k.resource}, {"namespace", k.ns}, {"name", k.name}, {"error", e.what()}});
    }
    l.lock();
    if (failed) {
      int n = ++failures_[k];
      auto backoff = std::chrono::milliseconds(std::min(5000, 10 << std::min(n, 9)));
      delayed_.emplace(std::chrono::steady_clock::now() + backoff, k);
    } else {
      failures_.erase(k);
      if (again.count() > 0) delayed_.emplace(std::chrono::steady_clock::now() + again, k);
    }
  }
}

}  // namespace capstan::apiserver::system
