#include "apiserver/table/printer_util.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <vector>

namespace capstan::apiserver::table {

std::string go_human_duration(std::chrono::nanoseconds d) {
  auto seconds = std::chrono::duration_cast<std::chrono::seconds>(d).count();  // truncates toward zero
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  return meta::human_duration(std::chrono::seconds(seconds));
}

std::string since(std::string_view rfc3339, meta::TimePoint now) {
  if (rfc3339.empty()) return "<unknown>";
  auto t = meta::parse_rfc3339(rfc3339);
  if (!t) return "<unknown>";
  return go_human_duration(std::chrono::duration_cast<std::chrono::nanoseconds>(now - *t));
}

std::string age_of(const json::Value& obj, meta::TimePoint now) {
  return since(json::get_string(obj, {"metadata", "creationTimestamp"}), now);
}

std::string created_at(const json::Value& obj) {
  if (auto t = timestamp_at(obj, {"metadata", "creationTimestamp"})) return meta::format_rfc3339(*t);
  return "0001-01-01T00:00:00Z";
}

std::string access_modes_at(const json::Value& obj, json::Path path) {
  auto modes = strings_at(obj, path);
  auto has = [&](std::string_view m) { return std::find(modes.begin(), modes.end(), m) != modes.end(); };
  std::vector<std::string> out;
  if (has("ReadWriteOnce")) out.push_back("RWO");
  if (has("ReadOnlyMany")) out.push_back("ROX");
  if (has("ReadWriteMany")) out.push_back("RWX");
  if (has("ReadWriteOncePod")) out.push_back("RWOP");
  return join(out, ",");
}

std::string storage_class_of(const json::Value& obj) {
  if (const auto* ann = json::find(obj, {"metadata", "annotations", "volume.beta.kubernetes.io/storage-class"});
      ann && ann->is_string())
    return std::string(ann->get_string());
  return str_at(obj, {"spec", "storageClassName"});
}

std::optional<meta::TimePoint> timestamp_at(const json::Value& obj, json::Path path) {
  auto s = json::get_string(obj, path);
  if (s.empty()) return std::nullopt;
  return meta::parse_rfc3339(s);
}

std::string format_labels(const json::Object* labels) {
  if (!labels || labels->empty()) return "<none>";
  std::map<std::string, std::string> sorted;
  for (const auto& kv : *labels)
    sorted[std::string(kv.key())] = kv.value().is_string() ? std::string(kv.value().get_string()) : "";
  std::string out;
  for (const auto& [k, v] : sorted) {
    if (!out.empty()) out += ',';
    out += k + "=" + v;
  }
  return out.empty() ? "<none>" : out;
}

namespace {

bool alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// Label values: empty, or <= 63 chars of [-_.A-Za-z0-9] starting and ending alphanumeric.
bool valid_label_value(std::string_view v) {
  if (v.empty()) return true;
  if (v.size() > 63 || !alnum(v.front()) || !alnum(v.back())) return false;
  return std::all_of(v.begin(), v.end(), [](char c) { return alnum(c) || c == '-' || c == '_' || c == '.'; });
}

bool valid_dns_subdomain(std::string_view v) {
  if (v.empty() || v.size() > 253) return false;
  std::size_t b = 0;
  while (true) {
    auto e = v.find('.', b);
    auto label = v.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b);
    if (label.empty() || label.size() > 63) return false;
    if (!(std::islower(static_cast<unsigned char>(label.front())) || std::isdigit(static_cast<unsigned char>(label.front()))))
      return false;
    if (!(std::islower(static_cast<unsigned char>(label.back())) || std::isdigit(static_cast<unsigned char>(label.back()))))
      return false;
    for (char c : label)
      if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-'))
        return false;
    if (e == std::string_view::npos) return true;
    b = e + 1;
  }
}

// Qualified names: [prefix/]name, name as a non-empty label value, prefix a DNS subdomain.
bool valid_label_key(std::string_view k) {
  auto slash = k.find('/');
  std::string_view name = k;
  if (slash != std::string_view::npos) {
    if (!valid_dns_subdomain(k.substr(0, slash))) return false;
    name = k.substr(slash + 1);
  }
  return !name.empty() && valid_label_value(name);
}

struct Req {
  std::string key;
  std::string op;  // "=", "in", "notin", "exists", "!"
  std::vector<std::string> values;
};

std::string req_string(Req r) {
  if (r.op == "exists") return r.key;
  if (r.op == "!") return "!" + r.key;
  if (r.op == "=") return r.key + "=" + r.values.at(0);
  std::sort(r.values.begin(), r.values.end());
  std::string out = r.key + (r.op == "in" ? " in (" : " notin (");
  for (std::size_t i = 0; i < r.values.size(); ++i) {
    if (i) out += ',';
    out += r.values[i];
  }
  return out + ")";
}

}  // namespace

