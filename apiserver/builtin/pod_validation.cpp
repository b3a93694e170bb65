// ValidatePodSpec / ValidatePodTemplateSpec, in upstream order, for the fields our users write:
// the container lists (names, images, ports, policies), restart and DNS policies, the node
// selector, the service account name and activeDeadlineSeconds.
#include "apiserver/builtin/pod_validation.h"

#include "apiserver/builtin/names.h"
#include "apiserver/builtin/object_meta.h"

#include <set>
#include <string>

namespace capstan::apiserver::builtin {
namespace {

using validation::Cause;
using validation::FieldPath;
using Causes = std::vector<Cause>;

const json::Value& or_empty(const json::Value* v) {
  static const json::Value empty = json::Object{};
  return v && v->is_object() ? *v : empty;
}

json::Value str(std::string_view s) { return json::String(s); }

// A required enumerated string: Required when empty, NotSupported when not one of `valid`.
void check_enum(const json::Value& obj, std::string_view key, const FieldPath& path, const std::vector<std::string>& valid,
                Causes& out) {
  std::string_view v = json::get_string(obj, {key});
  if (v.empty()) {
    out.push_back(validation::field_required(path, ""));
    return;
  }
  for (const auto& ok : valid)
    if (v == ok) return;
  out.push_back(validation::field_not_supported(path, str(v), valid));
}

// validateContainerPorts.
void validate_container_ports(const json::Value& container, const FieldPath& path, Causes& out) {
  const auto* ports = json::get_array(container, {"ports"});
  if (!ports) return;
  std::set<std::string, std::less<>> names;
  for (std::size_t i = 0; i < ports->size(); ++i) {
    const json::Value& port = or_empty(&(*ports)[i]);
    auto at = path.index(i);
    std::string_view name = json::get_string(port, {"name"});
    if (!name.empty()) {
      auto msgs = names::port_name(name);
      for (auto& m : msgs) out.push_back(validation::field_invalid(at.child("name"), str(name), m));
      if (msgs.empty()) {
        if (names.count(name)) out.push_back(validation::field_duplicate(at.child("name"), str(name)));
        else names.emplace(name);
      }
    }
    std::int64_t container_port = json::get_int(port, {"containerPort"}).value_or(0);
    if (container_port == 0) {
      out.push_back(validation::field_required(at.child("containerPort"), ""));
    } else {
      for (auto& m : names::port_number(container_port))
        out.push_back(validation::field_invalid(at.child("containerPort"), json::Value(container_port), m));
    }
    std::int64_t host_port = json::get_int(port, {"hostPort"}).value_or(0);
    if (host_port != 0)
      for (auto& m : names::port_number(host_port))
        out.push_back(validation::field_invalid(at.child("hostPort"), json::Value(host_port), m));
    check_enum(port, "protocol", at.child("protocol"), {"SCTP", "TCP", "UDP"}, out);
  }
}

// validateContainerCommon: what every container kind must satisfy.
void validate_container(const json::Value& container, const FieldPath& path, Causes& out) {
  std::string_view name = json::get_string(container, {"name"});
  if (name.empty()) {
    out.push_back(validation::field_required(path.child("name"), ""));
  } else {
    for (auto& m : names::dns1123_label(name)) out.push_back(validation::field_invalid(path.child("name"), str(name), m));
  }
  if (json::get_string(container, {"image"}).empty()) out.push_back(validation::field_required(path.child("image"), ""));
  check_enum(container, "terminationMessagePolicy", path.child("terminationMessagePolicy"), {"File", "FallbackToLogsOnError"},
             out);
  validate_container_ports(container, path.child("ports"), out);
  check_enum(container, "imagePullPolicy", path.child("imagePullPolicy"), {"Always", "IfNotPresent", "Never"}, out);
}

// validateContainers (regular containers): at least one, names unique among them.
void validate_containers(const json::Value& spec, const FieldPath& path, std::set<std::string, std::less<>>& all_names,
                         Causes& out) {
  const auto* containers = json::get_array(spec, {"containers"});
  if (!containers || containers->empty()) {
    out.push_back(validation::field_required(path, ""));
    return;
  }
  for (std::size_t i = 0; i < containers->size(); ++i) {
    const json::Value& c = or_empty(&(*containers)[i]);
    validate_container(c, path.index(i), out);
    std::string_view name = json::get_string(c, {"name"});
    if (all_names.count(name)) out.push_back(validation::field_duplicate(path.index(i).child("name"), str(name)));
    else all_names.emplace(name);
  }
}

// validateInitContainers: names unique among regular and init containers.
void validate_init_containers(const json::Value& spec, const FieldPath& path, std::set<std::string, std::less<>>& all_names,
                              Causes& out) {
  const auto* containers = json::get_array(spec, {"initContainers"});
  if (!containers) return;
  for (std::size_t i = 0; i < containers->size(); ++i) {
    const json::Value& c = or_empty(&(*containers)[i]);
    validate_container(c, path.index(i), out);
    std::string_view name = json::get_string(c, {"name"});
    if (all_names.count(name)) out.push_back(validation::field_duplicate(path.index(i).child("name"), str(name)));
    else if (!name.empty()) all_names.emplace(name);
  }
}

}  // namespace

void validate_pod_spec(const json::Value* spec_ptr, const FieldPath& path, Causes& out) {
  const json::Value& spec = or_empty(spec_ptr);
  const auto* grace = json::find(spec, {"terminationGracePeriodSeconds"});
  if (!grace || grace->is_null()) out.push_back(validation::field_required(path.child("terminationGracePeriodSeconds"), ""));
  std::set<std::string, std::less<>> names;
  validate_containers(spec, path.child("containers"), names, out);
  validate_init_containers(spec, path.child("initContainers"), names, out);
  check_enum(spec, "restartPolicy", path.child("restartPolicy"), {"Always", "OnFailure", "Never"}, out);
  check_enum(spec, "dnsPolicy", path.child("dnsPolicy"), {"ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"}, out);
  if (const auto* selector = json::get_object(spec, {"nodeSelector"})) validate_label_map(*selector, path.child("nodeSelector"), out);
  std::string_view sa = json::get_string(spec, {"serviceAccountName"});
  if (!sa.empty())
    for (auto& m : names::dns1123_subdomain(sa)) out.push_back(validation::field_invalid(path.child("serviceAccountName"), str(sa), m));
  if (auto deadline = json::get_int(spec, {"activeDeadlineSeconds"}); deadline && (*deadline < 1 || *deadline > 2147483647))
    out.push_back(validation::field_invalid(path.child("activeDeadlineSeconds"), json::Value(*deadline),
                                        "must be between 1 and 2147483647, inclusive"));
}

void validate_pod_template(const json::Value* tmpl_ptr, const FieldPath& path, Causes& out) {
  const json::Value& tmpl = or_empty(tmpl_ptr);
  if (const auto* labels = json::get_object(tmpl, {"metadata", "labels"})) validate_label_map(*labels, path.child("labels"), out);
  if (const auto* annotations = json::get_object(tmpl, {"metadata", "annotations"}))
    validate_annotation_map(*annotations, path.child("annotations"), out);
  validate_pod_spec(json::find(tmpl, {"spec"}), path.child("spec"), out);
  if (const auto* eph = json::get_array(tmpl, {"spec", "ephemeralContainers"}); eph && !eph->empty())
    out.push_back(validation::field_forbidden(path.child("spec").child("ephemeralContainers"),
                                          "ephemeral containers not allowed in pod template"));
}

}  // namespace capstan::apiserver::builtin
