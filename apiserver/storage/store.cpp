#include "apiserver/storage/store.h"

#include "runtime/log/log.h"
#include "runtime/meta/object.h"

#include <algorithm>
#include <map>

namespace capstan::apiserver::storage {
namespace {

std::string key_of(const json::Value& v) {
  return object_key(json::get_string(v, {"metadata", "namespace"}), json::get_string(v, {"metadata", "name"}));
}

// Keys of one namespace are the contiguous range "ns/..." of the table.
template <typename Table, typename Fn>
void for_range(const Table& t, std::string_view ns, std::string_view after_key, Fn&& fn) {
  std::string prefix = ns.empty() ? std::string() : std::string(ns) + "/";
  auto it = after_key.empty() ? t.lower_bound(prefix) : t.upper_bound(after_key);
  for (; it != t.end(); ++it) {
    if (!prefix.empty() && it->first.compare(0, prefix.size(), prefix) != 0) break;
    if (!fn(it->first, it->second)) break;
  }
}

}  // namespace

Store::Store(StoreOptions options) : opts_(std::move(options)) {
  if (opts_.data_dir.empty()) return;
  backend_ = std::make_unique<SqliteBackend>(opts_.data_dir);
  std::size_t objects = 0;
  auto loaded = backend_->load(
      [&](const std::string& resource, const std::string& key, Object obj) {
        tables_[resource][key] = std::move(obj);
        ++objects;
      },
      [&](Event e) { history_.push_back(std::make_shared<const Event>(std::move(e))); });
  rv_ = loaded.rv;
  for (const auto& e : history_) rv_ = std::max(rv_, e->rv);
  compacted_rv_ = history_.empty() ? rv_ : history_.front()->rv - 1;
  while (history_.size() > opts_.history) {
    compacted_rv_ = history_.front()->rv;
    history_.pop_front();
  }
  log::info("loaded store", {{"dataDir", opts_.data_dir}, {"objects", objects}, {"events", history_.size()},
                             {"resourceVersion", rv_}});
}

Store::~Store() = default;

std::int64_t Store::current_rv() const {
  std::shared_lock l(mu_);
  return rv_;
}

std::int64_t Store::oldest_rv() const {
  std::shared_lock l(mu_);
  return compacted_rv_;
}

Object Store::get(const std::string& resource, std::string_view ns, std::string_view name) const {
  std::shared_lock l(mu_);
  auto t = tables_.find(resource);
  if (t == tables_.end()) return {};
  auto it = t->second.find(object_key(ns, name));
  return it == t->second.end() ? Object{} : it->second;
}

Store::Page Store::list(const std::string& resource, std::string_view ns, std::string_view after_key, std::size_t limit,
                        const std::function<bool(const Object&)>& filter) const {
  std::shared_lock l(mu_);
  Page page;
  page.rv = rv_;
  auto t = tables_.find(resource);
  if (t == tables_.end()) return page;
  for_range(t->second, ns, after_key, [&](const std::string& key, const Object& o) {
    if (filter && !filter(o)) return true;
    if (limit && page.items.size() >= limit) {
      page.more = true;
      ++page.remaining;
      return true;
    }
    page.items.push_back(o);
    page.last_key = key;
    return true;
  });
  return page;
}

std::size_t Store::count(const std::string& resource) const {
  std::shared_lock l(mu_);
  auto t = tables_.find(resource);
  return t == tables_.end() ? 0 : t->second.size();
}

void Store::apply(Event e) {
  if (backend_) backend_->commit(e);  // throws before memory changes on failure
  rv_ = e.rv;
  auto& table = tables_[e.resource];
  std::string key = key_of(*e.object.value);
  if (e.type == EventType::Deleted) table.erase(key);
  else table[key] = e.object;
  auto event = std::make_shared<const Event>(std::move(e));
  for (auto& [id, sub] : subs_) {
    if (sub.resource != "*" && sub.resource != event->resource) continue;
    try {
      sub.watcher->on_event(*event);
    } catch (const std::exception& ex) {
      log::error("watcher failed on an event", {{"resource", event->resource}, {"error", ex.what()}});
    }
  }
  history_.push_back(std::move(event));
  while (history_.size() > opts_.history) {
    compacted_rv_ = history_.front()->rv;
    history_.pop_front();
  }
  if (backend_ && ++writes_since_prune_ >= 1000) {
    writes_since_prune_ = 0;
    backend_->prune_events(compacted_rv_);
  }
}

namespace {

// What kube-apiserver passes on: etcd's refusal over its request limit, or, over the gRPC
// client's 2 MiB message limit, the client's own error (the request never leaves it).
void check_size(const std::string& resource, const std::string& key, const Object& o) {
  std::size_t size = o.json->size() + resource.size() + key.size();
  if (size > kMaxGrpcMessageBytes)
    throw TooLargeError("rpc error: code = ResourceExhausted desc = trying to send message larger than max (" + std::to_string(size) +
                        " vs. " + std::to_string(kMaxGrpcMessageBytes) + ")");
  if (size > kMaxObjectBytes) throw TooLargeError("etcdserver: request is too large");
}

}  // namespace

Object Store::create(const std::string& resource, json::Value obj) {
  std::unique_lock l(mu_);
  std::string key = key_of(obj);
  auto& table = tables_[resource];
  if (table.count(key)) throw AlreadyExistsError(resource + " " + key + " already exists");
  Event e;
  e.type = EventType::Added;
  e.rv = rv_ + 1;
  e.resource = resource;
  e.object = make_object(std::move(obj), e.rv);
  check_size(resource, key, e.object);
  Object out = e.object;
  apply(std::move(e));
  return out;
}

Object Store::write_locked(const std::string& resource, const Object& current, json::Value candidate) {
  // A write that changes nothing keeps the resourceVersion and emits no event.
  json::ensure_object(candidate, {"metadata"})["resourceVersion"] = std::to_string(current.rv);
  if (candidate == *current.value) return current;
  Event e;
  e.type = EventType::Modified;
  e.rv = rv_ + 1;
  e.resource = resource;
  e.object = make_object(std::move(candidate), e.rv);
  check_size(resource, object_key(meta::namespace_of(*e.object), meta::name_of(*e.object)), e.object);
  e.previous = current;
  Object out = e.object;
  apply(std::move(e));
  return out;
}

Object Store::update(const std::string& resource, std::string_view ns, std::string_view name,
                     const std::function<std::optional<json::Value>(const Object&)>& mutate) {
  std::unique_lock l(mu_);
  auto& table = tables_[resource];
  auto it = table.find(object_key(ns, name));
  if (it == table.end()) throw NotFoundError(resource + " " + object_key(ns, name) + " not found");
  Object current = it->second;
  auto next = mutate(current);
  if (!next) return current;
  return write_locked(resource, current, std::move(*next));
}

Object Store::replace(const std::string& resource, json::Value v, std::int64_t expected_rv) {
  std::unique_lock l(mu_);
  auto& table = tables_[resource];
  std::string key = key_of(v);
  auto it = table.find(key);
  if (it == table.end()) throw NotFoundError(resource + " " + key + " not found");
  if (it->second.rv != expected_rv)
    throw StaleError(resource + " " + key + " is at resourceVersion " + std::to_string(it->second.rv) + ", not " +
                     std::to_string(expected_rv));
  Object current = it->second;
  return write_locked(resource, current, std::move(v));
}

Object Store::remove(const std::string& resource, std::string_view ns, std::string_view name, std::int64_t expected_rv,
                     const json::Value* final_state) {
  std::unique_lock l(mu_);
  auto& table = tables_[resource];
  auto it = table.find(object_key(ns, name));
  if (it == table.end()) throw NotFoundError(resource + " " + object_key(ns, name) + " not found");
  Object current = it->second;
  if (expected_rv != 0 && current.rv != expected_rv)
    throw StaleError(resource + " " + object_key(ns, name) + " changed before it could be deleted");
  Event e;
  e.type = EventType::Deleted;
  e.rv = rv_ + 1;
  e.resource = resource;
  e.object = make_object(final_state ? *final_state : *current.value, e.rv);
  e.previous = current;
  Object out = e.object;
  apply(std::move(e));
  return out;
}

void Store::locked(const std::function<void(std::int64_t)>& fn) {
  std::unique_lock l(mu_);
  fn(rv_);
}

std::vector<std::pair<std::string, Object>> Store::snapshot(const std::string& resource, std::string_view ns) const {
  std::vector<std::pair<std::string, Object>> out;
  auto add_table = [&](const std::string& name, const Table& t) {
    for_range(t, ns, {}, [&](const std::string&, const Object& o) {
      out.emplace_back(name, o);
      return true;
    });
  };
  if (resource == "*") {
    for (const auto& [r, t] : tables_) add_table(r, t);
  } else if (auto t = tables_.find(resource); t != tables_.end()) {
    add_table(resource, t->second);
  }
  return out;
}

std::vector<std::shared_ptr<const Event>> Store::backlog_locked(const std::string& resource, std::int64_t from_rv, bool initial,
                                         std::string_view initial_ns) const {
  if (from_rv >= 0 && from_rv < rv_ && from_rv < compacted_rv_) throw TooOldError(from_rv, compacted_rv_ + 1);
  std::vector<std::shared_ptr<const Event>> out;
  if (initial) {
    auto objects = snapshot(resource, initial_ns);
    out.reserve(objects.size());
    for (auto& [table, o] : objects) {
      Event e;
      e.type = EventType::Added;
      e.rv = o.rv;
      e.object = std::move(o);
      e.resource = table;
      out.push_back(std::make_shared<const Event>(std::move(e)));
    }
  } else if (from_rv >= 0) {
    // The history is in rv order: start at the first event after from_rv.
    auto it = std::partition_point(history_.begin(), history_.end(), [&](const auto& e) { return e->rv <= from_rv; });
    out.reserve(static_cast<std::size_t>(history_.end() - it));
    for (; it != history_.end(); ++it)
      if (resource == "*" || (*it)->resource == resource) out.push_back(*it);
  }
  return out;
}

std::vector<Object> Store::list_at(const std::string& resource, std::string_view ns, std::int64_t rv) const {
  std::shared_lock l(mu_);
  if (rv < rv_ && rv < compacted_rv_) throw TooOldError(rv, compacted_rv_ + 1);
  std::map<std::string, Object> objects;
  for (auto& [_, o] : snapshot(resource, ns)) objects.emplace(object_key(meta::namespace_of(*o), meta::name_of(*o)), std::move(o));
  // Undo what happened after rv, newest first.
  for (auto it = history_.rbegin(); it != history_.rend() && (*it)->rv > rv; ++it) {
    const Event& e = **it;
    if (e.resource != resource || !e.object) continue;
    std::string_view ens = meta::namespace_of(*e.object);
    if (!ns.empty() && ens != ns) continue;
    std::string key = object_key(ens, meta::name_of(*e.object));
    if (e.type == EventType::Added) objects.erase(key);
    else if (e.type == EventType::Modified && e.previous) objects[key] = e.previous;
    else if (e.type == EventType::Deleted) objects[key] = e.object;
  }
  std::vector<Object> out;
  out.reserve(objects.size());
  for (auto& [_, o] : objects) out.push_back(std::move(o));
  return out;
}

std::uint64_t Store::watch(const std::string& resource, std::int64_t from_rv, std::shared_ptr<Watcher> w, bool initial,
                           std::string_view initial_ns, const std::function<void(std::int64_t)>& initial_done) {
  std::unique_lock l(mu_);
  for (const auto& e : backlog_locked(resource, from_rv, initial, initial_ns)) w->on_event(*e);
  if (initial && initial_done) initial_done(rv_);
  std::uint64_t id = next_watch_++;
  subs_[id] = Sub{resource, std::move(w)};
  return id;
}

Store::Backlog Store::watch_with_backlog(const std::string& resource, std::int64_t from_rv, std::shared_ptr<Watcher> w,
                                         bool initial, std::string_view initial_ns) {
  std::unique_lock l(mu_);
  Backlog b;
  b.events = backlog_locked(resource, from_rv, initial, initial_ns);
  b.rv = rv_;
  b.id = next_watch_++;
  subs_[b.id] = Sub{resource, std::move(w)};
  return b;
}

void Store::unwatch(std::uint64_t id) {
  std::shared_ptr<Watcher> drop;  // destroyed outside the lock
  std::unique_lock l(mu_);
  auto it = subs_.find(id);
  if (it == subs_.end()) return;
  drop = std::move(it->second.watcher);
  subs_.erase(it);
}

void Store::compact() {
  std::unique_lock l(mu_);
  history_.clear();
  compacted_rv_ = rv_;
  if (backend_) backend_->prune_events(rv_);
}

void Store::set_history(std::size_t events) {
  std::unique_lock l(mu_);
  opts_.history = events;
  while (history_.size() > opts_.history) {
    compacted_rv_ = history_.front()->rv;
    history_.pop_front();
  }
}

std::vector<std::string> Store::resources() const {
  std::shared_lock l(mu_);
  std::vector<std::string> out;
  for (const auto& [r, t] : tables_) out.push_back(r);
  return out;
}

}  // namespace capstan::apiserver::storage
