// Defaults and validation of the built-in kinds, as kube-apiserver's strategies and the
// API defaulting functions (SetDefaults_*) apply them.
#include "apiserver/builtin/claim_validation.h"
#include "apiserver/builtin/crd_strategy.h"
#include "apiserver/builtin/pod_validation.h"
#include "apiserver/builtin/service_validation.h"
#include "apiserver/builtin/strategy.h"

#include "apiserver/builtin/webhook_configuration.h"
#include "apiserver/builtin/workload_validation.h"

#include "runtime/meta/base64.h"
#include "runtime/meta/names.h"

#include <map>
#include <random>

namespace capstan::apiserver::builtin {
namespace {

using validation::FieldPath;

json::Object& child(json::Object& o, std::string_view key) {
  auto& v = o[key];
  if (!v.is_object()) v = json::Object{};
  return v.as_object();
}

std::string image_pull_policy(std::string_view image) {
  // ":latest" or no tag -> Always; a digest or another tag -> IfNotPresent. An image that does
  // not parse (empty) has no tag: IfNotPresent, and validation reports the missing image.
  if (image.empty() || image.find('@') != std::string_view::npos) return "IfNotPresent";
  auto slash = image.rfind('/');
  auto colon = image.rfind(':');
  if (colon == std::string_view::npos || (slash != std::string_view::npos && colon < slash)) return "Always";
  return image.substr(colon + 1) == "latest" ? "Always" : "IfNotPresent";
}

void default_containers(json::Object& spec, std::string_view key) {
  auto it = spec.find(key);
  if (it == spec.end() || !it->value().is_array()) return;
  for (auto& c : it->value().as_array()) {
    if (!c.is_object()) continue;
    auto& co = c.as_object();
    set_default(co, "terminationMessagePath", "/dev/termination-log");
    set_default(co, "terminationMessagePolicy", "File");
    const auto* img = co.if_contains("image");
    set_default(co, "imagePullPolicy",
                json::String(image_pull_policy(img && img->is_string() ? std::string_view(img->get_string()) : "")));
    set_default(co, "resources", json::Object{});
    if (auto* ports = co.if_contains("ports"); ports && ports->is_array())
      for (auto& p : ports->as_array())
        if (p.is_object()) set_default(p.as_object(), "protocol", "TCP");
  }
}

void default_pod_spec(json::Object& spec) {
  set_default(spec, "restartPolicy", "Always");
  set_default(spec, "terminationGracePeriodSeconds", 30);
  set_default(spec, "dnsPolicy", "ClusterFirst");
  set_default(spec, "securityContext", json::Object{});
  set_default(spec, "schedulerName", "default-scheduler");
  default_containers(spec, "containers");
  default_containers(spec, "initContainers");
}

void default_template(json::Object& spec) {
  auto& tmpl = child(spec, "template");
  auto& pspec = child(tmpl, "spec");
  default_pod_spec(pspec);
}

class NoStrategy : public Strategy {};

class NamespaceStrategy : public Strategy {
 public:
  std::string_view name_rule() const override { return "label"; }
  // The label is a default (set when the request is decoded), so the creator owns it.
  void prepare_create(json::Value& obj) override { label_name(obj); }
  void prepare_create_server_owned(json::Value& obj) override {
    auto& o = obj.as_object();
    child(o, "spec")["finalizers"] = json::Array{"kubernetes"};
    child(o, "status")["phase"] = "Active";
  }
  void prepare_update(json::Value& obj, const json::Value& old) override {
    // spec.finalizers change only through /finalize; status only through /status.
    auto& o = obj.as_object();
    if (const auto* s = json::find(old, {"spec"})) o["spec"] = *s;
    label_name(obj);
  }

