// The controller registry: every controller library contributes one descriptor (its name,
// whether it is on by default, its CRDs, the informers it reads, its webhooks and RBAC, and
// how to wire it into a manager). The manager starts only the enabled ones; all share one
// informer cache.
#pragma once

#include "runtime/controller/builder.h"
#include "runtime/json/json.h"
#include "runtime/webhook/configuration.h"

#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace capstan::cache {
class InformerFactory;
}
namespace capstan::webhook {
class Server;
}

namespace capstan::manager {

// Where the manager's webhook server can be reached (for webhook configurations), and the
// manager's namespace every webhook leaves out.
using WebhookEndpoint = webhook::Endpoint;

struct Settings {
  std::string namespace_restriction;
  int acme_http01_solver_port = 8089;
  std::string pod_namespace = "capstan-system";  // the manager's own namespace
  // Where cluster-scoped things keep their Secrets (cert-manager's --cluster-resource-namespace);
  // empty = pod_namespace.
  std::string cluster_resource_namespace;
  // The Service in cluster_resource_namespace fronting the ACME HTTP-01 solver port.
  std::string acme_http01_solver_service = "capstan-acme-solver";
  // Where the gitops controller keeps its Git mirrors (a cache); empty = its default.
  std::string gitops_storage_path;
  // Whom Kustomizations without spec.serviceAccountName apply as: "NAME" (in their namespace),
  // "NAMESPACE/NAME", or empty = the manager itself.
  std::string gitops_default_service_account;
  bool gitops_no_cross_namespace_refs = false;
  // The URL schemes GitRepositories may use (--gitops-url-schemes); empty = http, https, git.
  std::vector<std::string> gitops_url_schemes;
};

// A shared informer a controller reads. The manager creates each one once, before wiring,
// for every enabled controller that declares it; wiring uses no other.
struct InformerNeed {
  controller::ResourceType type;
  std::string label_selector;  // "" = every object
};

struct ControllerDescriptor {
  std::string name;                  // "certificates"
  std::vector<std::string> aliases;  // names accepted forever for compatibility
  bool default_on = true;
  std::string description;
  std::function<std::vector<json::Value>()> crds;
  // The informers it reads (see InformerNeed).
  std::function<std::vector<InformerNeed>()> informers;
  // ValidatingWebhookConfiguration / MutatingWebhookConfiguration objects of its API group's
  // admission webhooks (webhooks/<group>; attached by manager/webhooks.cpp).
  std::function<std::vector<json::Value>(const WebhookEndpoint&)> webhook_configurations;
  // Serves those webhooks (called after wire(), so the informers it reads exist).
  std::function<void(controller::Manager&, webhook::Server& webhooks, const Settings&)> register_webhooks;
  // ClusterRole rules this controller needs.
  std::function<json::Array()> rbac_rules;
  // Adds its controllers and servers to the manager.
  std::function<void(controller::Manager&, webhook::Server& webhooks, const Settings&)> wire;
};

// One ClusterRole rule: {apiGroups, resources, verbs}.
inline json::Object rbac_rule(std::initializer_list<std::string_view> groups, std::initializer_list<std::string_view> resources,
                              std::initializer_list<std::string_view> verbs) {
  json::Array g, r, v;
  for (auto x : groups) g.emplace_back(x);
  for (auto x : resources) r.emplace_back(x);
  for (auto x : verbs) v.emplace_back(x);
  return json::Object{{"apiGroups", std::move(g)}, {"resources", std::move(r)}, {"verbs", std::move(v)}};
}

const std::vector<ControllerDescriptor>& all_controllers();

// kube-controller-manager's --controllers semantics: "*" = every default-on controller,
// "name" enables, "-name" disables, the first explicit match wins; aliases accepted.
// Throws manager::UsageError naming the known controllers on an unknown name.
std::vector<const ControllerDescriptor*> enabled_controllers(const std::vector<std::string>& flag);

// Creates the informers `controllers` declare in `factory` (shared: one per resource and
// selector whoever declares it).
void create_informers(cache::InformerFactory& factory, const std::vector<const ControllerDescriptor*>& controllers);
// The informers in `factory` that none of `controllers` declares ("secrets" or
// "secrets?labelSelector=..."): wiring that reads an undeclared informer is a bug.
std::vector<std::string> undeclared_informers(const cache::InformerFactory& factory,
                                              const std::vector<const ControllerDescriptor*>& controllers);

// Every CRD of every controller (what `capstan crds` prints).
std::vector<json::Value> all_crds();

}  // namespace capstan::manager
