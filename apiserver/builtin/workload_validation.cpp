// Deployment, ReplicaSet, StatefulSet, DaemonSet and Job validation in upstream order:
// replicas, selector, the pod template against the selector, then kind-specific policies.
#include "apiserver/builtin/workload_validation.h"

#include "apiserver/builtin/go_values.h"
#include "apiserver/builtin/object_meta.h"
#include "apiserver/builtin/pod_validation.h"
#include "apiserver/builtin/selector_validation.h"
#include "runtime/gofmt/gofmt.h"

namespace capstan::apiserver::builtin {
namespace {

using validation::Cause;
using validation::FieldPath;
using Causes = std::vector<Cause>;

const FieldPath kSpec("spec");
const char* kNegative = "must be greater than or equal to 0";

// ValidateNonnegativeField of an optional integer spec field.
void nonnegative(const json::Value& obj, std::string_view key, Causes& out) {
  if (auto v = json::get_int(obj, {"spec", key}); v && *v < 0)
    out.push_back(validation::field_invalid(kSpec.child(key), json::Value(*v), kNegative));
}

// The selector part shared by Deployment, ReplicaSet and StatefulSet: Required when absent,
// ValidateLabelSelector, "empty selector is invalid for <kind>"; then LabelSelectorAsSelector.
// Returns nullopt when the selector did not parse (the caller reports it its own way).
std::optional<ParsedSelector> required_selector(const json::Value& obj, std::string_view kind, Causes& out) {
  const auto* sel = json::find(obj, {"spec", "selector"});
  if (sel && sel->is_null()) sel = nullptr;
  auto path = kSpec.child("selector");
  if (!sel) {
    out.push_back(validation::field_required(path, ""));
  } else {
    validate_label_selector(sel, path, out);
    if (!selector_has_terms(*sel))
      out.push_back(validation::field_invalid_rendered(path, go_label_selector(*sel),
                                                   "empty selector is invalid for " + std::string(kind)));
  }
  return label_selector_as_selector(sel);
}

// LabelSelectorAsSelector failed (only possible for a selector that is present).
void unparsable_selector(const json::Value& obj, std::string_view detail, Causes& out) {
  out.push_back(validation::field_invalid_rendered(kSpec.child("selector"), go_label_selector(*json::find(obj, {"spec", "selector"})), detail));
}

const json::Value* template_labels(const json::Value& obj) { return json::find(obj, {"spec", "template", "metadata", "labels"}); }

void selector_must_match_template(const json::Value& obj, const ParsedSelector& sel, Causes& out) {
  if (sel.empty() || sel.matches(template_labels(obj))) return;
  out.push_back(validation::field_invalid_rendered(kSpec.child("template").child("metadata").child("labels"),
                                               go_string_map(template_labels(obj)), "`selector` does not match template `labels`"));
}

// The rules ValidatePodTemplateSpecForReplicaSet and its kin add to a template: pods restart
// Always and have no deadline.
void long_running_template(const json::Value& obj, std::string_view kind, Causes& out) {
  auto spec = kSpec.child("template").child("spec");
  std::string_view restart = json::get_string(obj, {"spec", "template", "spec", "restartPolicy"});
  if (restart != "Always")
    out.push_back(validation::field_not_supported(spec.child("restartPolicy"), json::Value(json::String(restart)), {"Always"}));
  const auto* deadline = json::find(obj, {"spec", "template", "spec", "activeDeadlineSeconds"});
  if (deadline && !deadline->is_null())
    out.push_back(validation::field_forbidden(spec.child("activeDeadlineSeconds"),
                                          "activeDeadlineSeconds in " + std::string(kind) + " is not Supported"));
}

// ValidatePodTemplateSpecForReplicaSet.
void replica_set_template(const json::Value& obj, const ParsedSelector& sel, Causes& out) {
  selector_must_match_template(obj, sel, out);
  validate_pod_template(json::find(obj, {"spec", "template"}), kSpec.child("template"), out);
  long_running_template(obj, "ReplicaSet", out);
}

// apivalidation.ValidateImmutableField(spec.selector) as the apps/v1 strategies add it on update.
void selector_immutable(const json::Value& obj, const json::Value* old, Causes& out) {
  if (!old) return;
  const auto* now = json::find(obj, {"spec", "selector"});
  const auto* before = json::find(*old, {"spec", "selector"});
  if (!now || !before || *now == *before) return;
  out.push_back(validation::field_invalid_rendered(kSpec.child("selector"), go_label_selector(*now), "field is immutable"));
}

// ValidateDeploymentStrategy.
void deployment_strategy(const json::Value& obj, Causes& out) {
  auto path = kSpec.child("strategy");
  std::string_view type = json::get_string(obj, {"spec", "strategy", "type"});
  const auto* ru = json::find(obj, {"spec", "strategy", "rollingUpdate"});
  bool has_ru = ru && !ru->is_null();
  if (type == "Recreate") {
    if (has_ru)
      out.push_back(validation::field_forbidden(path.child("rollingUpdate"), "may not be specified when strategy `type` is 'Recreate'"));
  } else if (type == "RollingUpdate") {
    if (!has_ru) out.push_back(validation::field_required(path.child("rollingUpdate"), "this should be defaulted and never be nil"));
  } else {
    // field.NotSupported with the internal apps.DeploymentStrategy struct, json.Marshal'ed (no
    // json tags: Go field names); the rollingUpdate shown as its nil form.
    std::string rendered = "{\"Type\":" + gofmt::json_marshal(json::Value(type)) + ",\"RollingUpdate\":null}";
    std::string body = "Unsupported value: " + rendered + ": supported values: \"Recreate\", \"RollingUpdate\"";
    out.push_back(Cause{std::string(validation::reason::kNotSupported), path.str(), body});
  }
}

}  // namespace

Causes validate_deployment(const json::Value& obj, const json::Value* old) {
  Causes out;
  nonnegative(obj, "replicas", out);
  auto sel = required_selector(obj, "deployment", out);
  if (!sel) {
    unparsable_selector(obj, "invalid label selector", out);
  } else {
    replica_set_template(obj, *sel, out);
  }
  deployment_strategy(obj, out);
  nonnegative(obj, "minReadySeconds", out);
  nonnegative(obj, "revisionHistoryLimit", out);
  if (auto pds = json::get_int(obj, {"spec", "progressDeadlineSeconds"})) {
    nonnegative(obj, "progressDeadlineSeconds", out);
    if (*pds <= json::get_int(obj, {"spec", "minReadySeconds"}).value_or(0))
      out.push_back(validation::field_invalid(kSpec.child("progressDeadlineSeconds"), json::Value(*pds), "must be greater than minReadySeconds"));
  }
  selector_immutable(obj, old, out);
  return out;
}

Causes validate_replica_set(const json::Value& obj, const json::Value* old) {
  Causes out;
  nonnegative(obj, "replicas", out);
  nonnegative(obj, "minReadySeconds", out);
  // Upstream reuses the Deployment wording for ReplicaSets.
  auto sel = required_selector(obj, "deployment", out);
  if (!sel) {
    unparsable_selector(obj, "invalid label selector", out);
  } else {
    replica_set_template(obj, *sel, out);
  }
  selector_immutable(obj, old, out);
  return out;
}

Causes validate_stateful_set(const json::Value& obj, const json::Value* old) {
  Causes out;
  std::string_view pmp = json::get_string(obj, {"spec", "podManagementPolicy"});
  if (pmp.empty()) out.push_back(validation::field_required(kSpec.child("podManagementPolicy"), ""));
  else if (pmp != "OrderedReady" && pmp != "Parallel")
    out.push_back(validation::field_invalid(kSpec.child("podManagementPolicy"), json::Value(json::String(pmp)),
                                        "must be 'OrderedReady' or 'Parallel'"));
  nonnegative(obj, "replicas", out);
  nonnegative(obj, "minReadySeconds", out);
  auto sel = required_selector(obj, "statefulset", out);
  if (!sel) {
    unparsable_selector(obj, "", out);
  } else {
    // ValidatePodTemplateSpecForStatefulSet: upstream checks the template's labels and
    // annotations but not its pod spec.
    selector_must_match_template(obj, *sel, out);
    auto tpath = kSpec.child("template");
    if (const auto* l = json::get_object(obj, {"spec", "template", "metadata", "labels"})) validate_label_map(*l, tpath.child("labels"), out);
    if (const auto* a = json::get_object(obj, {"spec", "template", "metadata", "annotations"}))
      validate_annotation_map(*a, tpath.child("annotations"), out);
  }
  long_running_template(obj, "StatefulSet", out);
  if (old) {
    // Only replicas, ordinals, template, updateStrategy, persistentVolumeClaimRetentionPolicy
    // and minReadySeconds may change.
    auto rest = [](const json::Value& o) {
      json::Object spec;
      if (const auto* s = json::get_object(o, {"spec"})) spec = *s;
      for (auto k : {"replicas", "ordinals", "template", "updateStrategy", "persistentVolumeClaimRetentionPolicy", "minReadySeconds"})
        spec.erase(k);
      for (auto it = spec.begin(); it != spec.end();) {
        bool zero = it->value().is_null() || (it->value().is_string() && it->value().get_string().empty());
        it = zero ? spec.erase(it) : it + 1;
      }
      return spec;
    };
    if (rest(obj) != rest(*old))
      out.push_back(validation::field_forbidden(kSpec, "updates to statefulset spec for fields other than 'replicas', 'ordinals', "
                                                   "'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and "
                                                   "'minReadySeconds' are forbidden"));
  }
  return out;
}

Causes validate_daemon_set(const json::Value& obj, const json::Value* old) {
  Causes out;
  const auto* s = json::find(obj, {"spec", "selector"});
  if (s && s->is_null()) s = nullptr;
  validate_label_selector(s, kSpec.child("selector"), out);
  if (auto sel = label_selector_as_selector(s); sel && !sel->matches(template_labels(obj)))
    out.push_back(validation::field_invalid_rendered(kSpec.child("template").child("metadata").child("labels"),
                                                 go_string_map(template_labels(obj)), "`selector` does not match template `labels`"));
  if (s && !selector_has_terms(*s))
    out.push_back(validation::field_invalid_rendered(kSpec.child("selector"), go_label_selector(*s), "empty selector is invalid for daemonset"));
  validate_pod_template(json::find(obj, {"spec", "template"}), kSpec.child("template"), out);
  long_running_template(obj, "DaemonSet", out);
  nonnegative(obj, "minReadySeconds", out);
  nonnegative(obj, "revisionHistoryLimit", out);
  selector_immutable(obj, old, out);
  return out;
}

Causes validate_job(const json::Value& obj, const json::Value* old) {
  Causes out;
  for (auto k : {"parallelism", "completions", "backoffLimit"}) nonnegative(obj, k, out);
  const auto* s = json::find(obj, {"spec", "selector"});
  if (s && !s->is_null()) {
    validate_label_selector(s, kSpec.child("selector"), out);
    if (auto sel = label_selector_as_selector(s); sel && !sel->matches(template_labels(obj)))
      out.push_back(validation::field_invalid_rendered(kSpec.child("template").child("metadata").child("labels"),
                                                   go_string_map(template_labels(obj)), "`selector` does not match template `labels`"));
  }
  validate_pod_template(json::find(obj, {"spec", "template"}), kSpec.child("template"), out);
  auto restart_path = kSpec.child("template").child("spec").child("restartPolicy");
  std::string_view restart = json::get_string(obj, {"spec", "template", "spec", "restartPolicy"});
  if (restart == "Always" || restart.empty())
    out.push_back(validation::field_required(restart_path, "valid values: \"OnFailure\", \"Never\""));
  else if (restart != "OnFailure" && restart != "Never")
    out.push_back(validation::field_not_supported(restart_path, json::Value(json::String(restart)), {"OnFailure", "Never"}));
  (void)old;
  return out;
}

}  // namespace capstan::apiserver::builtin
