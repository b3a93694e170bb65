#include "controllers/monitoring/alertmanager_controller.h"

#include "controllers/monitoring/assets.h"

#include "apis/monitoring/v1/group.h"
#include "apis/monitoring/v1/types.h"
#include "apis/monitoring/v1/validation.h"
#include "controllers/monitoring/alertmanager_objects.h"
#include "controllers/monitoring/amcfg.h"
#include "controllers/monitoring/env.h"
#include "controllers/monitoring/objects.h"
#include "controllers/monitoring/selection.h"
#include "controllers/monitoring/workload_reconciler.h"
#include "runtime/cache/informer.h"
#include "runtime/client/client.h"
#include "runtime/client/errors.h"
#include "runtime/controller/apply.h"
#include "runtime/controller/status.h"
#include "runtime/events/event.h"
#include "runtime/json/yaml.h"
#include "runtime/meta/base64.h"
#include "runtime/meta/object.h"

namespace capstan::monitoring {
namespace {

namespace v1 = apis::monitoring::v1;

constexpr std::string_view kBaseConfigKey = "alertmanager.yaml";

class Reconciler : public WorkloadReconciler<Reconciler, v1::Alertmanager> {
 public:
  Reconciler(Env& env, const controller::Request& request, controller::Context& ctx)
      : WorkloadReconciler(env, env.alertmanagers, kAlertmanagerType, request, ctx) {}
  // What this reconcile read is what the next change of those Secrets wakes.
  ~Reconciler() { env_.record_reads("alertmanager", request_, reader_.read_ids()); }

 private:
  friend class WorkloadReconciler<Reconciler, v1::Alertmanager>;

  void configure() {
    const auto& spec = obj_.spec;
    auto assembled = assemble_alertmanager_config(base_config(), selected_configs(), spec.alertmanager_config_matcher_strategy.type != "None",
                                                  [this](const std::string& ns, const v1::SecretKeySelector& ref) { return secret_value(ns, ref); });
    for (const auto& [index, why] : assembled.rejected) leave_out(selected_[index], why);
    const std::string config = json::to_yaml(assembled.config);
    const std::string_view manager = kManagedBy;
    controller::apply_if_changed(env_.client, env_.secrets, kSecretType.gvr, alertmanager_config_secret(before_, config), manager);
    controller::apply_if_changed(env_.client, env_.services, kServiceType.gvr, alertmanager_governing_service(before_), manager);
    controller::apply_if_changed(env_.client, env_.statefulsets, kStatefulSetType.gvr, alertmanager_statefulset(before_, spec), manager);
    condition(v1::condition::kReconciled, "True", "", "");
    ctx_.log.debug("reconciled", {{"alertmanagerConfigs", std::to_string(selected_.size() - assembled.rejected.size())}});
  }

  // The base configuration: the Secret's alertmanager.yaml, or the default when the Secret is
  // missing. A Secret without the key, or a configuration that does not parse, fails the
  // reconcile naming it: the configuration last applied stays.
  json::Value base_config() {
    const std::string name = alertmanager_base_secret_name(request_.name, obj_.spec);
    std::optional<json::Value> secret;
    try {
      secret = env_.client.get(kSecretType.gvr, request_.ns, name);
    } catch (const client::ApiError& e) {
      if (e.code() != 404) throw;
    }
    if (!secret) return default_alertmanager_config();
    const std::string where = "Secret " + request_.ns + "/" + name + " key " + std::string(kBaseConfigKey);
    const std::string_view encoded = json::get_string(*secret, {"data", kBaseConfigKey});
    if (encoded.empty()) throw std::runtime_error(where + ": missing");
    auto yaml = meta::base64_decode(encoded);
    if (!yaml) throw std::runtime_error(where + ": not base64");
    try {
      return parse_base_config(*yaml);
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(where + ": " + e.what());
    }
  }

  // The selected AlertmanagerConfigs that are valid, in namespace/name order; the others are left
  // out with an event on them.
  std::vector<AlertmanagerConfigInput> selected_configs() {
    const auto& spec = obj_.spec;
    std::vector<AlertmanagerConfigInput> out;
    for (auto& obj : Selection(env_.namespaces, request_.ns, spec.alertmanager_config_selector, spec.alertmanager_config_namespace_selector)
                         .pick(env_.alertmanager_configs)) {
      auto causes = v1::validate_alertmanager_config(obj);
      if (!causes.empty()) {
        std::string why;
        for (const auto& e : validation::errors(causes)) why += (why.empty() ? "" : "; ") + e;
        leave_out(obj, why);
        continue;
      }
      try {
        out.push_back({std::string(meta::namespace_of(obj)), std::string(meta::name_of(obj)), v1::AlertmanagerConfig::from_json(obj).spec});
      } catch (const std::exception& e) {
        leave_out(obj, e.what());
        continue;
      }
      selected_.push_back(std::move(obj));
    }
    return out;
  }

  void leave_out(const json::Value& obj, const std::string& why) {
    const std::string key = std::string(meta::namespace_of(obj)) + "/" + std::string(meta::name_of(obj));
    ctx_.log.warn("AlertmanagerConfig left out", {{"alertmanagerConfig", key}, {"error", why}});
    env_.event(obj, events::kWarning, v1::reason::kInvalidConfiguration,
               "AlertmanagerConfig " + key + " is not loaded by Alertmanager " + request_.key() + ": " + why);
  }

  // A receiver's Secret value (a webhook URL): one it cannot be sent without, optional or not.
  std::string secret_value(const std::string& ns, const v1::SecretKeySelector& ref) {
    AssetRef required = asset(ns, ref);
    required.optional = false;
    return *reader_.read(required);
  }

  void set_availability() { availability_from({alertmanager_statefulset_name(request_.name)}, obj_.spec.replicas, false); }

  std::vector<json::Value> selected_;  // the objects of selected_configs(), in its order
  AssetReader reader_{env_.client};     // each Secret read once per reconcile
};

}  // namespace

controller::Result reconcile_alertmanager(Env& env, const controller::Request& request, controller::Context& ctx) {
  return Reconciler(env, request, ctx).run();
}

}  // namespace capstan::monitoring
