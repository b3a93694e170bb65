// What triggers the simulator's control loops: one informer per resource (list, then watch,
// relisting after 410 Gone and resuming after disconnects), its events parsed once and
// handed to every subscriber. The informers' caches are never read by the controllers
// (they read through Api): events only say which objects to look at again.
#pragma once

#include "apiserver/simulator/api.h"

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace capstan::cache {
class InformerFactory;
}

namespace capstan::simulator {

enum class EventType { Added, Modified, Deleted };

struct Event {
  std::string resource;  // group-resource
  EventType type = EventType::Added;
  Object object;    // the new state (the last known one for Deleted)
  Object previous;  // the state before a Modified event, else nullptr
};

class Watches {
 public:
  using Subscriber = std::function<void(const Event&)>;

  explicit Watches(client::Client& client);
  ~Watches();
  Watches(const Watches&) = delete;
  Watches& operator=(const Watches&) = delete;

  // Before start(): `fn` gets every event of `resource`, the current objects first (as
  // Added). Subscribers run on the informer's thread and must only enqueue.
  void subscribe(const std::string& resource, Subscriber fn);
  void start();
  // Waits until every informer has its first list; false when `timeout` passes first.
  bool wait_for_sync(std::chrono::milliseconds timeout);
  // Stops the informers (joins their threads): no subscriber runs afterwards.
  void stop();

 private:
  client::Client& client_;
  std::unique_ptr<cache::InformerFactory> factory_;
  std::map<std::string, std::vector<Subscriber>> subscribers_;
};

}  // namespace capstan::simulator
