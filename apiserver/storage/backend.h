// Durable storage under the in-memory store: SQLite in a data directory. Writes happen in
// resourceVersion order under the store's lock; a write is acknowledged only after SQLite
// committed it (WAL, synchronous=NORMAL: survives the process being killed).
#pragma once

#include "apiserver/storage/object.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace capstan::apiserver::storage {

class SqliteBackend {
 public:
  // Opens (creating) DIR/store.db; throws std::runtime_error naming the file on failure.
  explicit SqliteBackend(const std::string& data_dir);
  ~SqliteBackend();
  SqliteBackend(const SqliteBackend&) = delete;
  SqliteBackend& operator=(const SqliteBackend&) = delete;

  // Persists one change: the object row (or its removal), the event, the counter.
  void commit(const Event& e);
  // Records a resourceVersion consumed without an object change (none today; kept for counters).
  void save_rv(std::int64_t rv);
  // Drops events with rv <= `upto` (the watch history window moved past them).
  void prune_events(std::int64_t upto);

  struct Loaded {
    std::int64_t rv = 0;
  };
  // Replays what is stored: every object, then every retained event in rv order.
  Loaded load(const std::function<void(const std::string& resource, const std::string& key, Object obj)>& on_object,
              const std::function<void(Event e)>& on_event);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace capstan::apiserver::storage
