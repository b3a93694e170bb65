#include "apis/monitoring/promql/regex.h"
#include "apis/monitoring/v1/validation.h"

namespace capstan::apis::monitoring::v1 {
namespace {

using validation::Cause;
using validation::FieldPath;

void relabelings(const json::Object& endpoint, std::string_view key, const FieldPath& path, std::vector<Cause>& out) {
  auto it = endpoint.find(key);
  if (it == endpoint.end() || !it->value().is_array()) return;
  const json::Array& configs = it->value().get_array();
  for (std::size_t i = 0; i < configs.size(); ++i) {
    const json::Value* regex = configs[i].is_object() ? json::find(configs[i], {"regex"}) : nullptr;
    validate_relabel_config(configs[i], path.child(key).index(i), out);
    if (!regex || !regex->is_string()) continue;
    if (auto why = promql::regex_error(regex->get_string()))
      out.push_back(validation::field_invalid(path.child(key).index(i).child("regex"), *regex, *why));
  }
}

std::vector<Cause> validate_monitor(const json::Value& obj, std::string_view endpoints_key) {
  std::vector<Cause> out;
  const json::Array* endpoints = json::get_array(obj, {"spec", endpoints_key});
  if (!endpoints) return out;
  FieldPath path = FieldPath("spec").child(endpoints_key);
  for (std::size_t i = 0; i < endpoints->size(); ++i) {
    if (!(*endpoints)[i].is_object()) continue;
    validate_endpoint_timing((*endpoints)[i], path.index(i), out);
    relabelings((*endpoints)[i].get_object(), "relabelings", path.index(i), out);
    relabelings((*endpoints)[i].get_object(), "metricRelabelings", path.index(i), out);
  }
  return out;
}

}  // namespace

std::vector<Cause> validate_service_monitor(const json::Value& obj) { return validate_monitor(obj, "endpoints"); }
std::vector<Cause> validate_pod_monitor(const json::Value& obj) { return validate_monitor(obj, "podMetricsEndpoints"); }

}  // namespace capstan::apis::monitoring::v1
