#include "controllers/monitoring/references.h"

#include "runtime/client/client.h"
#include "runtime/client/errors.h"
#include "runtime/http/client.h"
#include "runtime/log/log.h"
#include "runtime/meta/core_types.h"

namespace capstan::monitoring {
namespace {

using namespace std::chrono_literals;

const log::Logger& logger() {
  static const log::Logger l({{"component", "monitoring-references"}});
  return l;
}

}  // namespace

ReferencedObjects::ReferencedObjects(client::Client& client) : client_(client) {}

ReferencedObjects::~ReferencedObjects() { stop(); }

void ReferencedObjects::attach(const std::string& name, controller::Controller& controller) {
  std::lock_guard l(mu_);
  controllers_[name] = &controller;
}

void ReferencedObjects::record(const std::string& name, const controller::Request& request, const std::vector<std::string>& ids) {
  std::lock_guard l(mu_);
  Reader reader{name, request.key()};
  if (auto it = read_by_.find(reader); it != read_by_.end()) {
    for (const auto& id : it->second) {
      auto r = readers_of_.find(id);
      if (r == readers_of_.end()) continue;
      r->second.erase(reader);
      if (r->second.empty()) readers_of_.erase(r);
    }
    read_by_.erase(it);
  }
  if (ids.empty()) return;
  for (const auto& id : ids) readers_of_[id].insert(reader);
  read_by_[reader] = ids;
  // The watches start with the first reader: a cluster whose monitors reference no Secret does
  // not stream every Secret change to the manager.
  if (running_) spawn_locked();
}

void ReferencedObjects::enqueue(const std::set<Reader>& readers) {
  // Under mu_: controllers_ does not change once the controllers are built.
  for (const auto& [name, key] : readers)
    if (auto c = controllers_.find(name); c != controllers_.end()) c->second->enqueue(controller::Request::from_key(key));
}

std::size_t ReferencedObjects::changed(const std::string& id) {
  std::lock_guard l(mu_);
  auto it = readers_of_.find(id);
  if (it == readers_of_.end()) return 0;
  enqueue(it->second);
  return it->second.size();
}

void ReferencedObjects::everything_changed() {
  std::lock_guard l(mu_);
  std::set<Reader> all;
  for (const auto& [reader, ids] : read_by_) all.insert(reader);
  enqueue(all);
}

std::size_t ReferencedObjects::readers() const {
  std::lock_guard l(mu_);
  return read_by_.size();
}

void ReferencedObjects::start() {
  std::lock_guard l(mu_);
  running_ = true;
  stopping_ = false;
  if (!read_by_.empty()) spawn_locked();
}

bool ReferencedObjects::watching() const {
  std::lock_guard l(mu_);
  return !threads_.empty();
}

void ReferencedObjects::spawn_locked() {
  if (!threads_.empty()) return;
  for (const char* kind : {"secret", "configmap"}) {
    cancels_.push_back(std::make_unique<http::Cancellation>());
    threads_.emplace_back([this, kind] { watch_loop(kind); });
  }
}

void ReferencedObjects::stop() {
  std::vector<std::thread> threads;
  {
    std::lock_guard l(mu_);
    running_ = false;
    stopping_ = true;
    for (auto& c : cancels_) c->cancel();
    threads.swap(threads_);
  }
  wake_.notify_all();
  for (auto& t : threads) t.join();
  std::lock_guard l(mu_);
  cancels_.clear();
}

bool ReferencedObjects::sleep_for(std::chrono::milliseconds d) {
  std::unique_lock l(mu_);
  return !wake_.wait_for(l, d, [this] { return stopping_; });
}

void ReferencedObjects::watch_loop(std::string kind) {
  const auto& gvr = kind == "secret" ? meta::core::kSecretType.gvr : meta::core::kConfigMapType.gvr;
  http::Cancellation* cancel = nullptr;
  {
    std::lock_guard l(mu_);
    cancel = cancels_[kind == "secret" ? 0 : 1].get();
  }
  std::string rv;
  std::chrono::milliseconds backoff = 200ms;
  while (true) {
    {
      std::lock_guard l(mu_);
      if (stopping_) return;
    }
    try {
      if (rv.empty()) {
        // Where the watch starts: the collection's resourceVersion, from a one-item list.
        client::ListOptions lo;
        lo.limit = 1;
        rv = client_.list(gvr, "", lo).resource_version;
        // What changed before this point (since a reader's read, or in a gap of the watch) is
        // not streamed: every reader reads again once.
        everything_changed();
      }
      client::WatchOptions wo;
      wo.resource_version = rv;
      wo.timeout_seconds = 300;
      client_.watch(gvr, "", wo, [&](json::EventType type, std::string_view, const json::MetaSummary& meta) {
        if (type == json::EventType::Error) {
          rv.clear();  // 410 Gone in the stream: start again from a fresh list
          return false;
        }
        if (!meta.resource_version.empty()) rv = std::string(meta.resource_version);
        if (type != json::EventType::Bookmark) {
          std::size_t woken = changed(kind + "/" + std::string(meta.ns) + "/" + std::string(meta.name));
          if (woken) logger().debug("referenced object changed", {{"object", kind + " " + std::string(meta.ns) + "/" + std::string(meta.name)},
                                                                  {"readers", std::to_string(woken)}});
        }
        return true;
      }, cancel);
      backoff = 200ms;
    } catch (const http::Cancelled&) {
      return;
    } catch (const client::ApiError& e) {
      if (e.code() == 410) rv.clear();
      logger().warn("watch of referenced objects failed", {{"kind", kind}, {"error", e.what()}});
      if (!sleep_for(backoff)) return;
      backoff = std::min<std::chrono::milliseconds>(backoff * 2, 30s);
    } catch (const std::exception& e) {
      logger().warn("watch of referenced objects failed", {{"kind", kind}, {"error", e.what()}});
      if (!sleep_for(backoff)) return;
      backoff = std::min<std::chrono::milliseconds>(backoff * 2, 30s);
    }
  }
}

}  // namespace capstan::monitoring
