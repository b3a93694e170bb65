// A control loop of the workload simulator: watch events (from Watches) are mapped to object
// keys, queued deduplicated in a runtime/workqueue rate-limiting queue, and reconciled one at
// a time on the loop's thread; a reconcile may ask to run again after a delay, and failures
// are retried with per-key exponential backoff (10 ms doubling up to 5 s), except a write
// refused because the namespace is terminating (its objects are going anyway).
#pragma once

#include "apiserver/simulator/watches.h"
#include "runtime/log/log.h"

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace capstan::workqueue {
class RateLimitingQueue;
}

namespace capstan::simulator {

struct Key {
  std::string resource;  // group-resource
  std::string ns;
  std::string name;
  bool operator==(const Key&) const = default;
};

class Loop {
 public:
  // `reconcile` returns a delay to run again after (0 = done); exceptions are logged and
  // retried with backoff.
  using Reconcile = std::function<std::chrono::milliseconds(const Key&)>;
  // `map` turns a watch event into keys to reconcile (default: the object itself).
  using Map = std::function<std::vector<Key>(const Event&)>;

  Loop(std::string name, Watches& watches, Reconcile reconcile);
  ~Loop();
  Loop(const Loop&) = delete;
  Loop& operator=(const Loop&) = delete;

  // Before the Watches start: reconcile what events of `resource` map to.
  void watch(const std::string& resource, Map map = {});
  void enqueue(const Key& k, std::chrono::milliseconds after = std::chrono::milliseconds(0));
  void start();
  // Drops queued keys, lets the running reconcile finish (its requests are bounded by the
  // client's timeout; cancelling them would leave writes landing after stop) and joins.
  void stop();

 private:
  void run();

  Watches& watches_;
  Reconcile reconcile_;
  std::unique_ptr<workqueue::RateLimitingQueue> queue_;
  std::thread thread_;
  log::Logger log_;
};

// The key of an object (its group-resource given).
Key key_of(const std::string& resource, const json::Value& obj);

}  // namespace capstan::simulator
