// The object store: every object of every resource, one monotonic resourceVersion counter,
// a bounded event history for watch resumption, and watch fan-out. All writes are
// serialised (one lock) so events leave in resourceVersion order. Optionally durable.
#pragma once

#include "apiserver/storage/backend.h"
#include "apiserver/storage/object.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace capstan::apiserver::storage {

class NotFoundError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
class AlreadyExistsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// A compare-and-swap write found a newer resourceVersion than expected.
class StaleError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// A write whose stored form exceeds kMaxObjectBytes.
class TooLargeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// etcd's --max-request-bytes default (1.5 MiB): kube-apiserver cannot store an object whose
// write request is larger, whatever its type; the embedded store keeps the same bound on an
// object's serialised form and key.
inline constexpr std::size_t kMaxObjectBytes = 1536 * 1024;
// kube-apiserver's etcd client refuses to send a gRPC message over 2 MiB.
inline constexpr std::size_t kMaxGrpcMessageBytes = 2 * 1024 * 1024;
// A watch asked to start before the retained history.
class TooOldError : public std::runtime_error {
 public:
  TooOldError(std::int64_t requested, std::int64_t oldest)
      : std::runtime_error("too old resource version"), requested(requested), oldest(oldest) {}
  std::int64_t requested;
  std::int64_t oldest;
};

// Receives events for one watch. Called with the store lock held, in rv order: it must only
// filter, encode and queue (never block or call back into the store).
class Watcher {
 public:
  virtual ~Watcher() = default;
  virtual void on_event(const Event& e) = 0;
};

struct StoreOptions {
  std::string data_dir;            // empty = memory only
  std::size_t history = 10000;     // events kept for watch resumption
};

class Store {
 public:
  explicit Store(StoreOptions options);
  ~Store();

  std::int64_t current_rv() const;
  std::int64_t oldest_rv() const;  // the oldest rv a watch can resume from

  Object get(const std::string& resource, std::string_view ns, std::string_view name) const;

  struct Page {
    std::vector<Object> items;
    std::int64_t rv = 0;
    std::string last_key;    // continue from here
    bool more = false;
    std::int64_t remaining = 0;
  };
  // Objects of `resource` in key order, optionally within `ns`, strictly after `after_key`,
  // at most `limit` (0 = all) passing `filter`.
  Page list(const std::string& resource, std::string_view ns, std::string_view after_key, std::size_t limit,
            const std::function<bool(const Object&)>& filter = {}) const;
  std::size_t count(const std::string& resource) const;

  // Writes. `mutate` runs under the lock with the current object and returns the new value,
  // or nullopt to leave it unchanged (no rv consumed, no event). Exceptions propagate.
  Object create(const std::string& resource, json::Value obj);
  Object update(const std::string& resource, std::string_view ns, std::string_view name,
                const std::function<std::optional<json::Value>(const Object& current)>& mutate);
  // Compare-and-swap: replaces the object named by `v`'s metadata if its current rv is
  // `expected_rv` (StaleError otherwise). An unchanged value is not written.
  Object replace(const std::string& resource, json::Value v, std::int64_t expected_rv);
  // Deletes (if `expected_rv` is 0 or current). `final_state`, when given, is the object as
  // the DELETED event reports it (e.g. with its last finalizer removed). Returns that state.
  Object remove(const std::string& resource, std::string_view ns, std::string_view name, std::int64_t expected_rv = 0,
                const json::Value* final_state = nullptr);
  // Runs `fn` with the write lock held and the current rv (for bookmarks ordered with events).
  void locked(const std::function<void(std::int64_t rv)>& fn);

  // Watches `resource` ("*" = every resource). from_rv < 0: from now; otherwise replays the
  // history after from_rv first (TooOldError when it is no longer retained). With `initial`,
  // the current objects are first delivered as Added events (the list part of a
  // "list then watch" at the current rv); `initial_done` then runs under the lock.
  // Returns an id for unwatch().
  std::uint64_t watch(const std::string& resource, std::int64_t from_rv, std::shared_ptr<Watcher> w, bool initial = false,
                      std::string_view initial_ns = {}, const std::function<void(std::int64_t rv)>& initial_done = {});
  // The same, except that the backlog (the history after from_rv, or with `initial` the
  // current objects as Added events) is handed back instead of delivered under the lock: the
  // caller sends it at its own pace, before what `w` receives from then on (events after
  // `rv`, the store's resourceVersion at registration).
  struct Backlog {
    std::uint64_t id = 0;
    std::vector<std::shared_ptr<const Event>> events;
    std::int64_t rv = 0;
  };
  Backlog watch_with_backlog(const std::string& resource, std::int64_t from_rv, std::shared_ptr<Watcher> w,
                             bool initial = false, std::string_view initial_ns = {});
  void unwatch(std::uint64_t id);

  // The objects of `resource` in `ns` ("" = all) as they were at `rv`, in key order: the current
  // ones with the retained history after `rv` undone (a list with resourceVersionMatch=Exact).
  // TooOldError when `rv` is older than that history.
  std::vector<Object> list_at(const std::string& resource, std::string_view ns, std::int64_t rv) const;

  // Forgets the whole event history (like an etcd compaction): watches resuming from an
  // older rv get 410 Gone.
  void compact();
  void set_history(std::size_t events);
  std::vector<std::string> resources() const;

 private:
  using Table = std::map<std::string, Object, std::less<>>;
  void apply(Event e);  // persist, update memory, record, fan out (lock held)
  Object write_locked(const std::string& resource, const Object& current, json::Value candidate);
  std::vector<std::pair<std::string, Object>> snapshot(const std::string& resource, std::string_view ns) const;
  // What a watch starting now must first receive (see watch()); under the lock.
  std::vector<std::shared_ptr<const Event>> backlog_locked(const std::string& resource, std::int64_t from_rv, bool initial,
                                    std::string_view initial_ns) const;

  StoreOptions opts_;
  std::unique_ptr<SqliteBackend> backend_;
  mutable std::shared_mutex mu_;
  std::unordered_map<std::string, Table> tables_;
  std::deque<std::shared_ptr<const Event>> history_;  // shared with the backlogs of resuming watches
  std::int64_t rv_ = 0;
  std::int64_t compacted_rv_ = 0;  // events at or before this rv are gone
  std::uint64_t next_watch_ = 1;
  struct Sub {
    std::string resource;
    std::shared_ptr<Watcher> watcher;
  };
  std::map<std::uint64_t, Sub> subs_;
  std::size_t writes_since_prune_ = 0;
};

}  // namespace capstan::apiserver::storage