 private:
  static void label_name(json::Value& obj) {
    auto& md = json::ensure_object(obj, {"metadata"});
    // A copy first: Boost.JSON's operator[] may reallocate the object, even for a key it has,
    // which would leave a reference into it (`labels`) dangling.
    json::Value name = md["name"];
    child(md, "labels")["kubernetes.io/metadata.name"] = std::move(name);
  }
};

class ServiceStrategy : public Strategy {
 public:
  std::string_view name_rule() const override { return "dns1035"; }
  void prepare_create(json::Value& obj) override {
    auto& o = obj.as_object();
    auto& spec = child(o, "spec");
    set_default(spec, "type", "ClusterIP");
    set_default(spec, "sessionAffinity", "None");
    std::string type(spec.at("type").is_string() ? std::string_view(spec.at("type").get_string()) : "ClusterIP");
    if (type != "ExternalName") {
      if (!spec.contains("clusterIP") || spec.at("clusterIP").is_null() || spec.at("clusterIP").as_string().empty())
        spec["clusterIP"] = json::String(allocate_ip());
      if (!spec.contains("clusterIPs")) spec["clusterIPs"] = json::Array{spec["clusterIP"]};
      set_default(spec, "ipFamilies", json::Array{"IPv4"});
      set_default(spec, "ipFamilyPolicy", "SingleStack");
      set_default(spec, "internalTrafficPolicy", "Cluster");
    }
    default_ports(spec);
    child(o, "status")["loadBalancer"] = json::Object{};
  }
  void prepare_update(json::Value& obj, const json::Value& old) override {
    auto& spec = child(obj.as_object(), "spec");
    // clusterIP is immutable: carried over when the update leaves it out.
    for (auto k : {"clusterIP", "clusterIPs", "ipFamilies", "ipFamilyPolicy"}) {
      if (!spec.contains(k))
        if (const auto* v = json::find(old, {"spec", k})) spec[k] = *v;
    }
    set_default(spec, "type", "ClusterIP");
    set_default(spec, "sessionAffinity", "None");
    default_ports(spec);
  }
  std::vector<validation::Cause> validate(const json::Value& obj, const json::Value* old) override {
    std::vector<validation::Cause> out;
    if (old) {
      auto oldip = json::get_string(*old, {"spec", "clusterIP"});
      auto newip = json::get_string(obj, {"spec", "clusterIP"});
      if (!oldip.empty() && oldip != "None" && newip != oldip)
        out.push_back(validation::field_invalid(FieldPath("spec").child("clusterIPs").index(0), json::Value(json::String(newip)),
                                            "may not change once set"));
    }
    for (auto& c : validate_service(obj)) out.push_back(std::move(c));
    return out;
  }

 private:
  static void default_ports(json::Object& spec) {
    auto* ports = spec.if_contains("ports");
    if (!ports || !ports->is_array()) return;
    for (auto& p : ports->as_array()) {
      if (!p.is_object()) continue;
      auto& po = p.as_object();
      set_default(po, "protocol", "TCP");
      // SetDefaults_Service: a zero or empty targetPort is the port.
      const auto* target = po.if_contains("targetPort");
      bool unset = !target || target->is_null() || (target->is_string() && target->get_string().empty()) ||
                   (target->is_number() && json::as_number(*target).value_or(1) == 0);
      if (const auto* port = po.if_contains("port"); unset && port) po["targetPort"] = *port;
    }
  }
  static std::string allocate_ip() {
    thread_local std::mt19937 rng(std::random_device{}());
    // 10.96.0.0/12, avoiding .0 and the first addresses (kubernetes, dns).
    unsigned v = 0x0A600000u + 16u + rng() % (0x000FFFFFu - 32u);
    return std::to_string(v >> 24) + "." + std::to_string((v >> 16) & 255) + "." + std::to_string((v >> 8) & 255) + "." +
           std::to_string(v & 255);
  }
};

// The keys of a data map (ConfigMap and Secret data) and the decoded size of its values.
std::size_t check_data_keys(const json::Object* data, const FieldPath& path, bool base64, std::vector<validation::Cause>& out) {
  std::size_t total = 0;
  if (!data) return 0;
  for (const auto& kv : *data) {
    json::Value key = json::String(kv.key());
    for (auto& m : meta::names::config_map_key(kv.key())) out.push_back(validation::field_invalid(path.key(kv.key()), key, m));
    if (!kv.value().is_string()) continue;
    std::string_view v = kv.value().get_string();
    total += base64 ? meta::base64_decode(v).value_or(std::string()).size() : v.size();
  }
  return total;
}

constexpr std::size_t kMaxDataSize = 1024 * 1024;  // core.MaxSecretSize, for ConfigMaps too

class ConfigMapStrategy : public Strategy {
 public:
  std::vector<validation::Cause> validate(const json::Value& obj, const json::Value*) override {
    std::vector<validation::Cause> out;
    const auto* data = json::get_object(obj, {"data"});
    const auto* binary = json::get_object(obj, {"binaryData"});
    std::size_t total = check_data_keys(data, FieldPath("data"), false, out);
    if (data && binary)
      for (const auto& kv : *data)
        if (binary->contains(kv.key()))
          out.push_back(validation::field_invalid(FieldPath("data").key(kv.key()), json::Value(json::String(kv.key())),
                                              "duplicate of key present in binaryData"));
    total += check_data_keys(binary, FieldPath("binaryData"), true, out);
    // The whole object: kube passes an empty path, which renders as "[]".
    if (total > kMaxDataSize) out.push_back(validation::field_too_long(FieldPath("[]"), kMaxDataSize));
    return out;
  }
};

class SecretStrategy : public Strategy {
 public:
  void prepare_create(json::Value& obj) override { normalise(obj); }
  void prepare_update(json::Value& obj, const json::Value&) override { normalise(obj); }
  std::vector<validation::Cause> validate(const json::Value& obj, const json::Value* old) override {
    std::vector<validation::Cause> out;
    std::size_t total = check_data_keys(json::get_object(obj, {"data"}), FieldPath("data"), true, out);
    if (total > kMaxDataSize) out.push_back(validation::field_too_long(FieldPath("data"), kMaxDataSize));
    if (old) {
      auto ot = json::get_string(*old, {"type"});
      auto nt = json::get_string(obj, {"type"});
      if (ot != nt) out.push_back(validation::field_invalid(FieldPath("type"), json::Value(json::String(nt)), "field is immutable"));
    }
    if (json::get_string(obj, {"type"}) == "kubernetes.io/tls") {
      const auto* data = json::get_object(obj, {"data"});
      for (auto k : {"tls.crt", "tls.key"})
        if (!data || !data->contains(k))
          out.push_back(validation::field_required(FieldPath("data").key(k)));
    }
    return out;
  }

