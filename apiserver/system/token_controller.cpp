#include "apiserver/system/token_controller.h"

#include "apiserver/system/service_writes.h"
#include "runtime/meta/base64.h"
#include "runtime/meta/object.h"

#include <algorithm>

namespace capstan::apiserver::system {
namespace {

const std::string kSecrets = "secrets";
const std::string kServiceAccounts = "serviceaccounts";

bool is_token_secret(const json::Value& secret) { return json::get_string(secret, {"type"}) == kServiceAccountTokenType; }

// The decoded value of data[key] (empty when missing or not base64).
std::string data_value(const json::Value& secret, std::string_view key) {
  std::string_view b64 = json::get_string(secret, {"data", key});
  auto v = meta::base64_decode(b64);
  return v ? *v : std::string();
}

// Whether a token Secret belongs to the ServiceAccount `name` with uid `uid`: the name
// annotation matches and the uid annotation, when set, too (upstream IsServiceAccountToken).
bool token_of(const json::Value& secret, std::string_view name, std::string_view uid) {
  if (!is_token_secret(secret) || meta::annotation(secret, kServiceAccountNameAnnotation) != name) return false;
  std::string_view secret_uid = meta::annotation(secret, kServiceAccountUidAnnotation);
  return secret_uid.empty() || secret_uid == uid;
}

}  // namespace

TokensController::TokensController(rest::Service& service, const auth::TokenIssuer& issuer, std::string ca_pem)
    : service_(service),
      issuer_(issuer),
      ca_pem_(std::move(ca_pem)),
      log_({{"controller", "serviceaccount-token"}}),
      loop_("serviceaccount-token", service.store(), [this](const Key& k) { return reconcile(k); }) {}

TokensController::~TokensController() { stop(); }

void TokensController::start() {
  loop_.watch(kSecrets, [this](const storage::Event& e) { return observe_secret(e); });
  loop_.watch(kServiceAccounts, [this](const storage::Event& e) { return observe_service_account(e); });
  loop_.start();
}

void TokensController::stop() { loop_.stop(); }

std::vector<Key> TokensController::observe_secret(const storage::Event& e) {
  if (!e.object || !is_token_secret(*e.object.value)) return {};
  const json::Value& obj = *e.object.value;
  std::string ns(meta::namespace_of(obj));
  if (e.type == storage::EventType::Deleted) {
    Key sa{kServiceAccounts, ns, std::string(meta::annotation(obj, kServiceAccountNameAnnotation))};
    if (sa.name.empty()) return {};
    std::lock_guard<std::mutex> l(mu_);
    deleted_secrets_[sa].insert(std::string(meta::name_of(obj)));
    return {sa};
  }
  return {Key{kSecrets, std::move(ns), std::string(meta::name_of(obj))}};
}

std::vector<Key> TokensController::observe_service_account(const storage::Event& e) {
  if (!e.object || e.type == storage::EventType::Modified) return {};  // a uid never changes in place
  const json::Value& obj = *e.object.value;
  return {Key{kServiceAccounts, std::string(meta::namespace_of(obj)), std::string(meta::name_of(obj))}};
}

std::chrono::milliseconds TokensController::reconcile(const Key& k) {
  if (k.resource == kSecrets) sync_secret(k);
  else sync_service_account(k);
  return {};
}

void TokensController::sync_secret(const Key& k) {
  auto& store = service_.store();
  auto cur = store.get(kSecrets, k.ns, k.name);
  if (!cur || !is_token_secret(*cur.value) || meta::is_deleting(*cur.value)) return;
  const json::Value& secret = *cur.value;
  std::string sa_name(meta::annotation(secret, kServiceAccountNameAnnotation));
  if (sa_name.empty()) return;  // not valid for this type; nothing to attach it to
  auto secrets = service_.registry().find_group_resource(kSecrets);
  auto sa = store.get(kServiceAccounts, k.ns, sa_name);
  if (!sa || !token_of(secret, sa_name, meta::uid_of(*sa.value))) {
    log_.info("service account does not exist; deleting its token Secret",
              {{"secret", object_ref(k.ns, k.name)}, {"serviceAccount", sa_name}});
    delete_object(service_, secrets, k.ns, k.name, meta::uid_of(secret), "", "");
    return;
  }
  json::Value account = *sa.value;
  auto outcome = update_object(service_, secrets, k.ns, k.name, meta::uid_of(secret), kControllerManager,
                               [&](json::Value& v) { return fill_secret(v, account); });
  if (outcome == WriteOutcome::Written) log_.debug("filled token Secret", {{"secret", object_ref(k.ns, k.name)}});
}

bool TokensController::fill_secret(json::Value& secret, const json::Value& sa) const {
  std::string ns(meta::namespace_of(secret));
  bool needs_ca = !ca_pem_.empty() && data_value(secret, "ca.crt") != ca_pem_;
  bool needs_namespace = data_value(secret, "namespace").empty();
  bool needs_token = data_value(secret, "token").empty();
  if (!needs_ca && !needs_namespace && !needs_token) return false;
  auto& data = json::ensure_object(secret, {"data"});
  if (needs_ca) data["ca.crt"] = meta::base64_encode(ca_pem_);
  if (needs_namespace) data["namespace"] = meta::base64_encode(ns);
  if (needs_token) {
    // A legacy token: bound to the ServiceAccount's uid, without audience or expiry.
    auth::TokenClaims c;
    c.ns = ns;
    c.service_account = meta::name_of(sa);
    c.uid = meta::uid_of(sa);
    c.issued_at = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    data["token"] = meta::base64_encode(issuer_.issue(c));
  }
  auto& annotations = json::ensure_object(secret, {"metadata", "annotations"});
  annotations[kServiceAccountNameAnnotation] = meta::name_of(sa);
  annotations[kServiceAccountUidAnnotation] = meta::uid_of(sa);
  return true;
}

void TokensController::sync_service_account(const Key& k) {
  auto& store = service_.store();
  std::set<std::string> deleted;
  {
    std::lock_guard<std::mutex> l(mu_);
    if (auto it = deleted_secrets_.find(k); it != deleted_secrets_.end()) {
      deleted = std::move(it->second);
      deleted_secrets_.erase(it);
    }
  }
  auto sa = store.get(kServiceAccounts, k.ns, k.name);
  std::string sa_uid = sa ? std::string(meta::uid_of(*sa.value)) : std::string();

  if (sa && !deleted.empty()) {
    // Drop references to token Secrets that are gone from the (legacy) .secrets list.
    auto res = service_.registry().find_group_resource(kServiceAccounts);
    update_object(service_, res, k.ns, k.name, sa_uid, kControllerManager, [&](json::Value& v) {
      auto* list = json::find(v, {"secrets"});
      if (!list || !list->is_array()) return false;
      json::Array kept;
      for (const auto& ref : list->as_array()) {
        std::string name(json::get_string(ref, {"name"}));
        if (deleted.count(name) && !store.get(kSecrets, k.ns, name)) continue;
        kept.push_back(ref);
      }
      if (kept.size() == list->as_array().size()) return false;
      *list = std::move(kept);
      return true;
    });
  }

  // Token Secrets of a ServiceAccount that is gone, or that was another one of this name.
  auto secrets = service_.registry().find_group_resource(kSecrets);
  auto page = store.list(kSecrets, k.ns, "", 0);
  for (const auto& item : page.items) {
    const json::Value& secret = *item.value;
    if (!is_token_secret(secret) || meta::annotation(secret, kServiceAccountNameAnnotation) != k.name) continue;
    if (sa && token_of(secret, k.name, sa_uid)) continue;
    log_.info("deleting token Secret of a deleted service account",
              {{"secret", object_ref(k.ns, meta::name_of(secret))}, {"serviceAccount", k.name}});
    delete_object(service_, secrets, k.ns, meta::name_of(secret), meta::uid_of(secret), "", "");
  }
}

}  // namespace capstan::apiserver::system
