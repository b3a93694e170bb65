// The API server's built-in control loops (what kube-controller-manager and the
// apiextensions controllers do in a real cluster) share this small machinery: watch some
// resources in the store, queue object keys (deduplicated), reconcile them on a worker
// thread with retries. Watch callbacks only enqueue: they run under the store lock.
#pragma once

#include "apiserver/rest/service.h"
#include "apiserver/storage/store.h"
#include "runtime/log/log.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace capstan::apiserver::system {

struct Key {
  std::string resource;  // group-resource
  std::string ns;
  std::string name;
  bool operator<(const Key& o) const { return std::tie(resource, ns, name) < std::tie(o.resource, o.ns, o.name); }
  bool operator==(const Key& o) const { return resource == o.resource && ns == o.ns && name == o.name; }
};

class Loop {
 public:
  // `reconcile` returns a delay to run again after (0 = done); exceptions are logged and
  // retried with backoff.
  using Reconcile = std::function<std::chrono::milliseconds(const Key&)>;
  // `map` turns a store event into keys to reconcile (default: the object itself).
  using Map = std::function<std::vector<Key>(const storage::Event&)>;

  Loop(std::string name, storage::Store& store, Reconcile reconcile);
  ~Loop();

  // Watches `resource` ("*" for all) from now, replaying the current objects first.
  void watch(const std::string& resource, Map map = {});
  void enqueue(const Key& k, std::chrono::milliseconds after = std::chrono::milliseconds(0));
  void start();
  void stop();
  const std::string& name() const { return name_; }

 private:
  class Sink;
  void run();

  std::string name_;
  storage::Store& store_;
  Reconcile reconcile_;
  std::vector<std::uint64_t> watch_ids_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Key> queue_;
  std::set<Key> queued_;
  std::multimap<std::chrono::steady_clock::time_point, Key> delayed_;
  std::map<Key, int> failures_;
  bool stopping_ = false;
  std::thread thread_;
  log::Logger log_;
};

}  // namespace capstan::apiserver::system