 private:
  static void normalise(json::Value& obj) {
    auto& o = obj.as_object();
    set_default(o, "type", "Opaque");
    // stringData is write-only: folded into data (base64) and dropped.
    if (auto* sd = o.if_contains("stringData"); sd && sd->is_object()) {
      auto& data = child(o, "data");
      for (const auto& kv : sd->as_object())
        if (kv.value().is_string()) data[kv.key()] = meta::base64_encode(kv.value().get_string());
      o.erase("stringData");
    }
  }
};

class PodStrategy : public Strategy {
 public:
  void prepare_create(json::Value& obj) override {
    auto& o = obj.as_object();
    default_pod_spec(child(o, "spec"));
    auto& spec = child(o, "spec");
    set_default(spec, "serviceAccountName", "default");
    set_default(spec, "enableServiceLinks", true);
    set_default(spec, "priority", 0);
    auto& status = child(o, "status");
    status["phase"] = "Pending";
    status["qosClass"] = "BestEffort";
  }
  std::vector<validation::Cause> validate(const json::Value& obj, const json::Value*) override {
    std::vector<validation::Cause> out;
    validate_pod_spec(json::find(obj, {"spec"}), FieldPath("spec"), out);
    return out;
  }
};

class DeploymentStrategy : public Strategy {
 public:
  void prepare_create(json::Value& obj) override { defaults(obj); }
  void prepare_update(json::Value& obj, const json::Value&) override { defaults(obj); }
  std::vector<validation::Cause> validate(const json::Value& obj, const json::Value* old) override {
    return validate_deployment(obj, old);
  }

 private:
  static void defaults(json::Value& obj) {
    auto& spec = child(obj.as_object(), "spec");
    set_default(spec, "replicas", 1);
    set_default(spec, "revisionHistoryLimit", 10);
    set_default(spec, "progressDeadlineSeconds", 600);
    auto& strategy = child(spec, "strategy");
    set_default(strategy, "type", "RollingUpdate");
    if (strategy.at("type") == "RollingUpdate") {
      auto& ru = child(strategy, "rollingUpdate");
      set_default(ru, "maxUnavailable", "25%");
      set_default(ru, "maxSurge", "25%");
    }
    default_template(spec);
  }

};

class StatefulSetStrategy : public Strategy {
 public:
  // ValidateStatefulSetName: a DNS label (the pods' hostnames derive from it).
  std::string_view name_rule() const override { return "label"; }
  void prepare_create(json::Value& obj) override { defaults(obj); }
  void prepare_update(json::Value& obj, const json::Value&) override { defaults(obj); }
  std::vector<validation::Cause> validate(const json::Value& obj, const json::Value* old) override {
    return validate_stateful_set(obj, old);
  }

 private:
  static void defaults(json::Value& obj) {
    auto& spec = child(obj.as_object(), "spec");
    set_default(spec, "replicas", 1);
    set_default(spec, "revisionHistoryLimit", 10);
    set_default(spec, "podManagementPolicy", "OrderedReady");
    auto& us = child(spec, "updateStrategy");
    set_default(us, "type", "RollingUpdate");
    if (us.at("type") == "RollingUpdate") set_default(child(us, "rollingUpdate"), "partition", 0);
    auto& retention = child(spec, "persistentVolumeClaimRetentionPolicy");
    set_default(retention, "whenDeleted", "Retain");
    set_default(retention, "whenScaled", "Retain");
    default_template(spec);
  }
};

class ReplicaSetStrategy : public Strategy {
 public:
  void prepare_create(json::Value& obj) override { defaults(obj); }
  void prepare_update(json::Value& obj, const json::Value&) override { defaults(obj); }
  std::vector<validation::Cause> validate(const json::Value& obj, const json::Value* old) override {
    return validate_replica_set(obj, old);
  }

