#include "e2e/differential/normalize.h"

#include <algorithm>
#include <sstream>

namespace capstan::e2e::diff {
namespace {

const std::regex& uid_re() {
  static const std::regex re("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
  return re;
}
const std::regex& time_re() {
  static const std::regex re("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})");
  return re;
}

// A PEM block (certificates, keys): each server has its own CA, so its kube-root-ca.crt and
// token Secrets' ca.crt always differ.
const std::regex& pem_re() {
  static const std::regex re("-----BEGIN ([A-Z ]+)-----[^-]*-----END [A-Z ]+-----\\n?");
  return re;
}

std::string mask_string(std::string s, const Masks& m) {
  if (s.find("-----BEGIN ") != std::string::npos) s = std::regex_replace(s, pem_re(), "<$1>");
  s = std::regex_replace(s, uid_re(), "<uid>");
  s = std::regex_replace(s, time_re(), "<time>");
  for (const auto& [re, rep] : m.text) s = std::regex_replace(s, re, rep);
  return s;
}

std::vector<std::string> split_path(const std::string& p) {
  std::vector<std::string> out;
  std::stringstream ss(p);
  for (std::string seg; std::getline(ss, seg, '/');)
    if (!seg.empty()) out.push_back(seg);
  return out;
}

// Applies `fn(parent_object, key)` / `fn_arr(parent_array, index)` at every match of `segs`.
void at_path(json::Value& v, const std::vector<std::string>& segs, std::size_t i, bool drop) {
  if (i + 1 == segs.size()) {
    if (auto* o = v.if_object()) {
      if (segs[i] == "*") {
        if (drop) o->clear();
        else for (auto& kv : *o) kv.value() = "<masked>";
      } else if (auto it = o->find(segs[i]); it != o->end()) {
        if (drop) o->erase(it);
        else it->value() = "<masked>";
      }
    } else if (auto* a = v.if_array()) {
      if (segs[i] == "*") {
        if (drop) a->clear();
        else for (auto& e : *a) e = "<masked>";
      }
    }
    return;
  }
  if (auto* o = v.if_object()) {
    if (segs[i] == "*") {
      for (auto& kv : *o) at_path(kv.value(), segs, i + 1, drop);
    } else if (auto it = o->find(segs[i]); it != o->end()) {
      at_path(it->value(), segs, i + 1, drop);
    }
  } else if (auto* a = v.if_array()) {
    if (segs[i] == "*") {
      for (auto& e : *a) at_path(e, segs, i + 1, drop);
    } else {
      std::size_t idx = std::stoul(segs[i]);
      if (idx < a->size()) at_path((*a)[idx], segs, i + 1, drop);
    }
  }
}

// The volatile members of an ObjectMeta or ListMeta.
void mask_metadata(json::Object& md) {
  for (auto key : {"uid", "resourceVersion", "creationTimestamp", "deletionTimestamp"})
    if (auto it = md.find(key); it != md.end() && !it->value().is_null()) it->value() = "<" + std::string(key) + ">";
  if (auto it = md.find("continue"); it != md.end() && it->value().is_string() && !it->value().as_string().empty())
    it->value() = "<continue>";
  if (auto it = md.find("managedFields"); it != md.end() && it->value().is_array())
    for (auto& e : it->value().as_array())
      if (auto* o = e.if_object())
        if (auto t = o->find("time"); t != o->end()) t->value() = "<time>";
}

void walk(json::Value& v, const Masks& m) {
  if (auto* o = v.if_object()) {
    for (auto& kv : *o) {
      if (kv.key() == "metadata" && kv.value().is_object()) mask_metadata(kv.value().as_object());
      walk(kv.value(), m);
    }
  } else if (auto* a = v.if_array()) {
    for (auto& e : *a) walk(e, m);
  } else if (v.is_string()) {
    v = mask_string(std::string(v.as_string()), m);
  }
}

std::string brief(const json::Value& v) {
  std::string s = json::serialize(v);
  return s.size() > 160 ? s.substr(0, 157) + "..." : s;
}

void diff_into(const json::Value& a, const json::Value& b, const std::string& path, std::vector<std::string>& out, std::size_t limit) {
  if (out.size() >= limit) return;
  const std::string at = path.empty() ? "/" : path;
  if (a.is_object() && b.is_object()) {
    const auto& oa = a.as_object();
    const auto& ob = b.as_object();
    for (const auto& kv : oa) {
      auto it = ob.find(kv.key());
      std::string p = path + "/" + std::string(kv.key());
      if (it == ob.end()) {
        if (out.size() < limit) out.push_back(p + ": only on embedded: " + brief(kv.value()));
      } else {
        diff_into(kv.value(), it->value(), p, out, limit);
      }
    }
    for (const auto& kv : ob)
      if (!oa.contains(kv.key()) && out.size() < limit)
        out.push_back(path + "/" + std::string(kv.key()) + ": only on kube: " + brief(kv.value()));
    return;
  }
  if (a.is_array() && b.is_array()) {
    const auto& aa = a.as_array();
    const auto& ab = b.as_array();
    if (aa.size() != ab.size()) out.push_back(at + ": " + std::to_string(aa.size()) + " items on embedded, " + std::to_string(ab.size()) + " on kube");
    for (std::size_t i = 0; i < std::min(aa.size(), ab.size()); ++i) diff_into(aa[i], ab[i], path + "/" + std::to_string(i), out, limit);
    for (std::size_t i = ab.size(); i < aa.size() && out.size() < limit; ++i)
      out.push_back(path + "/" + std::to_string(i) + ": only on embedded: " + brief(aa[i]));
    for (std::size_t i = aa.size(); i < ab.size() && out.size() < limit; ++i)
      out.push_back(path + "/" + std::to_string(i) + ": only on kube: " + brief(ab[i]));
    return;
  }
  // Numbers compare by value whatever their JSON representation (1 and 1.0).
  auto na = json::as_number(a), nb = json::as_number(b);
  if (na && nb ? *na == *nb : a == b) return;
  out.push_back(at + ": embedded " + brief(a) + ", kube " + brief(b));
}

// A 422 Invalid Status lists its causes in the order the server's validators ran (Go map
// order in places); clients cannot rely on it. The causes are sorted and the message is
// rebuilt from them, as field.ErrorList.ToAggregate builds it.
void canonical_invalid(json::Value& v) {
  auto* o = v.if_object();
  if (!o || json::get_string(v, {"kind"}) != "Status" || json::get_string(v, {"reason"}) != "Invalid") return;
  auto* details = o->if_contains("details");
  auto* causes = details && details->is_object() ? details->as_object().if_contains("causes") : nullptr;
  auto* message = o->if_contains("message");
  if (!causes || !causes->is_array() || !message || !message->is_string()) return;
  auto& list = causes->as_array();
  std::sort(list.begin(), list.end(), [](const json::Value& a, const json::Value& b) { return json::serialize(a) < json::serialize(b); });
  std::string text(message->get_string());
  auto at = text.find(" is invalid: ");
  if (at == std::string::npos) return;
  std::vector<std::string> parts;
  for (const auto& c : list) {
    std::string field(json::get_string(c, {"field"})), msg(json::get_string(c, {"message"}));
    std::string part = field.empty() ? msg : field + ": " + msg;
    if (std::find(parts.begin(), parts.end(), part) == parts.end()) parts.push_back(part);
  }
  std::string joined = parts.size() == 1 ? parts[0] : "[";
  if (parts.size() != 1) {
    for (std::size_t i = 0; i < parts.size(); ++i) joined += (i ? ", " : "") + parts[i];
    joined += "]";
  }
  *message = text.substr(0, at) + " is invalid: " + joined;
}

// A SelfSubjectRulesReview lists the rules in the order the authorizer visited the bindings;
// kube-apiserver visits them from its informer cache in Go map order, so the order changes from
// one request to the next. The rules are compared as sets.
void canonical_rules_review(json::Value& v) {
  if (json::get_string(v, {"kind"}) != "SelfSubjectRulesReview") return;
  auto* status = v.as_object().if_contains("status");
  if (!status || !status->is_object()) return;
  for (const char* key : {"resourceRules", "nonResourceRules"}) {
    auto* rules = status->as_object().if_contains(key);
    if (!rules || !rules->is_array()) continue;
    auto& list = rules->as_array();
    std::sort(list.begin(), list.end(), [](const json::Value& a, const json::Value& b) { return json::serialize(a) < json::serialize(b); });
  }
}

}  // namespace

void normalize(json::Value& v, const Masks& extra) {
  canonical_invalid(v);
  canonical_rules_review(v);
  walk(v, extra);
  for (const auto& p : extra.mask) at_path(v, split_path(p), 0, false);
  for (const auto& p : extra.drop) at_path(v, split_path(p), 0, true);
}

std::string normalize_text(std::string s, const Masks& extra) {
  s = mask_string(std::move(s), extra);
  // kubectl's ages: "5s", "3m2s", "2m", "<invalid>" in AGE columns.
  static const std::regex age("\\b[0-9]+[smhd]([0-9]+[smh])?\\b");
  return std::regex_replace(s, age, "<age>");
}

std::vector<std::string> differences(const json::Value& embedded, const json::Value& kube, std::size_t limit) {
  std::vector<std::string> out;
  diff_into(embedded, kube, "", out, limit);
  return out;
}

}  // namespace capstan::e2e::diff
