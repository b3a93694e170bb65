#include "apiserver/builtin/go_values.h"

#include "apiserver/gofmt/gofmt.h"

#include <algorithm>
#include <vector>

namespace capstan::apiserver::builtin {

std::string go_string_map(const json::Value* v) {
  if (!v || !v->is_object()) return "map[string]string(nil)";
  std::vector<std::pair<std::string, std::string>> kvs;
  for (const auto& kv : v->as_object())
    kvs.emplace_back(std::string(kv.key()), kv.value().is_string() ? std::string(kv.value().get_string()) : std::string());
  std::sort(kvs.begin(), kvs.end());
  std::string out = "map[string]string{";
  for (std::size_t i = 0; i < kvs.size(); ++i) {
    if (i) out += ", ";
    out += gofmt::quote(kvs[i].first) + ":" + gofmt::quote(kvs[i].second);
  }
  return out + "}";
}

std::string go_string_slice(const json::Value* v) {
  if (!v || !v->is_array()) return "[]string(nil)";
  std::string out = "[]string{";
  bool first = true;
  for (const auto& x : v->as_array()) {
    if (!first) out += ", ";
    first = false;
    out += gofmt::quote(x.is_string() ? std::string_view(x.get_string()) : std::string_view());
  }
  return out + "}";
}

std::string go_label_selector(const json::Value& selector) {
  std::string out = "v1.LabelSelector{MatchLabels:" + go_string_map(json::find(selector, {"matchLabels"})) + ", MatchExpressions:";
  const auto* exprs = json::get_array(selector, {"matchExpressions"});
  if (!exprs) return out + "[]v1.LabelSelectorRequirement(nil)}";
  out += "[]v1.LabelSelectorRequirement{";
  bool first = true;
  for (const auto& e : *exprs) {
    if (!first) out += ", ";
    first = false;
    out += "v1.LabelSelectorRequirement{Key:" + gofmt::quote(json::get_string(e, {"key"})) +
           ", Operator:" + gofmt::quote(json::get_string(e, {"operator"})) +
           ", Values:" + go_string_slice(json::find(e, {"values"})) + "}";
  }
  return out + "}}";
}

std::string go_service_port_key(std::string_view protocol, std::int64_t port) {
  return "core.ServicePort{Name:\"\", Protocol:" + gofmt::quote(protocol) + ", AppProtocol:(*string)(nil), Port:" +
         std::to_string(port) + ", TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:\"\"}, NodePort:0}";
}

}  // namespace capstan::apiserver::builtin
