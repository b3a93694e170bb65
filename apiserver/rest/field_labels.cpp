#include "apiserver/rest/field_labels.h"

#include "apiserver/rest/api_error.h"

#include <algorithm>
#include <map>
#include <vector>

namespace capstan::apiserver::rest {
namespace {

enum class Wording { Default, NotSupported, Job };

struct Selectable {
  std::vector<std::string_view> fields;
  Wording wording = Wording::NotSupported;
};

const std::vector<std::string_view> kMeta = {"metadata.name", "metadata.namespace"};

const Selectable* selectable(const std::string& gr) {
  static const std::map<std::string, Selectable, std::less<>> table = {
      {"pods",
       {{"metadata.name", "metadata.namespace", "spec.nodeName", "spec.restartPolicy", "spec.schedulerName", "spec.serviceAccountName",
         "spec.hostNetwork", "status.phase", "status.podIP", "status.podIPs", "status.nominatedNodeName", "spec.host"}}},
      {"nodes", {{"metadata.name", "spec.unschedulable"}}},
      {"replicationcontrollers", {{"metadata.name", "metadata.namespace", "status.replicas"}}},
      {"events",
       {{"involvedObject.kind", "involvedObject.namespace", "involvedObject.name", "involvedObject.uid", "involvedObject.apiVersion",
         "involvedObject.resourceVersion", "involvedObject.fieldPath", "reason", "reportingComponent", "source", "type",
         "metadata.namespace", "metadata.name"}}},
      {"events.events.k8s.io",
       {{"regarding.kind", "regarding.namespace", "regarding.name", "regarding.uid", "regarding.apiVersion", "regarding.resourceVersion",
         "regarding.fieldPath", "reason", "reportingController", "type", "metadata.namespace", "metadata.name"}}},
      {"namespaces", {{"status.phase", "metadata.name"}}},
      {"secrets", {{"type", "metadata.namespace", "metadata.name"}}},
      {"services", {{"metadata.namespace", "metadata.name", "spec.clusterIP", "spec.type"}}},
      {"jobs.batch", {{"metadata.name", "metadata.namespace", "status.successful"}, Wording::Job}},
  };
  auto it = table.find(gr);
  return it == table.end() ? nullptr : &it->second;
}

bool supported(const registry::ResourceInfo& r, std::string_view field) {
  if (const auto* s = selectable(r.group_resource())) return std::find(s->fields.begin(), s->fields.end(), field) != s->fields.end();
  return std::find(kMeta.begin(), kMeta.end(), field) != kMeta.end();
}

std::string scalar_text(const json::Value* v) {
  if (!v || v->is_null()) return "";
  if (v->is_string()) return std::string(v->get_string());
  if (v->is_bool()) return v->get_bool() ? "true" : "false";
  return json::serialize(*v);
}

}  // namespace

std::optional<std::string> field_value(const registry::ResourceInfo& r, const json::Value& obj, std::string_view field) {
  if (!supported(r, field)) return std::nullopt;
  // Aliases kube maps to another field.
  if (field == "spec.host") field = "spec.nodeName";
  if (field == "source") return scalar_text(json::find(obj, {"source", "component"}));
  if (field == "status.podIPs") {
    // status.podIPs selects on the first (primary) address.
    const auto* ips = json::get_array(obj, {"status", "podIPs"});
    return ips && !ips->empty() ? std::string(json::get_string(ips->at(0), {"ip"})) : std::string();
  }
  // A dotted path of object members.
  const json::Value* v = &obj;
  std::size_t start = 0;
  while (v && start <= field.size()) {
    auto dot = field.find('.', start);
    std::string_view part = field.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    const auto* o = v->if_object();
    if (!o) return std::string();
    auto it = o->find(part);
    v = it == o->end() ? nullptr : &it->value();
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  if (field == "spec.unschedulable" || field == "spec.hostNetwork") return v && v->is_bool() && v->get_bool() ? "true" : "false";
  if (field == "status.successful" || field == "status.replicas") return v ? scalar_text(v) : "0";
  return scalar_text(v);
}

void check_field_labels(const registry::ResourceInfo& r, const meta::FieldSelector& selector) {
  for (const auto& t : selector.terms()) {
    if (supported(r, t.field)) continue;
    const auto* s = selectable(r.group_resource());
    if (r.crd || (s && s->wording == Wording::NotSupported)) throw bad_request("field label not supported: " + t.field);
    if (s) throw bad_request("field label \"" + t.field + "\" not supported for Job");
    throw bad_request("\"" + t.field + "\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\"");
  }
}

}  // namespace capstan::apiserver::rest