 private:
  static void defaults(json::Value& obj) {
    auto& spec = child(obj.as_object(), "spec");
    set_default(spec, "replicas", 1);
    default_template(spec);
  }
};

class DaemonSetStrategy : public Strategy {
 public:
  void prepare_create(json::Value& obj) override { defaults(obj); }
  void prepare_update(json::Value& obj, const json::Value&) override { defaults(obj); }
  std::vector<validation::Cause> validate(const json::Value& obj, const json::Value* old) override {
    return validate_daemon_set(obj, old);
  }

 private:
  // SetDefaults_DaemonSet.
  static void defaults(json::Value& obj) {
    auto& spec = child(obj.as_object(), "spec");
    auto& us = child(spec, "updateStrategy");
    set_default(us, "type", "RollingUpdate");
    if (us.at("type") == "RollingUpdate") {
      auto& ru = child(us, "rollingUpdate");
      set_default(ru, "maxUnavailable", 1);
      set_default(ru, "maxSurge", 0);
    }
    set_default(spec, "revisionHistoryLimit", 10);
    default_template(spec);
  }
};

class JobStrategy : public Strategy {
 public:
  void prepare_create(json::Value& obj) override { default_template(child(obj.as_object(), "spec")); }
  void prepare_update(json::Value& obj, const json::Value&) override { default_template(child(obj.as_object(), "spec")); }
  std::vector<validation::Cause> validate(const json::Value& obj, const json::Value* old) override { return validate_job(obj, old); }
};

class PathNameStrategy : public Strategy {
 public:
  std::string_view name_rule() const override { return "path"; }
};

class PvcStrategy : public Strategy {
 public:
  void prepare_create(json::Value& obj) override {
    auto& o = obj.as_object();
    auto& spec = child(o, "spec");
    set_default(spec, "volumeMode", "Filesystem");
    child(o, "status")["phase"] = "Pending";
  }
  std::vector<validation::Cause> validate(const json::Value& obj, const json::Value* old) override {
    return old ? validate_claim_update(obj, *old) : std::vector<validation::Cause>{};
  }
};

class WebhookConfigurationStrategy : public Strategy {
 public:
  explicit WebhookConfigurationStrategy(bool mutating) : mutating_(mutating) {}
  void prepare_create(json::Value& obj) override { default_webhook_configuration(obj, mutating_); }
  void prepare_update(json::Value& obj, const json::Value&) override { default_webhook_configuration(obj, mutating_); }
  std::vector<validation::Cause> validate(const json::Value& obj, const json::Value*) override {
    return validate_webhook_configuration(obj, mutating_);
  }

 private:
  bool mutating_;
};

}  // namespace

void set_default(json::Object& o, std::string_view key, json::Value v) {
  if (!o.contains(key) || o.at(key).is_null()) o[key] = std::move(v);
}

Strategy& strategy_for(std::string_view group_resource) {
  static NoStrategy none;
  static std::map<std::string, std::unique_ptr<Strategy>, std::less<>> table = [] {
    std::map<std::string, std::unique_ptr<Strategy>, std::less<>> t;
    t["namespaces"] = std::make_unique<NamespaceStrategy>();
    t["services"] = std::make_unique<ServiceStrategy>();
    t["secrets"] = std::make_unique<SecretStrategy>();
    t["configmaps"] = std::make_unique<ConfigMapStrategy>();
    t["pods"] = std::make_unique<PodStrategy>();
    t["persistentvolumeclaims"] = std::make_unique<PvcStrategy>();
    t["deployments.apps"] = std::make_unique<DeploymentStrategy>();
    t["statefulsets.apps"] = std::make_unique<StatefulSetStrategy>();
    t["replicasets.apps"] = std::make_unique<ReplicaSetStrategy>();
    t["daemonsets.apps"] = std::make_unique<DaemonSetStrategy>();
    t["jobs.batch"] = std::make_unique<JobStrategy>();
    t["customresourcedefinitions.apiextensions.k8s.io"] = std::make_unique<CrdStrategy>();
    t["validatingwebhookconfigurations.admissionregistration.k8s.io"] = std::make_unique<WebhookConfigurationStrategy>(false);
    t["mutatingwebhookconfigurations.admissionregistration.k8s.io"] = std::make_unique<WebhookConfigurationStrategy>(true);
    for (auto r : {"roles.rbac.authorization.k8s.io", "rolebindings.rbac.authorization.k8s.io",
                   "clusterroles.rbac.authorization.k8s.io", "clusterrolebindings.rbac.authorization.k8s.io"})
      t[r] = std::make_unique<PathNameStrategy>();
    return t;
  }();
  auto it = table.find(group_resource);
  return it == table.end() ? none : *it->second;
}

}  // namespace capstan::apiserver::builtin
