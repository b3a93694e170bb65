#include "runtime/cache/store.h"

#include <stdexcept>

namespace capstan::cache {

ObjectPtr put(ObjectMap& map, ObjectPtr obj) {
  auto it = map.find(obj->key());
  if (it == map.end()) {
    map.insert(std::move(obj));
    return nullptr;
  }
  // Same key, so the same hash and slot: the pointer is swapped where it is (one probe, not
  // an erase and an insert).
  ObjectPtr prev = std::move(const_cast<ObjectPtr&>(*it));
  const_cast<ObjectPtr&>(*it) = std::move(obj);
  return prev;
}

ObjectPtr find(const ObjectMap& map, std::string_view key) {
  auto it = map.find(key);
  return it == map.end() ? nullptr : *it;
}

Store::Store(bool index_namespaces) : index_namespaces_(index_namespaces) {
  if (index_namespaces_)
    indexes_[std::string(kNamespaceIndex)] =
        Index{[](const CachedObject& o) { return std::vector<std::string>{std::string(o.ns())}; }, {}};
  indexes_[std::string(kOwnerIndex)] = Index{[](const CachedObject& o) {
                                               std::vector<std::string> out;
                                               for (const auto& r : o.owners()) out.emplace_back(r.uid);
                                               return out;
                                             },
                                             {}};
}

ObjectPtr Store::get(std::string_view key) const {
  std::shared_lock l(mu_);
  return find(objects_, key);
}

std::vector<ObjectPtr> Store::list() const {
  std::shared_lock l(mu_);
  std::vector<ObjectPtr> out;
  out.reserve(objects_.size());
  out.insert(out.end(), objects_.begin(), objects_.end());
  return out;
}

std::vector<ObjectPtr> Store::list_namespace(std::string_view ns) const {
  if (ns.empty()) return list();
  if (index_namespaces_) return by_index(kNamespaceIndex, ns);
  std::shared_lock l(mu_);
  std::vector<ObjectPtr> out;
  for (const auto& o : objects_)
    if (o->ns() == ns) out.push_back(o);
  return out;
}

std::vector<ObjectPtr> Store::by_index(std::string_view index, std::string_view value) const {
  std::shared_lock l(mu_);
  std::vector<ObjectPtr> out;
  auto idx = indexes_.find(index);
  if (idx == indexes_.end()) throw std::invalid_argument("no index named \"" + std::string(index) + "\"");
  auto e = idx->second.entries.find(std::string(value));
  if (e == idx->second.entries.end()) return out;
  out.reserve(e->second.size());
  for (const auto* o : e->second) {
    if (auto held = find(objects_, o->key())) out.push_back(std::move(held));
  }
  return out;
}

std::size_t Store::size() const {
  std::shared_lock l(mu_);
  return objects_.size();
}

std::vector<std::string> Store::keys() const {
  std::shared_lock l(mu_);
  std::vector<std::string> out;
  out.reserve(objects_.size());
  for (const auto& o : objects_) out.emplace_back(o->key());
  return out;
}

void Store::index_into(Index& idx, const CachedObject& obj) {
  for (auto& v : idx.fn(obj)) idx.entries[v].insert(&obj);
}

void Store::unindex_from(Index& idx, const CachedObject& obj) {
  for (auto& v : idx.fn(obj)) {
    auto e = idx.entries.find(v);
    if (e == idx.entries.end()) continue;
    e->second.erase(&obj);
    if (e->second.empty()) idx.entries.erase(e);
  }
}

void Store::add_index(const std::string& name, IndexFunc fn) {
  if (!insert_index(name, std::move(fn))) throw std::invalid_argument("index \"" + name + "\" already exists");
}

void Store::ensure_index(const std::string& name, IndexFunc fn) { insert_index(name, std::move(fn)); }

bool Store::insert_index(const std::string& name, IndexFunc fn) {
  std::unique_lock l(mu_);
  if (indexes_.count(name)) return false;
  auto& idx = indexes_[name];
  idx.fn = std::move(fn);
  for (const auto& o : objects_) index_into(idx, *o);
  return true;
}

void Store::index_locked(const CachedObject& obj, const CachedObject* prev) {
  for (auto& [name, idx] : indexes_) {
    if (prev) unindex_from(idx, *prev);
    index_into(idx, obj);
  }
}

void Store::unindex_locked(const CachedObject& obj) {
  for (auto& [name, idx] : indexes_) unindex_from(idx, obj);
}

ObjectPtr Store::upsert(ObjectPtr obj) {
  std::unique_lock l(mu_);
  ObjectPtr prev = put(objects_, obj);
  index_locked(*obj, prev.get());
  return prev;
}

ObjectPtr Store::remove(std::string_view key) {
  std::unique_lock l(mu_);
  auto it = objects_.find(key);
  if (it == objects_.end()) return nullptr;
  ObjectPtr prev = *it;
  objects_.erase(it);
  unindex_locked(*prev);
  return prev;
}

ObjectMap Store::replace_all(ObjectMap objects) {
  std::unique_lock l(mu_);
  objects_.swap(objects);
  for (auto& [name, idx] : indexes_) {
    idx.entries.clear();
    for (const auto& o : objects_) index_into(idx, *o);
  }
  return objects;
}

std::size_t Store::approximate_bytes() const {
  std::shared_lock l(mu_);
  std::size_t total = objects_.bucket_count() * (sizeof(ObjectPtr) + 1);
  for (const auto& o : objects_) total += o->heap_bytes();
  for (const auto& [name, idx] : indexes_)
    for (const auto& [v, set] : idx.entries) total += v.capacity() + 64 + set.size() * 40 + set.bucket_count() * sizeof(void*);
  return total;
}

}  // namespace capstan::cache
