// WATCH: streams a resource's events to one client as newline-delimited JSON (or one-row
// Tables for kubectl get -w), with resume from a resourceVersion, 410 Gone as an in-stream
// ERROR event, bookmarks, streaming lists (sendInitialEvents) and timeouts.
#pragma once

#include "apiserver/rest/service.h"
#include "runtime/http/server.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace capstan::apiserver::rest {

struct WatchRequest {
  Target target;
  meta::LabelSelector labels;
  meta::FieldSelector fields;
  std::int64_t from_rv = -1;          // resume after this rv; -1: start now
  bool initial_state = false;         // first send the current objects as ADDED
  bool initial_events_end = false;    // sendInitialEvents: end the initial part with a bookmark
  bool bookmarks = false;             // allowWatchBookmarks
  std::chrono::seconds timeout{1800};
  enum class Format { Json, Table, Metadata } format = Format::Json;
  std::string table_include = "Metadata";
  std::string table_api_version = "meta.k8s.io/v1";
};

class WatchHub {
 public:
  WatchHub(Service& service, std::chrono::milliseconds bookmark_interval);
  ~WatchHub();

  // Starts the stream on `reply` (200 + events) and returns; the stream lives until the
  // client leaves, the timeout passes, or the server stops.
  void serve(WatchRequest req, http::Reply& reply);
  void stop();
  std::size_t active() const;
  // Fault injection: every open watch is closed after at most `d` (0 = off).
  void set_drop_after(std::chrono::milliseconds d) { drop_after_ms_ = d.count(); }
  void set_bookmark_interval(std::chrono::milliseconds d) { bookmark_ms_ = d.count(); }

  class Client;
  // The last event's encoding, shared by every plain-JSON watcher it goes to; used only under
  // the store lock (events are delivered one at a time): either the stored JSON between the
  // envelope head of its type and the tail (no copy of the object), or a whole converted line.
  struct EncodedCache {
    std::int64_t rv = -1;
    std::string resource;
    std::string version;
    std::string type;
    std::shared_ptr<const std::string> stored_json;  // the object as stored, when that is the answer
    std::string line;                               // otherwise the whole line
  };

 private:
  void ticker();
  Service& service_;
  std::atomic<long long> bookmark_ms_;
  std::atomic<long long> drop_after_ms_{0};
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::shared_ptr<Client>> clients_;
  bool stopping_ = false;
  std::unique_ptr<EncodedCache> cache_;
  std::thread thread_;
};

}  // namespace capstan::apiserver::rest
