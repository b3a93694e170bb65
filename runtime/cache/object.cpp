#include "runtime/cache/object.h"

#include "runtime/json/decode.h"

#include <cstring>

namespace capstan::cache {

std::shared_ptr<const CachedObject> CachedObject::from_json(std::string_view raw, bool strip, std::string* error) {
  json::MetaSummary m;
  if (!json::summarize(raw, m, error)) return nullptr;
  if (m.name.empty()) {
    if (error) *error = "object has no metadata.name";
    return nullptr;
  }
  bool cut = strip && m.managed_fields_end > m.managed_fields_begin;
  std::size_t json_len = raw.size() - (cut ? m.managed_fields_end - m.managed_fields_begin : 0);
  std::vector<std::string_view> strings;
  strings.reserve(3 + 2 * m.labels.size() + 4 * m.owners.size());
  std::string key = m.ns.empty() ? m.name : m.ns + "/" + m.name;
  strings.push_back(key);
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
  std::size_t chars = json_len;
  for (auto s : strings) chars += s.size();
  std::size_t spans_off = (chars + alignof(Span) - 1) / alignof(Span) * alignof(Span);
  std::size_t total = spans_off + strings.size() * sizeof(Span);

  auto o = std::make_shared<CachedObject>(Private{});
  o->buf_ = std::make_unique_for_overwrite<char[]>(total);
  char* p = o->buf_.get();
  if (cut) {
    std::memcpy(p, raw.data(), m.managed_fields_begin);
    std::memcpy(p + m.managed_fields_begin, raw.data() + m.managed_fields_end, raw.size() - m.managed_fields_end);
  } else {
    std::memcpy(p, raw.data(), raw.size());
  }
  std::size_t off = json_len;
  auto* spans = reinterpret_cast<Span*>(p + spans_off);
  for (std::size_t i = 0; i < strings.size(); ++i) {
    std::memcpy(p + off, strings[i].data(), strings[i].size());
    spans[i] = Span{static_cast<std::uint32_t>(off), static_cast<std::uint32_t>(strings[i].size())};
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
  return o;
}

json::Value CachedObject::value() const { return json::parse(json(), "cached object"); }

std::string_view CachedObject::label(std::string_view key) const {
  for (std::size_t i = 0; i < n_labels_; ++i)
    if (span(3 + 2 * i) == key) return span(4 + 2 * i);
  return {};
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
