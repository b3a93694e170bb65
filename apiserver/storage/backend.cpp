#include "apiserver/storage/backend.h"

#include "runtime/log/log.h"

#include <sqlite3.h>

#include <filesystem>
#include <stdexcept>

namespace capstan::apiserver::storage {
namespace {

class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &s_, nullptr) != SQLITE_OK)
      throw std::runtime_error(std::string("preparing SQL \"") + sql + "\": " + sqlite3_errmsg(db));
  }
  ~Stmt() { sqlite3_finalize(s_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  Stmt& bind(int i, std::int64_t v) {
    sqlite3_bind_int64(s_, i, v);
    return *this;
  }
  Stmt& bind(int i, std::string_view v) {
    sqlite3_bind_text(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Stmt& bind_null(int i) {
    sqlite3_bind_null(s_, i);
    return *this;
  }
  // Executes a statement that returns no rows.
  void exec(const char* what) {
    int rc = sqlite3_step(s_);
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
    if (rc != SQLITE_DONE) throw std::runtime_error(std::string(what) + ": " + sqlite3_errmsg(db_));
  }
  bool step() {
    int rc = sqlite3_step(s_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) throw std::runtime_error(std::string("reading store: ") + sqlite3_errmsg(db_));
    return false;
  }
  std::int64_t i64(int c) { return sqlite3_column_int64(s_, c); }
  std::string text(int c) {
    auto* p = reinterpret_cast<const char*>(sqlite3_column_text(s_, c));
    return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(s_, c))) : std::string();
  }

 private:
  sqlite3* db_;
  sqlite3_stmt* s_ = nullptr;
};

void exec(sqlite3* db, const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    throw std::runtime_error(std::string("executing \"") + sql + "\": " + msg);
  }
}

int type_code(EventType t) { return static_cast<int>(t); }

}  // namespace

struct SqliteBackend::Impl {
  std::string path;
  sqlite3* db = nullptr;
  std::unique_ptr<Stmt> begin, commit, rollback, upsert, erase, event, counter, prune;
};

SqliteBackend::SqliteBackend(const std::string& data_dir) : impl_(std::make_unique<Impl>()) {
  std::filesystem::create_directories(data_dir);
  impl_->path = (std::filesystem::path(data_dir) / "store.db").string();
  if (sqlite3_open(impl_->path.c_str(), &impl_->db) != SQLITE_OK) {
    std::string msg = impl_->db ? sqlite3_errmsg(impl_->db) : "out of memory";
    sqlite3_close(impl_->db);
    throw std::runtime_error("opening " + impl_->path + ": " + msg);
  }
  auto* db = impl_->db;
  exec(db, "PRAGMA journal_mode=WAL");
  exec(db, "PRAGMA synchronous=NORMAL");
  exec(db, "CREATE TABLE IF NOT EXISTS objects (resource TEXT NOT NULL, key TEXT NOT NULL, rv INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (resource, key)) WITHOUT ROWID");
  exec(db, "CREATE TABLE IF NOT EXISTS events (rv INTEGER PRIMARY KEY, type INTEGER NOT NULL, resource TEXT NOT NULL, data TEXT NOT NULL, prev TEXT)");
  exec(db, "CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL)");
  impl_->begin = std::make_unique<Stmt>(db, "BEGIN");
  impl_->commit = std::make_unique<Stmt>(db, "COMMIT");
  impl_->rollback = std::make_unique<Stmt>(db, "ROLLBACK");
  impl_->upsert = std::make_unique<Stmt>(db, "INSERT INTO objects (resource, key, rv, data) VALUES (?1, ?2, ?3, ?4) ON CONFLICT(resource, key) DO UPDATE SET rv = excluded.rv, data = excluded.data");
  impl_->erase = std::make_unique<Stmt>(db, "DELETE FROM objects WHERE resource = ?1 AND key = ?2");
  impl_->event = std::make_unique<Stmt>(db, "INSERT OR REPLACE INTO events (rv, type, resource, data, prev) VALUES (?1, ?2, ?3, ?4, ?5)");
  impl_->counter = std::make_unique<Stmt>(db, "INSERT INTO meta (name, value) VALUES ('rv', ?1) ON CONFLICT(name) DO UPDATE SET value = MAX(value, excluded.value)");
  impl_->prune = std::make_unique<Stmt>(db, "DELETE FROM events WHERE rv <= ?1");
}

