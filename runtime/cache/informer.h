// A shared informer: list, then watch from the list's resourceVersion, keeping a Store of
// one resource (optionally narrowed to a namespace or label/field selector) and telling
// handlers about every change in order. Relists on 410 Gone with a diff (deletes for objects
// that vanished meanwhile), resumes watches after disconnects from the last resourceVersion
// (bookmarks keep it fresh), backs off on errors, optionally resyncs.
#pragma once

#include "runtime/cache/store.h"
#include "runtime/meta/gvk.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace capstan::client {
class Client;
}

namespace capstan::cache {

struct InformerOptions {
  meta::GroupVersionResource gvr;
  std::string ns;               // "" = all namespaces
  std::string label_selector;
  std::string field_selector;
  std::chrono::milliseconds resync{0};  // 0 = never
  bool strip_managed_fields = true;
  std::int64_t page_size = 500;
  // Get the initial state as a streaming list (a watch with sendInitialEvents, as client-go's
  // WatchListClient does by default since 0.35): the server streams objects while we decode
  // them, with no list pages held in memory. Falls back to paged LIST when the server answers
  // 422/400 (kube-apiserver without the WatchList feature).
  bool streaming_list = true;
  // When not empty, each object keeps only these fields (paths of object keys, such as
  // {"status", "addresses"}) besides apiVersion, kind and metadata less its annotations and
  // managedFields: for kinds whose objects are large and of which the controllers read little,
  // such as Nodes (their images, conditions and volumes). Objects are rebuilt once, as they arrive.
  std::vector<std::vector<std::string>> keep_fields;

  // Informers are shared when these are equal.
  std::string identity() const;
};

struct Handlers {
  // `initial`: part of the first list (or a relist); `obj` is the new state.
  std::function<void(const ObjectPtr& obj, bool initial)> on_add;
  std::function<void(const ObjectPtr& old_obj, const ObjectPtr& new_obj)> on_update;
  std::function<void(const ObjectPtr& obj)> on_delete;
};

struct InformerStats {
  std::uint64_t lists = 0, watches = 0, events = 0, relists_after_gone = 0, errors = 0;
};

class Informer {
 public:
  Informer(client::Client& client, InformerOptions options);
  ~Informer();
  Informer(const Informer&) = delete;
  Informer& operator=(const Informer&) = delete;

  // Handlers added after the first sync get the current objects as initial adds.
  // Handlers run on the informer's thread, in event order, and must not block.
  void add_handlers(Handlers h);
  void add_index(const std::string& name, IndexFunc fn) { store_.add_index(name, std::move(fn)); }
  // add_index unless an index of that name exists (a shared informer indexed by an earlier
  // wiring in the same process).
  void ensure_index(const std::string& name, IndexFunc fn) { store_.ensure_index(name, std::move(fn)); }

  void start();
  void stop();
  bool has_synced() const { return synced_.load(); }
  // Waits for the first complete list; false on timeout or stop.
  bool wait_for_sync(std::chrono::milliseconds timeout);

  const Store& store() const { return store_; }
  ObjectPtr get(std::string_view ns, std::string_view name) const;
  std::vector<ObjectPtr> list(std::string_view ns = {}) const { return store_.list_namespace(ns); }
  const InformerOptions& options() const { return opts_; }
  std::string last_resource_version() const;
  InformerStats stats() const;

 private:
  void run();
  bool list_and_swap();       // false: stop requested
  // Watches from the last rv; with `streaming`, first receives the current state as a
  // streaming list (sendInitialEvents) and swaps it in at the initial-events-end bookmark.
  void watch_once(bool streaming);
  void apply_replace(ObjectMap fresh);
  void handle_event(int type, std::string_view raw, const json::MetaSummary& meta);
  void dispatch_add(const ObjectPtr& o, bool initial);
  void dispatch_update(const ObjectPtr& a, const ObjectPtr& b);
  void dispatch_delete(const ObjectPtr& o);
  void maybe_resync();
  void sleep_backoff();

  client::Client& client_;
  InformerOptions opts_;
  Store store_{opts_.ns.empty()};
  std::mutex handlers_mu_;
  std::vector<Handlers> handlers_;

  std::atomic<bool> synced_{false};
  std::atomic<bool> stopping_{false};
  std::mutex mu_;  // rv_, cancel_, stats_, sync waiting
  std::condition_variable cv_;
  std::string rv_;
  bool need_list_ = true;
  bool streaming_unsupported_ = false;
  bool in_initial_ = false;  // receiving a streaming list's initial events
  ObjectMap initial_;
  std::shared_ptr<void> cancel_;  // the current http::Cancellation
  InformerStats stats_;
  std::chrono::milliseconds backoff_{0};
  std::chrono::steady_clock::time_point last_resync_;
  std::thread thread_;
};

}  // namespace capstan::cache
