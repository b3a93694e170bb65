#include "apiserver/system/serviceaccount_controller.h"

#include "apiserver/system/service_writes.h"
#include "runtime/meta/object.h"

#include <algorithm>

namespace capstan::apiserver::system {
namespace {

const std::string kNamespaces = "namespaces";
const std::string kServiceAccounts = "serviceaccounts";
// The ServiceAccounts every namespace gets (upstream's ServiceAccountsControllerOptions).
const std::vector<std::string> kManagedServiceAccounts = {"default"};

bool managed(std::string_view name) {
  return std::find(kManagedServiceAccounts.begin(), kManagedServiceAccounts.end(), name) != kManagedServiceAccounts.end();
}

bool active(const json::Value& ns) {
  if (meta::is_deleting(ns)) return false;
  std::string_view phase = json::get_string(ns, {"status", "phase"});
  return phase.empty() || phase == "Active";
}

}  // namespace

ServiceAccountController::ServiceAccountController(rest::Service& service, const auth::TokenIssuer& issuer,
                                                   std::string ca_pem)
    : service_(service),
      log_({{"controller", "serviceaccount"}}),
      tokens_(service, issuer, std::move(ca_pem)),
      loop_("serviceaccount", service.store(), [this](const Key& k) { return reconcile(k); }) {}

ServiceAccountController::~ServiceAccountController() { stop(); }

void ServiceAccountController::start() {
  auto map = [this](const storage::Event& e) { return observe(e); };
  loop_.watch(kNamespaces, map);
  loop_.watch(kServiceAccounts, map);
  loop_.start();
  tokens_.start();
}

void ServiceAccountController::stop() {
  loop_.stop();
  tokens_.stop();
}

std::vector<Key> ServiceAccountController::observe(const storage::Event& e) {
  if (!e.object) return {};
  const json::Value& obj = *e.object.value;
  if (e.resource == kNamespaces) {
    if (e.type == storage::EventType::Deleted || !active(obj)) return {};
    return {Key{kNamespaces, "", std::string(meta::name_of(obj))}};
  }
  if (e.type == storage::EventType::Deleted && managed(meta::name_of(obj)))
    return {Key{kNamespaces, "", std::string(meta::namespace_of(obj))}};
  return {};
}

std::chrono::milliseconds ServiceAccountController::reconcile(const Key& k) {
  auto& store = service_.store();
  auto ns = store.get(kNamespaces, "", k.name);
  if (!ns || !active(*ns.value)) return {};
  auto res = service_.registry().find_group_resource(kServiceAccounts);
  if (!res) return {};
  for (const auto& name : kManagedServiceAccounts) {
    if (store.get(kServiceAccounts, k.name, name)) continue;
    rest::WriteOptions o;
    o.field_manager = std::string(kControllerManager);
    o.user = rest::User::system();
    json::Value sa = json::Object{{"apiVersion", "v1"}, {"kind", "ServiceAccount"}, {"metadata", json::Object{{"name", name}}}};
    try {
      service_.create(rest::Target{res, res->storage_version().name, k.name, "", ""}, std::move(sa), o);
      log_.debug("created ServiceAccount", {{"serviceAccount", object_ref(k.name, name)}});
    } catch (const ApiError& e) {
      // 409: created meanwhile; 403: the namespace started terminating; 404: it is gone.
      if (e.code == 409 || e.code == 403 || e.code == 404) continue;
      throw ApiError(e.code, e.reason, "creating ServiceAccount " + object_ref(k.name, name) + ": " + e.what());
    }
  }
  return {};
}

}  // namespace capstan::apiserver::system
