#include "runtime/cache/store.h"

#include <stdexcept>

namespace capstan::cache {

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
  auto it = objects_.find(key);
  return it == objects_.end() ? nullptr : it->second;
}

std::vector<ObjectPtr> Store::list() const {
  std::shared_lock l(mu_);
  std::vector<ObjectPtr> out;
  out.reserve(objects_.size());
  for (const auto& [k, o] : objects_) out.push_back(o);
  return out;
}

std::vector<ObjectPtr> Store::list_namespace(std::string_view ns) const {
  if (ns.empty()) return list();
  if (index_namespaces_) return by_index(kNamespaceIndex, ns);
  std::shared_lock l(mu_);
  std::vector<ObjectPtr> out;
  for (const auto& [k, o] : objects_)
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
    auto it = objects_.find(o->key());
    if (it != objects_.end()) out.push_back(it->second);
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
  for (const auto& [k, o] : objects_) out.emplace_back(k);
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
  std::unique_lock l(mu_);
  if (indexes_.count(name)) throw std::invalid_argument("index \"" + name + "\" already exists");
  auto& idx = indexes_[name];
  idx.fn = std::move(fn);
  for (const auto& [k, o] : objects_) index_into(idx, *o);
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
  ObjectPtr prev;
  auto it = objects_.find(obj->key());
  if (it != objects_.end()) {
    // The key view points into the old object: re-key the node with the new one's.
    auto node = objects_.extract(it);
    prev = std::move(node.mapped());
    node.key() = obj->key();
    node.mapped() = obj;
    objects_.insert(std::move(node));
  } else {
    objects_.emplace(obj->key(), obj);
  }
  index_locked(*obj, prev.get());
  return prev;
}

ObjectPtr Store::remove(std::string_view key) {
  std::unique_lock l(mu_);
  auto it = objects_.find(key);
  if (it == objects_.end()) return nullptr;
  ObjectPtr prev = std::move(it->second);
  objects_.erase(it);
  unindex_locked(*prev);
  return prev;
}

std::unordered_map<std::string, ObjectPtr> Store::replace_all(std::unordered_map<std::string, ObjectPtr> objects) {
  std::unordered_map<std::string_view, ObjectPtr> fresh;
  fresh.reserve(objects.size());
  for (auto& [k, o] : objects) fresh.emplace(o->key(), std::move(o));
  std::unique_lock l(mu_);
  objects_.swap(fresh);
  for (auto& [name, idx] : indexes_) {
    idx.entries.clear();
    for (const auto& [k, o] : objects_) index_into(idx, *o);
  }
  std::unordered_map<std::string, ObjectPtr> old;
  old.reserve(fresh.size());
  for (auto& [k, o] : fresh) old.emplace(std::string(k), std::move(o));
  return old;
}

std::size_t Store::approximate_bytes() const {
  std::shared_lock l(mu_);
  std::size_t total = objects_.bucket_count() * sizeof(void*);
  for (const auto& [k, o] : objects_) total += 64 + o->heap_bytes();
  for (const auto& [name, idx] : indexes_)
    for (const auto& [v, set] : idx.entries) total += v.capacity() + 64 + set.size() * 40 + set.bucket_count() * sizeof(void*);
  return total;
}

}  // namespace capstan::cache
