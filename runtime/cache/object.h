// A cached object: its compact JSON (managedFields stripped) plus the metadata the cache and
// the controllers index on, extracted once with simdjson. Immutable and shared: readers get
// a reference-counted pointer, never a copy. Everything lives in ONE allocation (this header,
// then the JSON, then the key and the metadata strings, then their offsets), with the
// reference count in the header, so an object costs its JSON plus about a hundred bytes and
// one allocator chunk. The parsed form is built only when a reader asks for it.
#pragma once

#include "runtime/json/decode.h"
#include "runtime/json/json.h"
#include "runtime/meta/selector.h"

#include <boost/smart_ptr/intrusive_ptr.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace capstan::cache {

struct OwnerRef {
  std::string_view api_version, kind, name, uid;
  bool controller = false;
};

class CachedObject;
void intrusive_ptr_add_ref(const CachedObject* o) noexcept;
void intrusive_ptr_release(const CachedObject* o) noexcept;
using ObjectPtr = boost::intrusive_ptr<const CachedObject>;

class CachedObject {
 public:
  // Builds from one object's JSON text; returns nullptr (and sets `error`) when it is not a
  // Kubernetes object. `padded`: `raw` is a view from json::decode_list or json::WatchDecoder
  // (followed by readable padding), parsed in place.
  static ObjectPtr from_json(std::string_view raw, bool strip_managed_fields, std::string* error = nullptr,
                             bool padded = false);
  // The same from text already summarised (json::WatchDecoder reads both in one pass): `meta`
  // must be the summary of `raw`, its views pointing into `raw` or its own storage.
  static ObjectPtr from_json(std::string_view raw, const json::MetaSummary& meta, bool strip_managed_fields,
                             std::string* error = nullptr);

  CachedObject(const CachedObject&) = delete;
  CachedObject& operator=(const CachedObject&) = delete;

  std::string_view json() const { return {data(), json_len_}; }
  // Parses the JSON (each call parses: callers keep the value as long as they need it).
  json::Value value() const;

  // "ns/name", or "name" for cluster-scoped objects.
  std::string_view key() const { return span(0); }
  std::string_view ns() const { return ns_len_ ? key().substr(0, ns_len_) : std::string_view(); }
  std::string_view name() const { return ns_len_ ? key().substr(ns_len_ + 1) : key(); }
  std::string_view uid() const { return span(1); }
  std::string_view resource_version() const { return span(2); }
  std::int64_t generation() const { return generation_; }
  bool deleting() const { return deleting_; }

  std::size_t label_count() const { return n_labels_; }
  std::pair<std::string_view, std::string_view> label(std::size_t i) const { return {span(3 + 2 * i), span(4 + 2 * i)}; }
  std::string_view label(std::string_view key) const;  // "" when absent
  bool has_label(std::string_view key) const;
  meta::Labels labels() const;  // a copy, for label selectors
  std::vector<OwnerRef> owners() const;
  std::string_view controller_uid() const;  // the controller owner's UID, "" when none

  // Heap bytes held by this object (its one allocation), for memory accounting.
  std::size_t heap_bytes() const { return buf_len_ + sizeof(CachedObject); }

 private:
  friend void intrusive_ptr_add_ref(const CachedObject* o) noexcept;
  friend void intrusive_ptr_release(const CachedObject* o) noexcept;
  CachedObject() = default;
  ~CachedObject() = default;

  struct Span {
    std::uint32_t off, len;
  };
  // The buffer follows the header in the same allocation.
  const char* data() const { return reinterpret_cast<const char*>(this + 1); }
  char* data() { return reinterpret_cast<char*>(this + 1); }
  std::string_view span(std::size_t i) const {
    const Span& s = spans()[i];
    return {data() + s.off, s.len};
  }
  const Span* spans() const { return reinterpret_cast<const Span*>(data() + spans_off_); }
  std::size_t owner_span(std::size_t o) const { return 3 + 2 * static_cast<std::size_t>(n_labels_) + 4 * o; }

  mutable std::atomic<std::uint32_t> refs_{0};
  std::uint32_t buf_len_ = 0;
  std::uint32_t json_len_ = 0;
  std::uint32_t spans_off_ = 0;
  std::uint32_t ns_len_ = 0;
  std::uint16_t n_labels_ = 0;
  std::uint16_t n_owners_ = 0;
  std::uint32_t controller_bits_ = 0;  // bit i: owner i is the controller (first 32 owners)
  std::int64_t generation_ = 0;
  bool deleting_ = false;
};

}  // namespace capstan::cache
