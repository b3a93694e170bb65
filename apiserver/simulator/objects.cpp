#include "apiserver/simulator/objects.h"

#include "apiserver/simulator/api.h"
#include "runtime/meta/object.h"

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace capstan::simulator {
namespace {

void write_canonical(const json::Value& v, std::string& out) {
  if (const auto* o = v.if_object()) {
    std::vector<const json::Object::value_type*> members;
    members.reserve(o->size());
    for (const auto& kv : *o) members.push_back(&kv);
    std::sort(members.begin(), members.end(), [](auto* a, auto* b) { return a->key() < b->key(); });
    out += '{';
    for (std::size_t i = 0; i < members.size(); ++i) {
      if (i) out += ',';
      out += boost::json::serialize(json::String(members[i]->key()));
      out += ':';
      write_canonical(members[i]->value(), out);
    }
    out += '}';
    return;
  }
  if (const auto* a = v.if_array()) {
    out += '[';
    for (std::size_t i = 0; i < a->size(); ++i) {
      if (i) out += ',';
      write_canonical((*a)[i], out);
    }
    out += ']';
    return;
  }
  if (v.is_double()) {
    // 1.0 and 1 are the same number to Go's encoding: hash them alike.
    double d = v.get_double();
    if (d == static_cast<double>(static_cast<std::int64_t>(d))) {
      out += std::to_string(static_cast<std::int64_t>(d));
      return;
    }
  }
  out += boost::json::serialize(v);
}

}  // namespace

std::string canonical_json(const json::Value& v) {
  std::string out;
  write_canonical(v, out);
  return out;
}

std::uint32_t fnv32a(std::string_view data, std::uint32_t h) {
  for (unsigned char c : data) {
    h ^= c;
    h *= 16777619u;
  }
  return h;
}

std::uint32_t fnv32(std::string_view data, std::uint32_t h) {
  for (unsigned char c : data) {
    h *= 16777619u;
    h ^= c;
  }
  return h;
}

std::string safe_encode(std::string_view s) {
  static constexpr std::string_view kAlphanums = "bcdfghjklmnpqrstvwxz2456789";
  std::string out(s.size(), ' ');
  for (std::size_t i = 0; i < s.size(); ++i) out[i] = kAlphanums[static_cast<unsigned char>(s[i]) % kAlphanums.size()];
  return out;
}

std::string pod_template_hash(const json::Value& pod_template, std::optional<std::int64_t> collision_count) {
  std::uint32_t h = fnv32a(canonical_json(pod_template));
  if (collision_count) {
    auto c = static_cast<std::uint32_t>(*collision_count);
    char bytes[8] = {static_cast<char>(c & 0xff), static_cast<char>((c >> 8) & 0xff), static_cast<char>((c >> 16) & 0xff),
                     static_cast<char>((c >> 24) & 0xff), 0, 0, 0, 0};
    h = fnv32a(std::string_view(bytes, 8), h);
  }
  return safe_encode(std::to_string(h));
}

int scaled_value(const json::Value* v, int total, bool round_up) {
  if (!v || v->is_null()) return 0;
  if (v->is_int64()) return static_cast<int>(v->get_int64());
  if (v->is_uint64()) return static_cast<int>(v->get_uint64());
  if (v->is_double()) return static_cast<int>(v->get_double());
  if (!v->is_string()) throw std::invalid_argument("invalid value for IntOrString: invalid type: " + json::serialize(*v));
  std::string_view s = v->get_string();
  if (s.empty() || s.back() != '%')
    throw std::invalid_argument("invalid value for IntOrString: invalid type: string is not a percentage: \"" +
                                std::string(s) + "\"");
  long long pct = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size() - 1, pct);
  if (ec != std::errc() || end != s.data() + s.size() - 1)
    throw std::invalid_argument("invalid value for IntOrString: invalid value for percent: \"" + std::string(s) + "\"");
  long long num = pct * static_cast<long long>(total);
  long long q = num / 100;
  if (round_up && num % 100 != 0 && num > 0) ++q;
  return static_cast<int>(q);
}

std::int64_t int_at(const json::Value& v, json::Path p, std::int64_t fallback) {
  return json::get_int(v, p).value_or(fallback);
}

std::string_view pod_phase(const json::Value& pod) { return json::get_string(pod, {"status", "phase"}); }

bool pod_terminal(const json::Value& pod) {
  auto p = pod_phase(pod);
  return p == "Succeeded" || p == "Failed";
}

bool pod_active(const json::Value& pod) { return !pod_terminal(pod) && !meta::is_deleting(pod); }

std::optional<meta::TimePoint> pod_ready_since(const json::Value& pod) {
  auto c = meta::find_condition(pod, "Ready");
  if (!c || c->status != "True") return std::nullopt;
  return meta::parse_rfc3339(c->last_transition_time);
}

bool pod_available(const json::Value& pod, std::int64_t min_ready_seconds, meta::TimePoint now) {
  if (!meta::pod_ready(pod)) return false;
  if (min_ready_seconds <= 0) return true;
  auto since = pod_ready_since(pod);
  return since && *since + std::chrono::seconds(min_ready_seconds) < now;
}

