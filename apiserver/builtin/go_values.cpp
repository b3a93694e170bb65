#include "apiserver/builtin/go_values.h"

#include "runtime/gofmt/gofmt.h"

#include <algorithm>
#include <vector>

namespace capstan::apiserver::builtin {

// field.ErrorBody (apimachinery 0.34+) renders a composite bad value with json.Marshal: maps
// with sorted keys, nil as null, struct fields by their json tags (internal types, which have
// none, by their Go names).
std::string go_string_map(const json::Value* v) {
  if (!v || !v->is_object()) return "null";
  std::vector<std::pair<std::string, std::string>> kvs;
  for (const auto& kv : v->as_object())
    kvs.emplace_back(std::string(kv.key()), kv.value().is_string() ? std::string(kv.value().get_string()) : std::string());
  std::sort(kvs.begin(), kvs.end());
  json::Object sorted;
  for (auto& [k, val] : kvs) sorted[k] = val;
  return gofmt::json_marshal(sorted);
}

std::string go_string_slice(const json::Value* v) {
  if (!v || !v->is_array()) return "null";
  json::Array out;
  for (const auto& x : v->as_array()) out.emplace_back(x.is_string() ? std::string_view(x.get_string()) : std::string_view());
  return gofmt::json_marshal(out);
}

std::string go_label_selector(const json::Value& selector) {
  // metav1.LabelSelector: matchLabels and matchExpressions are omitempty.
  std::string out = "{";
  const auto* labels = json::get_object(selector, {"matchLabels"});
  if (labels && !labels->empty()) out += "\"matchLabels\":" + go_string_map(json::find(selector, {"matchLabels"}));
  const auto* exprs = json::get_array(selector, {"matchExpressions"});
  if (exprs && !exprs->empty()) {
    if (out.size() > 1) out += ",";
    out += "\"matchExpressions\":[";
    bool first = true;
    for (const auto& e : *exprs) {
      if (!first) out += ",";
      first = false;
      out += "{\"key\":" + gofmt::json_marshal(json::Value(json::get_string(e, {"key"}))) +
             ",\"operator\":" + gofmt::json_marshal(json::Value(json::get_string(e, {"operator"})));
      const auto* vals = json::get_array(e, {"values"});
      if (vals && !vals->empty()) out += ",\"values\":" + go_string_slice(json::find(e, {"values"}));
      out += "}";
    }
    out += "]";
  }
  return out + "}";
}

std::string go_service_port_key(std::string_view protocol, std::int64_t port) {
  // core.ServicePort (internal: no json tags); its IntOrString marshals as the number 0.
  return "{\"Name\":\"\",\"Protocol\":" + gofmt::json_marshal(json::Value(protocol)) + ",\"AppProtocol\":null,\"Port\":" +
         std::to_string(port) + ",\"TargetPort\":0,\"NodePort\":0}";
}

}  // namespace capstan::apiserver::builtin
