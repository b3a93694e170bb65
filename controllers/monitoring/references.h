// Which Secrets and ConfigMaps each reconciled object read (scrape credentials, CAs, receiver
// URLs...), and one watch of every Secret and ConfigMap of the cluster that keeps nothing in
// memory but wakes the readers of a changed one: a rotated basic-auth password reaches the
// Prometheus assets Secret within a second, without caching the cluster's Secrets (which
// prometheus-operator does). A gap in the watch (410 Gone, a broken stream) wakes every reader,
// since a change may have been missed. No reader, no watch.
#pragma once

#include "runtime/controller/controller.h"

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace capstan::client {
class Client;
}
namespace capstan::http {
class Cancellation;
}

namespace capstan::monitoring {

class ReferencedObjects {
 public:
  explicit ReferencedObjects(client::Client& client);
  ~ReferencedObjects();  // stops the watches
  ReferencedObjects(const ReferencedObjects&) = delete;
  ReferencedObjects& operator=(const ReferencedObjects&) = delete;

  // The controller that reconciles the readers recorded under `name`.
  void attach(const std::string& name, controller::Controller& controller);
  // Replaces what `request` of controller `name` read: ids "secret/<ns>/<name>" and
  // "configmap/<ns>/<name>" (AssetReader::read_ids). An empty list forgets the reader.
  void record(const std::string& name, const controller::Request& request, const std::vector<std::string>& ids);

  // Wakes the readers of `id`; returns how many were woken.
  std::size_t changed(const std::string& id);
  // Wakes every reader.
  void everything_changed();
  std::size_t readers() const;

  // The watches (leader only: only the leader reconciles). After start() they run once there is
  // a reader; each (re)start of a watch wakes every reader once, since what changed before it
  // is not streamed.
  void start();
  void stop();
  bool watching() const;

 private:
  using Reader = std::pair<std::string, std::string>;  // controller name, request key
  void enqueue(const std::set<Reader>& readers);
  void watch_loop(std::string kind);  // "secret" | "configmap"
  bool sleep_for(std::chrono::milliseconds d);  // false when stopping
  void spawn_locked();                          // the watch threads, unless running (mu_ held)

  client::Client& client_;
  mutable std::mutex mu_;
  std::map<std::string, controller::Controller*> controllers_;
  std::map<std::string, std::set<Reader>> readers_of_;        // id -> readers
  std::map<Reader, std::vector<std::string>> read_by_;        // reader -> ids
  std::condition_variable wake_;
  bool running_ = false;   // between start() and stop()
  bool stopping_ = false;
  std::vector<std::unique_ptr<http::Cancellation>> cancels_;
  std::vector<std::thread> threads_;
};

}  // namespace capstan::monitoring