std::optional<std::string> label_selector_string(const json::Value* selector) {
  if (!selector || !selector->is_object()) return std::string();
  std::vector<Req> reqs;
  if (const auto* ml = json::get_object(*selector, {"matchLabels"})) {
    for (const auto& kv : *ml) {
      std::string key(kv.key());
      std::string value = kv.value().is_string() ? std::string(kv.value().get_string()) : "";
      if (!valid_label_key(key) || !valid_label_value(value)) return std::nullopt;
      reqs.push_back({key, "=", {value}});
    }
  }
  if (const auto* me = json::get_array(*selector, {"matchExpressions"})) {
    for (const auto& e : *me) {
      Req r;
      r.key = std::string(json::get_string(e, {"key"}));
      auto op = json::get_string(e, {"operator"});
      if (const auto* vals = json::get_array(e, {"values"}))
        for (const auto& v : *vals) r.values.emplace_back(v.is_string() ? std::string(v.get_string()) : "");
      if (op == "In" || op == "NotIn") {
        r.op = op == "In" ? "in" : "notin";
        if (r.values.empty()) return std::nullopt;
      } else if (op == "Exists" || op == "DoesNotExist") {
        r.op = op == "Exists" ? "exists" : "!";
        if (!r.values.empty()) return std::nullopt;
      } else {
        return std::nullopt;
      }
      if (!valid_label_key(r.key)) return std::nullopt;
      for (const auto& v : r.values)
        if (!valid_label_value(v)) return std::nullopt;
      reqs.push_back(std::move(r));
    }
  }
  std::stable_sort(reqs.begin(), reqs.end(), [](const Req& a, const Req& b) { return a.key < b.key; });
  std::string out;
  for (const auto& r : reqs) {
    if (!out.empty()) out += ',';
    out += req_string(r);
  }
  return out;
}

std::string format_label_selector(const json::Value* selector) {
  auto s = label_selector_string(selector);
  if (!s) return "<error>";
  return s->empty() ? "<none>" : *s;
}

std::pair<std::string, std::string> layout_containers(const json::Array* containers) {
  std::string names, images;
  if (!containers) return {names, images};
  bool first = true;
  for (const auto& c : *containers) {
    if (!first) {
      names += ',';
      images += ',';
    }
    first = false;
    names += json::get_string(c, {"name"});
    images += json::get_string(c, {"image"});
  }
  return {names, images};
}

std::string load_balancer_ingress(const json::Value& obj) {
  std::set<std::string> result;
  if (const auto* ingress = json::get_array(obj, {"status", "loadBalancer", "ingress"})) {
    for (const auto& i : *ingress) {
      auto ip = json::get_string(i, {"ip"});
      auto host = json::get_string(i, {"hostname"});
      if (!ip.empty()) result.insert(std::string(ip));
      else if (!host.empty()) result.insert(std::string(host));
    }
  }
  return join(std::vector<std::string>(result.begin(), result.end()), ",");
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

std::vector<std::string> strings_at(const json::Value& obj, json::Path path) {
  std::vector<std::string> out;
  if (const auto* a = json::get_array(obj, path))
    for (const auto& e : *a)
      if (e.is_string()) out.emplace_back(e.get_string());
  return out;
}

std::string str_at(const json::Value& obj, json::Path path) { return std::string(json::get_string(obj, path)); }

std::int64_t int_at(const json::Value& obj, json::Path path, std::int64_t fallback) {
  if (const auto* v = json::find(obj, path)) {
    if (v->is_int64()) return v->get_int64();
    if (v->is_uint64()) return static_cast<std::int64_t>(v->get_uint64());
    if (v->is_double()) return static_cast<std::int64_t>(v->get_double());
  }
  return fallback;
}

std::size_t size_at(const json::Value& obj, json::Path path) {
  const auto* v = json::find(obj, path);
  if (!v) return 0;
  if (v->is_object()) return v->get_object().size();
  if (v->is_array()) return v->get_array().size();
  return 0;
}

}  // namespace capstan::apiserver::table
