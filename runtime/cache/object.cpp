#include "runtime/cache/object.h"

#include "runtime/json/decode.h"

#include <cstring>
#include <new>

namespace capstan::cache {

static_assert(alignof(CachedObject) >= 4, "the spans after the header need 4-byte alignment");

void intrusive_ptr_add_ref(const CachedObject* o) noexcept { o->refs_.fetch_add(1, std::memory_order_relaxed); }

void intrusive_ptr_release(const CachedObject* o) noexcept {
  if (o->refs_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  o->~CachedObject();
  ::operator delete(const_cast<CachedObject*>(o));
}

ObjectPtr CachedObject::from_json(std::string_view raw, bool strip, std::string* error, bool padded) {
  thread_local json::MetaSummary m;
  if (!json::summarize(raw, m, error, padded)) return nullptr;
  if (!padded) raw = std::string_view(m.storage.front()).substr(0, raw.size());  // the views point into the copy
  return from_json(raw, m, strip, error);
}

ObjectPtr CachedObject::from_json(std::string_view raw, const json::MetaSummary& m, bool strip, std::string* error) {
  if (m.name.empty()) {
    if (error) *error = "object has no metadata.name";
    return nullptr;
  }
  bool cut = strip && m.managed_fields_end > m.managed_fields_begin;
  // The JSON kept: `head` then `tail` (the text around managedFields when it is cut).
  std::string_view head = cut ? raw.substr(0, m.managed_fields_begin) : raw;
  std::string_view tail = cut ? raw.substr(m.managed_fields_end) : std::string_view();
  std::size_t json_len = head.size() + tail.size();
  thread_local std::vector<std::string_view> strings;
  strings.clear();
  std::string key;
  if (!m.ns.empty()) {
    key.reserve(m.ns.size() + 1 + m.name.size());
    key.append(m.ns).append("/").append(m.name);
  }
  strings.push_back(m.ns.empty() ? m.name : std::string_view(key));
  strings.push_back(m.uid);
  strings.push_back(m.resource_version);
  for (const auto& [k, v] : m.labels) {
    strings.push_back(k);
    strings.push_back(v);
  }
  for (const auto& ow : m.owners) {
    strings.push_back(ow.api_version);
    strings.push_back(ow.kind);
    strings.push_back(ow.name);
    strings.push_back(ow.uid);
  }
  // A metadata string is almost always a view into the JSON (it appears there unescaped): its
  // span then points there and costs no copy. Only the key ("ns/name") and the rare escaped
  // strings are copied after the JSON.
  constexpr std::uint32_t kCopy = UINT32_MAX;
  const auto raw_begin = reinterpret_cast<std::uintptr_t>(raw.data());
  auto offset_in_json = [&](std::string_view s) -> std::uint32_t {
    if (s.empty()) return 0;
    auto at = reinterpret_cast<std::uintptr_t>(s.data());
    if (at < raw_begin || at + s.size() > raw_begin + raw.size()) return kCopy;
    auto off = static_cast<std::size_t>(at - raw_begin);
    if (off + s.size() <= head.size()) return static_cast<std::uint32_t>(off);
    if (cut && off >= m.managed_fields_end) return static_cast<std::uint32_t>(off - (m.managed_fields_end - m.managed_fields_begin));
    return kCopy;
  };
  thread_local std::vector<std::uint32_t> found;
  found.assign(strings.size(), kCopy);
  std::size_t chars = json_len;
  for (std::size_t i = 0; i < strings.size(); ++i) {
    found[i] = offset_in_json(strings[i]);
    if (found[i] == kCopy) chars += strings[i].size();
  }
  std::size_t spans_off = (chars + alignof(Span) - 1) / alignof(Span) * alignof(Span);
  std::size_t total = spans_off + strings.size() * sizeof(Span);

  CachedObject* o = new (::operator new(sizeof(CachedObject) + total)) CachedObject();
  ObjectPtr owner(o);
  char* p = o->data();
  std::memcpy(p, head.data(), head.size());
  if (!tail.empty()) std::memcpy(p + head.size(), tail.data(), tail.size());
  std::size_t off = json_len;
  auto* spans = reinterpret_cast<Span*>(p + spans_off);
  for (std::size_t i = 0; i < strings.size(); ++i) {
    auto len = static_cast<std::uint32_t>(strings[i].size());
    if (found[i] != kCopy) {
      spans[i] = Span{found[i], len};
      continue;
    }
    std::memcpy(p + off, strings[i].data(), strings[i].size());
    spans[i] = Span{static_cast<std::uint32_t>(off), len};
    off += strings[i].size();
  }
  o->buf_len_ = static_cast<std::uint32_t>(total);
  o->json_len_ = static_cast<std::uint32_t>(json_len);
  o->spans_off_ = static_cast<std::uint32_t>(spans_off);
  o->ns_len_ = static_cast<std::uint32_t>(m.ns.size());
  o->n_labels_ = static_cast<std::uint16_t>(m.labels.size());
  o->n_owners_ = static_cast<std::uint16_t>(m.owners.size());
  for (std::size_t i = 0; i < m.owners.size() && i < 32; ++i)
    if (m.owners[i].controller) o->controller_bits_ |= 1u << i;
  o->generation_ = m.generation;
  o->deleting_ = m.deleting;
  return owner;
}

json::Value CachedObject::value() const { return json::parse(json(), "cached object"); }

std::string_view CachedObject::label(std::string_view key) const {
  for (std::size_t i = 0; i < n_labels_; ++i)
    if (span(3 + 2 * i) == key) return span(4 + 2 * i);
  return {};
}

meta::Labels CachedObject::labels() const {
  meta::Labels out;
  for (std::size_t i = 0; i < label_count(); ++i) {
    auto [k, v] = label(i);
    out.emplace(std::string(k), std::string(v));
  }
  return out;
}

bool CachedObject::has_label(std::string_view key) const {
  for (std::size_t i = 0; i < n_labels_; ++i)
    if (span(3 + 2 * i) == key) return true;
  return false;
}

std::vector<OwnerRef> CachedObject::owners() const {
  std::vector<OwnerRef> out;
  out.reserve(n_owners_);
  for (std::size_t o = 0; o < n_owners_; ++o) {
    std::size_t b = owner_span(o);
    out.push_back({span(b), span(b + 1), span(b + 2), span(b + 3), o < 32 && (controller_bits_ >> o & 1u)});
  }
  return out;
}

std::string_view CachedObject::controller_uid() const {
  for (std::size_t o = 0; o < n_owners_ && o < 32; ++o)
    if (controller_bits_ >> o & 1u) return span(owner_span(o) + 3);
  return {};
}

}  // namespace capstan::cache
