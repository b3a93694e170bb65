#include "controllers/gitops/env.h"

#include "runtime/events/recorder.h"
#include "runtime/client/client.h"
#include "runtime/client/errors.h"
#include "runtime/meta/base64.h"
#include "runtime/meta/core_types.h"
#include "runtime/meta/names.h"

#include <stdexcept>

namespace capstan::gitops {

namespace {

void check_default_service_account(std::string_view value) {
  if (value.empty()) return;
  auto slash = value.find('/');
  auto problems = meta::names::dns1123_subdomain(slash == std::string_view::npos ? value : value.substr(slash + 1));
  if (slash != std::string_view::npos)
    for (auto& m : meta::names::dns1123_label(value.substr(0, slash))) problems.push_back("namespace: " + m);
  if (!problems.empty())
    throw std::invalid_argument("--gitops-default-service-account=" + std::string(value) +
                                ": want NAME or NAMESPACE/NAME of a ServiceAccount: " + problems.front());
}

}  // namespace

Env::Env(client::Client& c, cache::Informer& repos, cache::Informer& ks, GitopsOptions o)
    : client(c), repositories(repos), kustomizations(ks), options(std::move(o)), mirrors(options.storage_path) {
  check_default_service_account(options.default_service_account);
}

client::Impersonation Env::applier(std::string_view ns, std::string_view service_account) const {
  if (!service_account.empty()) return client::Impersonation::service_account(ns, service_account);
  const std::string& fallback = options.default_service_account;
  if (fallback.empty()) return {};
  auto slash = fallback.find('/');
  if (slash == std::string::npos) return client::Impersonation::service_account(ns, fallback);
  return client::Impersonation::service_account(std::string_view(fallback).substr(0, slash),
                                                std::string_view(fallback).substr(slash + 1));
}

Env::~Env() = default;

void Env::event(const json::Value& target, std::string_view type, std::string_view reason, std::string_view message) const {
  if (recorder) recorder->event(target, type, reason, message);
}

std::optional<HealthWait> Env::health_wait(const std::string& key) const {
  std::lock_guard lock(health_mutex_);
  auto it = health_waits_.find(key);
  if (it == health_waits_.end()) return std::nullopt;
  return it->second;
}

void Env::set_health_wait(const std::string& key, std::optional<HealthWait> wait) {
  std::lock_guard lock(health_mutex_);
  if (wait) health_waits_[key] = std::move(*wait);
  else health_waits_.erase(key);
}

std::shared_ptr<AppliedState> Env::applied_state(const std::string& key) {
  std::lock_guard lock(applied_mutex_);
  auto& state = applied_[key];
  if (!state) state = std::make_shared<AppliedState>();
  return state;
}

void Env::forget_applied(const std::string& key) {
  std::lock_guard lock(applied_mutex_);
  applied_.erase(key);
}

std::optional<git::Credentials> Env::credentials(std::string_view ns, const std::optional<apis::gitops::v1::SecretReference>& ref) const {
  if (!ref) return std::nullopt;
  const std::string what = "secretRef " + std::string(ns) + "/" + ref->name;
  json::Value secret;
  try {
    secret = client.get(meta::core::kSecretType.gvr, ns, ref->name);
  } catch (const std::exception& e) {
    throw std::runtime_error(what + ": " + (client::is_not_found(e) ? std::string("not found") : std::string(e.what())));
  }
  git::Credentials c;
  const std::pair<std::string_view, std::string*> keys[] = {{"username", &c.username},     {"password", &c.password},
                                                            {"bearerToken", &c.bearer_token}, {"identity", &c.identity},
                                                            {"known_hosts", &c.known_hosts}, {"ca.crt", &c.ca_pem}};
  for (const auto& [key, into] : keys) {
    std::string_view encoded = json::get_string(secret, {"data", key});
    if (encoded.empty()) continue;
    auto decoded = meta::base64_decode(encoded);
    if (!decoded) throw std::runtime_error(what + ": data." + std::string(key) + " is not base64");
    *into = std::move(*decoded);
  }
  return c;
}

}  // namespace capstan::gitops
