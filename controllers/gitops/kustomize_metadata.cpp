#include "controllers/gitops/kustomize_metadata.h"

#include <string_view>
#include <vector>

namespace capstan::gitops::kustomize {
namespace {

struct Spec {
  std::string_view path;  // "x[]" steps into every item of a list
  bool create;            // made when missing (else only added where it exists)
};

bool has_pod_template(std::string_view kind) {
  return kind == "Deployment" || kind == "ReplicaSet" || kind == "DaemonSet" || kind == "StatefulSet" || kind == "Job" ||
         kind == "ReplicationController";
}

std::vector<Spec> template_specs(std::string_view kind, std::string_view field) {
  const bool labels = field == "labels";
  if (has_pod_template(kind)) return {{labels ? "spec/template/metadata/labels" : "spec/template/metadata/annotations", true}};
  if (kind == "CronJob") {
    if (labels) return {{"spec/jobTemplate/spec/template/metadata/labels", true}};
    return {{"spec/jobTemplate/metadata/annotations", true}, {"spec/jobTemplate/spec/template/metadata/annotations", true}};
  }
  return {};
}

std::vector<Spec> selector_specs(std::string_view kind) {
  if (kind == "Service") return {{"spec/selector", true}};
  if (kind == "ReplicationController") return {{"spec/selector", true}, {"spec/template/metadata/labels", true}};
  if (kind == "Deployment" || kind == "ReplicaSet" || kind == "DaemonSet")
    return {{"spec/selector/matchLabels", true}, {"spec/template/metadata/labels", true}};
  if (kind == "StatefulSet")
    return {{"spec/selector/matchLabels", true}, {"spec/template/metadata/labels", true}, {"spec/volumeClaimTemplates[]/metadata/labels", true}};
  if (kind == "Job") return {{"spec/selector/matchLabels", false}, {"spec/template/metadata/labels", true}};
  if (kind == "CronJob")
    return {{"spec/jobTemplate/spec/selector/matchLabels", false}, {"spec/jobTemplate/metadata/labels", true},
            {"spec/jobTemplate/spec/template/metadata/labels", true}};
  if (kind == "PodDisruptionBudget") return {{"spec/selector/matchLabels", false}};
  if (kind == "NetworkPolicy")
    return {{"spec/podSelector/matchLabels", false}, {"spec/ingress[]/from[]/podSelector/matchLabels", false},
            {"spec/egress[]/to[]/podSelector/matchLabels", false}};
  return {};
}

void put(json::Value& node, std::string_view path, const std::map<std::string, std::string>& kv, bool create) {
  if (!node.is_object()) return;
  auto slash = path.find('/');
  std::string_view step = path.substr(0, slash);
  const bool list = step.ends_with("[]");
  if (list) step.remove_suffix(2);
  auto& o = node.as_object();
  auto* next = o.if_contains(step);
  if (list) {
    if (next && next->is_array() && slash != std::string_view::npos)
      for (auto& item : next->as_array()) put(item, path.substr(slash + 1), kv, create);
    return;
  }
  if (!next || next->is_null()) {
    if (!create) return;
    next = &(o[step] = json::Object());
  }
  if (slash != std::string_view::npos) return put(*next, path.substr(slash + 1), kv, create);
  if (!next->is_object()) return;
  for (const auto& [k, v] : kv) next->as_object()[k] = v;
}

}  // namespace

void add_labels(json::Value& obj, const std::map<std::string, std::string>& labels, LabelReach reach) {
  if (labels.empty()) return;
  put(obj, "metadata/labels", labels, true);
  std::string_view kind = json::get_string(obj, {"kind"});
  if (reach == LabelReach::kTemplates)
    for (const auto& s : template_specs(kind, "labels")) put(obj, s.path, labels, s.create);
  if (reach == LabelReach::kSelectors)
    for (const auto& s : selector_specs(kind)) put(obj, s.path, labels, s.create);
}

void add_annotations(json::Value& obj, const std::map<std::string, std::string>& annotations) {
  if (annotations.empty()) return;
  put(obj, "metadata/annotations", annotations, true);
  for (const auto& s : template_specs(json::get_string(obj, {"kind"}), "annotations")) put(obj, s.path, annotations, s.create);
}

}  // namespace capstan::gitops::kustomize
