// A cached object: its compact JSON (managedFields stripped) plus the metadata the cache and
// the controllers index on, extracted once with simdjson. Immutable and shared: readers get
// a shared_ptr, never a copy. Everything lives in one buffer (the JSON, then the key and the
// metadata strings, then their offsets) so an object costs its JSON plus about a hundred
// bytes. The parsed form is built only when a reader asks for it.
#pragma once

#include "runtime/json/json.h"

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

class CachedObject {
  struct Private {};

 public:
  // Builds from one object's JSON text; returns nullptr (and sets `error`) when it is not a
  // Kubernetes object.
  static std::shared_ptr<const CachedObject> from_json(std::string_view raw, bool strip_managed_fields,
                                                       std::string* error = nullptr);

  std::string_view json() const { return {buf_.get(), json_len_}; }
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
  std::vector<OwnerRef> owners() const;
  std::string_view controller_uid() const;  // the controller owner's UID, "" when none

  // Heap bytes held by this object (its buffer and itself), for memory accounting.
  std::size_t heap_bytes() const { return buf_len_ + sizeof(CachedObject); }

  explicit CachedObject(Private) {}

 private:
  struct Span {
    std::uint32_t off, len;
  };
  std::string_view span(std::size_t i) const {
    const Span& s = spans()[i];
    return {buf_.get() + s.off, s.len};
  }
  const Span* spans() const { return reinterpret_cast<const Span*>(buf_.get() + spans_off_); }
  std::size_t owner_span(std::size_t o) const { return 3 + 2 * static_cast<std::size_t>(n_labels_) + 4 * o; }

  std::unique_ptr<char[]> buf_;
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

using ObjectPtr = std::shared_ptr<const CachedObject>;

}  // namespace capstan::cache
