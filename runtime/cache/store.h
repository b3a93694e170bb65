// The thread-safe object store of one informer, with indexers: by controller/owner UID and
// (for informers over several namespaces) by namespace always, plus any custom index
// (name -> values of an object). Keys and index entries are views into the cached objects
// themselves, so indexing costs a few words per object.
#pragma once

#include "runtime/cache/object.h"

#include <boost/unordered/unordered_flat_set.hpp>

#include <functional>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace capstan::cache {

using IndexFunc = std::function<std::vector<std::string>(const CachedObject&)>;

// Objects by key ("ns/name"): an open-addressing set of pointers hashed by the key each object
// carries, so an entry costs about one pointer (a node-based map costs six words more).
struct ObjectKeyHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view key) const noexcept { return std::hash<std::string_view>{}(key); }
  std::size_t operator()(const ObjectPtr& o) const noexcept { return (*this)(o->key()); }
};
struct ObjectKeyEqual {
  using is_transparent = void;
  static std::string_view key(std::string_view k) noexcept { return k; }
  static std::string_view key(const ObjectPtr& o) noexcept { return o->key(); }
  template <class A, class B>
  bool operator()(const A& a, const B& b) const noexcept {
    return key(a) == key(b);
  }
};
using ObjectMap = boost::unordered_flat_set<ObjectPtr, ObjectKeyHash, ObjectKeyEqual>;
// Inserts `obj`, replacing the object under the same key; returns the replaced one (or nullptr).
ObjectPtr put(ObjectMap& map, ObjectPtr obj);
// The object under `key`, or nullptr.
ObjectPtr find(const ObjectMap& map, std::string_view key);

inline constexpr std::string_view kNamespaceIndex = "namespace";
inline constexpr std::string_view kOwnerIndex = "owner";  // every ownerReference UID

class Store {
 public:
  // `index_namespaces`: keep the namespace index (not needed when one namespace is watched).
  explicit Store(bool index_namespaces = true);

  ObjectPtr get(std::string_view key) const;
  std::vector<ObjectPtr> list() const;
  std::vector<ObjectPtr> list_namespace(std::string_view ns) const;
  std::vector<ObjectPtr> by_index(std::string_view index, std::string_view value) const;
  std::size_t size() const;
  std::vector<std::string> keys() const;

  // Adds an index (thread-safe; existing objects are indexed at once). Throws
  // std::invalid_argument when the name is taken.
  void add_index(const std::string& name, IndexFunc fn);
  void ensure_index(const std::string& name, IndexFunc fn);  // no-op when the name exists

  // Inserts or replaces; returns the previous object (nullptr when new).
  ObjectPtr upsert(ObjectPtr obj);
  // Removes; returns the removed object (nullptr when absent).
  ObjectPtr remove(std::string_view key);
  // Replaces everything (a relist) with `objects`, which become the store's table as they
  // are (no copy); returns the previous contents.
  ObjectMap replace_all(ObjectMap objects);

  // Approximate heap bytes of the store (objects, table, indexes).
  std::size_t approximate_bytes() const;

 private:
  struct Index {
    IndexFunc fn;
    std::unordered_map<std::string, std::unordered_set<const CachedObject*>> entries;
  };
  // Adds index `name` (indexing the objects already stored); false when the name is taken.
  bool insert_index(const std::string& name, IndexFunc fn);
  void index_locked(const CachedObject& obj, const CachedObject* prev);
  void unindex_locked(const CachedObject& obj);
  static void index_into(Index& idx, const CachedObject& obj);
  static void unindex_from(Index& idx, const CachedObject& obj);

  mutable std::shared_mutex mu_;
  ObjectMap objects_;
  std::map<std::string, Index, std::less<>> indexes_;
  bool index_namespaces_;
};

}  // namespace capstan::cache
