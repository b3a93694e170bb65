// Printer for autoscaling/v2 horizontalpodautoscalers.
#include "apiserver/table/printers_internal.h"

namespace capstan::apiserver::table::printers {
namespace {

// A *resource.Quantity's String() as the stored object spells it ("<nil>" when absent; quantities
// are printed as stored, which is their canonical form for what clients commonly write).
std::string quantity_at(const json::Value* obj, json::Path path) {
  const json::Value* q = obj ? json::find(*obj, path) : nullptr;
  if (!q || q->is_null()) return "<nil>";
  if (q->is_string()) return std::string(q->get_string());
  return json::serialize(*q);
}

std::string percent_at(const json::Value* obj, json::Path path, std::string_view fallback) {
  const json::Value* p = obj ? json::find(*obj, path) : nullptr;
  if (!p || !p->is_number()) return std::string(fallback);
  return json::serialize(*p) + "%";
}

// One metric of formatHPAMetrics: "<current>/<target>", "(avg)" for average values of External
// and Object metrics, prefixed with the resource name for (Container)Resource metrics.
std::string format_metric(const json::Value& spec, const json::Value* status) {
  std::string type = str_at(spec, {"type"});
  auto current_of = [&](std::string_view member) -> const json::Value* {
    if (!status) return nullptr;
    const json::Value* s = json::find(*status, {member});
    return s && s->is_object() ? s : nullptr;
  };
  auto value_or_average = [&](std::string_view member) {
    const json::Value* target = json::find(spec, {member, "target"});
    const json::Value* current = current_of(member);
    if (target && json::find(*target, {"averageValue"})) {
      std::string cur = current && json::find(*current, {"current", "averageValue"}) ? quantity_at(current, {"current", "averageValue"})
                                                                                   : "<unknown>";
      return cur + "/" + quantity_at(target, {"averageValue"}) + " (avg)";
    }
    std::string cur = current ? quantity_at(current, {"current", "value"}) : "<unknown>";
    return cur + "/" + quantity_at(target, {"value"});
  };
  auto resource = [&](std::string_view member) {
    const json::Value* target = json::find(spec, {member, "target"});
    const json::Value* current = current_of(member);
    std::string name = str_at(spec, {member, "name"}) + ": ";
    if (target && json::find(*target, {"averageValue"})) {
      std::string cur = current ? quantity_at(current, {"current", "averageValue"}) : "<unknown>";
      return name + cur + "/" + quantity_at(target, {"averageValue"});
    }
    return name + percent_at(current, {"current", "averageUtilization"}, "<unknown>") + "/" +
           percent_at(target, {"averageUtilization"}, "<auto>");
  };
  if (type == "External") return value_or_average("external");
  if (type == "Object") return value_or_average("object");
  if (type == "Pods") {
    const json::Value* current = current_of("pods");
    return (current ? quantity_at(current, {"current", "averageValue"}) : "<unknown>") + "/" +
           quantity_at(&spec, {"pods", "target", "averageValue"});
  }
  if (type == "Resource") return resource("resource");
  if (type == "ContainerResource") return resource("containerResource");
  return "<unknown type>";
}

// formatHPAMetrics: the first two metrics, then " + N more...".
std::string format_metrics(const json::Value& hpa) {
  const auto* specs = json::get_array(hpa, {"spec", "metrics"});
  if (!specs || specs->empty()) return "<none>";
  const auto* statuses = json::get_array(hpa, {"status", "currentMetrics"});
  std::vector<std::string> list;
  for (std::size_t i = 0; i < specs->size(); ++i) {
    const json::Value* status = statuses && i < statuses->size() ? &(*statuses)[i] : nullptr;
    list.push_back(format_metric((*specs)[i], status));
  }
  if (list.size() <= 2) return join(list, ", ");
  std::size_t more = list.size() - 2;
  list.resize(2);
  return join(list, ", ") + " + " + std::to_string(more) + " more...";
}

Row hpa_row(const json::Value& hpa, meta::TimePoint now) {
  Row row = named_row(hpa);
  row.cells.emplace_back(str_at(hpa, {"spec", "scaleTargetRef", "kind"}) + "/" + str_at(hpa, {"spec", "scaleTargetRef", "name"}));
  row.cells.emplace_back(format_metrics(hpa));
  const auto* min = json::find(hpa, {"spec", "minReplicas"});
  row.cells.emplace_back(min && min->is_number() ? json::serialize(*min) : "<unset>");
  row.cells.emplace_back(int_at(hpa, {"spec", "maxReplicas"}));
  row.cells.emplace_back(int_at(hpa, {"status", "currentReplicas"}));
  row.cells.emplace_back(age_of(hpa, now));
  return row;
}

std::vector<ColumnDefinition> hpa_columns() {
  return {
      name_column(),
      column("Reference", "string",
             "scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be "
             "collected, as well as to actually change the replica count."),
      column("Targets", "string",
             "metrics contains the specifications for which to use to calculate the desired replica count (the maximum "
             "replica count across all metrics will be used).  The desired replica count is calculated multiplying the "
             "ratio between the target value and the current value by the current number of pods.  Ergo, metrics used "
             "must decrease as the pod count is increased, and vice-versa.  See the individual metric source types for "
             "more information about how each type of metric must respond. If not set, the default metric will be set "
             "to 80% average CPU utilization."),
      column("MinPods", "string",
             "minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.  It "
             "defaults to 1 pod.  minReplicas is allowed to be 0 if the alpha feature gate HPAScaleToZero is enabled "
             "and at least one Object or External metric is configured.  Scaling is active as long as at least one "
             "metric value is available."),
      column("MaxPods", "string",
             "maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up. It cannot "
             "be less that minReplicas."),
      column("Replicas", "string",
             "currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the "
             "autoscaler."),
      age_column(),
  };
}

}  // namespace

void add_autoscaling(std::vector<Entry>& out) {
  out.push_back({"autoscaling", "horizontalpodautoscalers", FnConverter(hpa_columns(), hpa_row)});
}

}  // namespace capstan::apiserver::table::printers
