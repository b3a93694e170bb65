#include "apiserver/builtin/crd_strategy.h"

#include "apiserver/schema/parse.h"
#include "runtime/meta/object.h"

#include <algorithm>
#include <cctype>

namespace capstan::apiserver::builtin {
namespace {

using validation::FieldPath;

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

void defaults(json::Value& obj) {
  auto& spec = json::ensure_object(obj, {"spec"});
  auto& names = json::ensure_object(obj, {"spec", "names"});
  std::string_view kind = json::get_string(obj, {"spec", "names", "kind"});
  if (json::get_string(obj, {"spec", "names", "singular"}).empty() && !kind.empty()) names["singular"] = lower(kind);
  if (json::get_string(obj, {"spec", "names", "listKind"}).empty() && !kind.empty()) names["listKind"] = std::string(kind) + "List";
  if (!spec.contains("conversion")) spec["conversion"] = json::Object{{"strategy", "None"}};
  (void)spec;
}

}  // namespace

void CrdStrategy::prepare_create(json::Value& obj) {
  defaults(obj);
  meta::add_finalizer(obj, kCrdCleanupFinalizer);
}

void CrdStrategy::prepare_update(json::Value& obj, const json::Value&) { defaults(obj); }

std::vector<validation::Cause> CrdStrategy::validate(const json::Value& obj, const json::Value* old) {
  std::vector<validation::Cause> out;
  std::string_view group = json::get_string(obj, {"spec", "group"});
  std::string_view plural = json::get_string(obj, {"spec", "names", "plural"});
  std::string_view name = json::get_string(obj, {"metadata", "name"});
  auto spec = FieldPath("spec");
  if (!plural.empty() && !group.empty() && name != std::string(plural) + "." + std::string(group)) {
    out.push_back(validation::field_invalid(FieldPath("metadata").child("name"), json::Value(json::String(name)),
                                        "must be spec.names.plural+\".\"+spec.group"));
  }
  if (group.empty()) out.push_back(validation::field_required(spec.child("group")));
  else if (group.find('.') == std::string_view::npos)
    out.push_back(validation::field_invalid(spec.child("group"), json::Value(json::String(group)), "should be a domain with at least one dot"));
  // Groups of the Kubernetes project need an API review (kube-apiserver's validateAPIApproval).
  const bool protected_group = group == "k8s.io" || group.ends_with(".k8s.io") || group == "kubernetes.io" || group.ends_with(".kubernetes.io");
  if (protected_group && (!old || !json::find(*old, {"metadata", "annotations", "api-approved.kubernetes.io"}))) {
    auto path = FieldPath("metadata").child("annotations").key("api-approved.kubernetes.io");
    const json::Value* approval = json::find(obj, {"metadata", "annotations", "api-approved.kubernetes.io"});
    std::string_view value = approval && approval->is_string() ? std::string_view(approval->get_string()) : std::string_view();
    const bool url = value.starts_with("https://") || value.starts_with("http://");
    if (!approval) {
      out.push_back(validation::field_required(path, "protected groups must have approval annotation \"api-approved.kubernetes.io\", see "
                                                     "https://github.com/kubernetes/enhancements/pull/1111"));
    } else if (!url && !value.starts_with("unapproved")) {
      out.push_back(validation::field_invalid(path, *approval,
                                              "protected groups must have approval annotation \"api-approved.kubernetes.io\" with either "
                                              "a URL or a reason starting with \"unapproved\", see "
                                              "https://github.com/kubernetes/enhancements/pull/1111"));
    }
  }
  if (plural.empty()) out.push_back(validation::field_required(spec.child("names").child("plural")));
  if (json::get_string(obj, {"spec", "names", "kind"}).empty()) out.push_back(validation::field_required(spec.child("names").child("kind")));
  std::string_view scope = json::get_string(obj, {"spec", "scope"});
  if (scope != "Namespaced" && scope != "Cluster")
    out.push_back(validation::field_not_supported(spec.child("scope"), json::Value(json::String(scope)), {"Cluster", "Namespaced"}));
  const auto* versions = json::get_array(obj, {"spec", "versions"});
  if (!versions || versions->empty()) {
    out.push_back(validation::field_invalid(spec.child("versions"), versions ? json::Value(*versions) : json::Value(json::Array{}),
                                        "must have exactly one version marked as storage version"));
    out.push_back(validation::field_required(spec.child("versions"), "must contain at least one version"));
    return out;
  }
  int storage = 0;
  for (std::size_t i = 0; i < versions->size(); ++i) {
    const auto& v = (*versions)[i];
    auto vp = spec.child("versions").index(i);
    if (json::get_bool(v, {"storage"})) ++storage;
    if (json::get_string(v, {"name"}).empty()) out.push_back(validation::field_required(vp.child("name")));
    if (const auto* s = json::find(v, {"schema", "openAPIV3Schema"})) {
      schema::ParseOptions po;
      po.path = vp.child("schema").child("openAPIV3Schema").str();
      auto res = schema::parse(*s, po);
      for (auto& c : res.errors) out.push_back(std::move(c));
    } else {
      out.push_back(validation::field_required(vp.child("schema").child("openAPIV3Schema"), "schemas are required"));
    }
  }
  if (storage != 1) {
    out.push_back(validation::field_invalid(spec.child("versions"), json::Value(*versions),
                                        "must have exactly one version marked as storage version"));
  }
  std::string_view strategy = json::get_string(obj, {"spec", "conversion", "strategy"}, "None");
  if (strategy != "None" && strategy != "Webhook") {
    out.push_back(validation::field_not_supported(spec.child("conversion").child("strategy"), json::Value(json::String(strategy)),
                                              {"None", "Webhook"}));
  }
  if (strategy == "Webhook" && !json::find(obj, {"spec", "conversion", "webhook", "clientConfig"})) {
    out.push_back(validation::field_required(spec.child("conversion").child("webhook").child("clientConfig"),
                                         "required when strategy is set to Webhook"));
  }
  if (old) {
    if (json::get_string(*old, {"spec", "group"}) != group)
      out.push_back(validation::field_invalid(spec.child("group"), json::Value(json::String(group)), "field is immutable"));
    if (json::get_string(*old, {"spec", "scope"}) != scope)
      out.push_back(validation::field_invalid(spec.child("scope"), json::Value(json::String(scope)), "field is immutable"));
  }
  return out;
}

std::vector<std::string> CrdStrategy::warnings(const json::Value& obj, const json::Value*) {
  std::vector<std::string> out;
  std::string_view name = json::get_string(obj, {"metadata", "name"});
  const auto* versions = json::get_array(obj, {"spec", "versions"});
  if (!versions) return out;
  for (std::size_t i = 0; i < versions->size(); ++i) {
    const auto* s = json::find((*versions)[i], {"schema", "openAPIV3Schema"});
    if (!s) continue;
    schema::ParseOptions po;
    po.path = FieldPath("spec").child("versions").index(i).child("schema").child("openAPIV3Schema").str();
    for (auto& note : schema::parse(*s, po).not_evaluated)
      out.push_back("CustomResourceDefinition \"" + std::string(name) + "\": " + note);
  }
  return out;
}

}  // namespace capstan::apiserver::builtin