SqliteBackend::~SqliteBackend() {
  impl_->begin.reset();
  impl_->commit.reset();
  impl_->rollback.reset();
  impl_->upsert.reset();
  impl_->erase.reset();
  impl_->event.reset();
  impl_->counter.reset();
  impl_->prune.reset();
  sqlite3_close(impl_->db);
}

void SqliteBackend::commit(const Event& e) {
  auto& s = *impl_;
  const json::Value& v = *e.object.value;
  std::string key = object_key(json::get_string(v, {"metadata", "namespace"}), json::get_string(v, {"metadata", "name"}));
  s.begin->exec("beginning a store transaction");
  try {
    if (e.type == EventType::Deleted) {
      s.erase->bind(1, e.resource).bind(2, key).exec("deleting an object from the store");
    } else {
      s.upsert->bind(1, e.resource).bind(2, key).bind(3, e.rv).bind(4, *e.object.json).exec("writing an object to the store");
    }
    s.event->bind(1, e.rv).bind(2, static_cast<std::int64_t>(type_code(e.type))).bind(3, e.resource).bind(4, *e.object.json);
    if (e.previous) s.event->bind(5, *e.previous.json);
    else s.event->bind_null(5);
    s.event->exec("recording a watch event");
    s.counter->bind(1, e.rv).exec("saving the resourceVersion counter");
    s.commit->exec("committing a store transaction");
  } catch (...) {
    try {
      s.rollback->exec("rolling back");
    } catch (...) {
    }
    throw;
  }
}

void SqliteBackend::save_rv(std::int64_t rv) { impl_->counter->bind(1, rv).exec("saving the resourceVersion counter"); }

void SqliteBackend::prune_events(std::int64_t upto) { impl_->prune->bind(1, upto).exec("pruning watch events"); }

SqliteBackend::Loaded SqliteBackend::load(
    const std::function<void(const std::string&, const std::string&, Object)>& on_object,
    const std::function<void(Event)>& on_event) {
  Loaded out;
  auto* db = impl_->db;
  {
    Stmt q(db, "SELECT value FROM meta WHERE name = 'rv'");
    if (q.step()) out.rv = q.i64(0);
  }
  {
    Stmt q(db, "SELECT resource, key, rv, data FROM objects");
    while (q.step()) {
      std::string data = q.text(3);
      std::string resource = q.text(0), key = q.text(1);
      auto v = json::try_parse(data);
      if (!v) {
        log::error("skipping unreadable stored object", {{"resource", resource}, {"key", key}, {"file", impl_->path}});
        continue;
      }
      on_object(resource, key, adopt_object(std::move(*v), std::move(data), q.i64(2)));
    }
  }
  {
    Stmt q(db, "SELECT rv, type, resource, data, prev FROM events ORDER BY rv");
    while (q.step()) {
      Event e;
      e.rv = q.i64(0);
      e.type = static_cast<EventType>(q.i64(1));
      e.resource = q.text(2);
      std::string data = q.text(3);
      auto v = json::try_parse(data);
      if (!v) continue;
      e.object = adopt_object(std::move(*v), std::move(data), e.rv);
      std::string prev = q.text(4);
      if (!prev.empty()) {
        if (auto pv = json::try_parse(prev)) {
          auto prv = std::stoll(std::string(json::get_string(*pv, {"metadata", "resourceVersion"}, "0")));
          e.previous = adopt_object(std::move(*pv), std::move(prev), prv);
        }
      }
      on_event(std::move(e));
    }
  }
  return out;
}

}  // namespace capstan::apiserver::storage