std::optional<std::chrono::milliseconds> until_available(const json::Value& pod, std::int64_t min_ready_seconds,
                                                         meta::TimePoint now) {
  if (!meta::pod_ready(pod) || min_ready_seconds <= 0) return std::nullopt;
  auto since = pod_ready_since(pod);
  if (!since) return std::nullopt;
  auto at = *since + std::chrono::seconds(min_ready_seconds);
  if (at < now) return std::nullopt;
  return std::chrono::duration_cast<std::chrono::milliseconds>(at - now) + std::chrono::milliseconds(1);
}

json::Value pod_from_template(const json::Value& pod_template, const json::Value& owner) {
  json::Object md;
  for (auto k : {"labels", "annotations", "finalizers"})
    if (const auto* v = json::find(pod_template, {"metadata", k}); v && !v->is_null()) md[k] = *v;
  md["ownerReferences"] = json::Array{meta::controller_reference(owner).to_json()};
  json::Object pod{{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", std::move(md)}};
  if (const auto* spec = json::find(pod_template, {"spec"})) pod["spec"] = *spec;
  return pod;
}

bool controlled_by(const json::Value& obj, std::string_view owner_uid) {
  auto c = meta::controller_of(obj);
  return c && c->uid == owner_uid;
}

bool has_controller(const json::Value& obj) { return meta::controller_of(obj).has_value(); }

std::vector<Object> claim(Api& w, const std::string& resource, const json::Value& owner,
                                   const meta::LabelSelector& selector, bool can_adopt,
                                   const std::function<bool(const json::Value&)>& member) {
  std::string ns(meta::namespace_of(owner));
  std::string uid(meta::uid_of(owner));
  bool owner_deleting = meta::is_deleting(owner);
  std::vector<Object> out;
  for (auto& o : w.list(resource, ns)) {
    const json::Value& v = *o;
    auto ctrl = meta::controller_of(v);
    if (member && !member(v)) continue;
    bool matches = !selector.empty() && selector.matches(v);
    if (ctrl) {
      if (ctrl->uid != uid) continue;
      if (matches || meta::is_deleting(v)) {
        out.push_back(o);
        continue;
      }
      if (owner_deleting) continue;
      // Owned but no longer selected: let it go.
      w.mutate(resource, ns, meta::name_of(v), false, [&](json::Value& cur) {
        auto* refs = json::find(cur, {"metadata", "ownerReferences"});
        if (!refs || !refs->is_array()) return false;
        auto& arr = refs->as_array();
        auto before = arr.size();
        arr.erase(std::remove_if(arr.begin(), arr.end(), [&](const json::Value& r) { return json::get_string(r, {"uid"}) == uid; }),
                  arr.end());
        // Decided before the erase below frees `arr` (reading it after was a heap-use-after-free
        // found by `make sanitize`).
        bool changed = before != arr.size();
        if (arr.empty()) json::erase(cur, {"metadata", "ownerReferences"});
        return changed;
      });
      continue;
    }
    if (!can_adopt || owner_deleting || !matches || meta::is_deleting(v)) continue;
    bool adopted = w.mutate(resource, ns, meta::name_of(v), false, [&](json::Value& cur) {
      if (has_controller(cur) || meta::is_deleting(cur)) return false;
      auto& md = json::ensure_object(cur, {"metadata"});
      auto& refs = md["ownerReferences"];
      if (!refs.is_array()) refs = json::Array{};
      refs.as_array().push_back(meta::controller_reference(owner).to_json());
      return true;
    });
    if (adopted) {
      auto now = w.get(resource, ns, meta::name_of(v));
      if (now) out.push_back(now);
    }
  }
  return out;
}

std::vector<std::string> owners_selecting(Api& w, const std::string& owner_resource, const json::Value& orphan) {
  std::vector<std::string> out;
  for (const auto& owner : w.list(owner_resource, meta::namespace_of(orphan))) {
    try {
      auto sel = meta::LabelSelector::from_json(json::find(*owner, {"spec", "selector"}));
      if (!sel.empty() && sel.matches(orphan)) out.emplace_back(meta::name_of(*owner));
    } catch (const meta::SelectorError&) {
    }
  }
  return out;
}

std::vector<Key> controller_keys(const Event& e, std::string_view owner_kind, const std::string& owner_resource,
                                 const std::string& orphan_resource) {
  std::vector<Key> out;
  bool controlled = false;
  for (const auto* o : {&e.object, &e.previous}) {
    if (!*o) continue;
    auto c = meta::controller_of(**o);
    if (!c) continue;
    controlled = true;
    if (c->kind != owner_kind) continue;
    Key k{owner_resource, std::string(meta::namespace_of(**o)), c->name};
    if (std::find(out.begin(), out.end(), k) == out.end()) out.push_back(std::move(k));
  }
  if (!controlled && !orphan_resource.empty() && e.object && e.type != EventType::Deleted)
    out.push_back(Key{orphan_resource, std::string(meta::namespace_of(*e.object)), std::string(meta::name_of(*e.object))});
  return out;
}

void sort_by_age(std::vector<Object>& objs) {
  std::stable_sort(objs.begin(), objs.end(), [](const Object& a, const Object& b) {
    auto ta = json::get_string(*a, {"metadata", "creationTimestamp"});
    auto tb = json::get_string(*b, {"metadata", "creationTimestamp"});
    if (ta != tb) return ta < tb;
    return meta::name_of(*a) < meta::name_of(*b);
  });
}

}  // namespace capstan::simulator
