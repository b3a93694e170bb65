#include "apiserver/registry/builtin.h"

namespace capstan::apiserver::registry {
namespace {

struct Def {
  const char* group;
  const char* version;
  const char* resource;
  const char* singular;
  const char* kind;
  bool namespaced;
  std::vector<std::string> short_names;
  std::vector<std::string> categories;
  bool status = false;
  bool scale = false;
  bool generation = false;
  bool return_deleted = false;
  bool unconditional_update = true;
};

ResourceInfo make(const Def& d) {
  ResourceInfo r;
  r.group = d.group;
  r.resource = d.resource;
  r.singular = d.singular;
  r.kind = d.kind;
  r.list_kind = std::string(d.kind) + "List";
  r.namespaced = d.namespaced;
  r.short_names = d.short_names;
  r.categories = d.categories;
  r.has_generation = d.generation;
  r.return_deleted_object = d.return_deleted;
  r.allow_unconditional_update = d.unconditional_update;
  VersionInfo v;
  v.name = d.version;
  v.storage = true;
  v.status_subresource = d.status;
  if (d.scale) v.scale = ScaleSubresource{};
  v.list_types = patch::builtin_list_types(r.api_version(d.version), d.kind);
  r.versions.push_back(std::move(v));
  return r;
}

}  // namespace

std::vector<ResourceInfo> builtin_resources() {
  const std::vector<std::string> all = {"all"};
  std::vector<Def> defs = {
      // core/v1
      {"", "v1", "namespaces", "namespace", "Namespace", false, {"ns"}, {}, true},
      {"", "v1", "configmaps", "configmap", "ConfigMap", true, {"cm"}, {}},
      {"", "v1", "secrets", "secret", "Secret", true, {}, {}},
      {"", "v1", "services", "service", "Service", true, {"svc"}, all, true},
      {"", "v1", "endpoints", "endpoints", "Endpoints", true, {"ep"}, {}},
      {"", "v1", "serviceaccounts", "serviceaccount", "ServiceAccount", true, {"sa"}, {}, false, false, false, true},
      {"", "v1", "pods", "pod", "Pod", true, {"po"}, all, true, false, false, true},
      {"", "v1", "events", "event", "Event", true, {"ev"}, {}},
      {"", "v1", "persistentvolumeclaims", "persistentvolumeclaim", "PersistentVolumeClaim", true, {"pvc"}, {}, true},
      {"", "v1", "persistentvolumes", "persistentvolume", "PersistentVolume", false, {"pv"}, {}, true},
      {"", "v1", "nodes", "node", "Node", false, {"no"}, {}, true},
      {"", "v1", "resourcequotas", "resourcequota", "ResourceQuota", true, {"quota"}, {}, true},
      {"", "v1", "limitranges", "limitrange", "LimitRange", true, {"limits"}, {}},
      {"", "v1", "podtemplates", "podtemplate", "PodTemplate", true, {}, {}},
      // apps/v1
      {"apps", "v1", "deployments", "deployment", "Deployment", true, {"deploy"}, all, true, true, true},
      {"apps", "v1", "statefulsets", "statefulset", "StatefulSet", true, {"sts"}, all, true, true, true},
      {"apps", "v1", "replicasets", "replicaset", "ReplicaSet", true, {"rs"}, all, true, true, true},
      {"apps", "v1", "controllerrevisions", "controllerrevision", "ControllerRevision", true, {}, {}},
      {"apps", "v1", "daemonsets", "daemonset", "DaemonSet", true, {"ds"}, all, true, false, true},
      // batch/v1
      {"batch", "v1", "jobs", "job", "Job", true, {}, all, true, false, true},
      {"batch", "v1", "cronjobs", "cronjob", "CronJob", true, {"cj"}, all, true, false, true},
      // autoscaling/v2
      {"autoscaling", "v2", "horizontalpodautoscalers", "horizontalpodautoscaler", "HorizontalPodAutoscaler", true, {"hpa"}, all, true},
      // scheduling.k8s.io/v1, storage.k8s.io/v1
      {"scheduling.k8s.io", "v1", "priorityclasses", "priorityclass", "PriorityClass", false, {"pc"}, {}},
      {"storage.k8s.io", "v1", "storageclasses", "storageclass", "StorageClass", false, {"sc"}, {}},
      // policy/v1
      {"policy", "v1", "poddisruptionbudgets", "poddisruptionbudget", "PodDisruptionBudget", true, {"pdb"}, {}, true, false, true},
      // coordination.k8s.io/v1
      {"coordination.k8s.io", "v1", "leases", "lease", "Lease", true, {}, {}},
      // discovery.k8s.io/v1
      {"discovery.k8s.io", "v1", "endpointslices", "endpointslice", "EndpointSlice", true, {}, {}},
      // events.k8s.io/v1
      {"events.k8s.io", "v1", "events", "event", "Event", true, {"ev"}, {}},
      // networking.k8s.io/v1
      {"networking.k8s.io", "v1", "ingresses", "ingress", "Ingress", true, {"ing"}, {}, true, false, true},
      {"networking.k8s.io", "v1", "networkpolicies", "networkpolicy", "NetworkPolicy", true, {"netpol"}, {}, false, false, true},
      {"networking.k8s.io", "v1", "ingressclasses", "ingressclass", "IngressClass", false, {}, {}},
      // rbac.authorization.k8s.io/v1
      {"rbac.authorization.k8s.io", "v1", "roles", "role", "Role", true, {}, {}},
      {"rbac.authorization.k8s.io", "v1", "rolebindings", "rolebinding", "RoleBinding", true, {}, {}},
      {"rbac.authorization.k8s.io", "v1", "clusterroles", "clusterrole", "ClusterRole", false, {}, {}},
      {"rbac.authorization.k8s.io", "v1", "clusterrolebindings", "clusterrolebinding", "ClusterRoleBinding", false, {}, {}},
      // admissionregistration.k8s.io/v1
      {"admissionregistration.k8s.io", "v1", "validatingwebhookconfigurations", "validatingwebhookconfiguration",
       "ValidatingWebhookConfiguration", false, {}, {"api-extensions"}, false, false, true, false, false},
      {"admissionregistration.k8s.io", "v1", "mutatingwebhookconfigurations", "mutatingwebhookconfiguration",
       "MutatingWebhookConfiguration", false, {}, {"api-extensions"}, false, false, true, false, false},
      // apiregistration.k8s.io/v1 (the aggregation layer: apiserver/aggregator)
      {"apiregistration.k8s.io", "v1", "apiservices", "apiservice", "APIService", false, {}, {"api-extensions"}, true},
      // apiextensions.k8s.io/v1
      {"apiextensions.k8s.io", "v1", "customresourcedefinitions", "customresourcedefinition", "CustomResourceDefinition",
       false, {"crd", "crds"}, {"api-extensions"}, true, false, true, false, false},
  };
  std::vector<ResourceInfo> out;
  out.reserve(defs.size() + 5);
  for (const auto& d : defs) out.push_back(make(d));
  // Review resources: create-only, answered by the server, never stored.
  std::vector<Def> reviews = {
      {"authorization.k8s.io", "v1", "selfsubjectaccessreviews", "selfsubjectaccessreview", "SelfSubjectAccessReview", false, {}, {}},
      {"authorization.k8s.io", "v1", "subjectaccessreviews", "subjectaccessreview", "SubjectAccessReview", false, {}, {}},
      {"authorization.k8s.io", "v1", "localsubjectaccessreviews", "localsubjectaccessreview", "LocalSubjectAccessReview", true, {}, {}},
      {"authorization.k8s.io", "v1", "selfsubjectrulesreviews", "selfsubjectrulesreview", "SelfSubjectRulesReview", false, {}, {}},
      {"authentication.k8s.io", "v1", "selfsubjectreviews", "selfsubjectreview", "SelfSubjectReview", false, {}, {}},
      {"authentication.k8s.io", "v1", "tokenreviews", "tokenreview", "TokenReview", false, {}, {}},
  };
  for (const auto& d : reviews) {
    auto r = make(d);
    r.verbs = {"create"};
    r.review = true;
    out.push_back(std::move(r));
  }
  for (auto& r : out) {
    if (r.group_resource() == "serviceaccounts") r.extra_subresources_token = true;
    if (r.group_resource() == "pods") r.binding_subresource = true;
    if (r.group_resource() == "namespaces") {
      r.finalize_subresource = true;
      r.verbs = {"create", "delete", "get", "list", "patch", "update", "watch"};  // no deletecollection
    }
    if (r.group_resource() == "events.events.k8s.io") r.stored_as = "/v1/Event";
    if (r.group_resource() == "customresourcedefinitions.apiextensions.k8s.io")
      r.stored_as = "apiextensions.k8s.io/v1beta1/CustomResourceDefinition";
  }
  return out;
}

}  // namespace capstan::apiserver::registry
