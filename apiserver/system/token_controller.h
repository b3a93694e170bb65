// The ServiceAccount token controller, as kube-controller-manager's: a Secret of type
// kubernetes.io/service-account-token naming a ServiceAccount (annotation
// kubernetes.io/service-account.name) gets data.token (a non-expiring token from the
// TokenIssuer), data["ca.crt"] and data.namespace, and the annotation
// kubernetes.io/service-account.uid. A token Secret whose ServiceAccount does not exist (or is
// another one now: the uid annotation differs) is deleted, and so are a deleted ServiceAccount's
// token Secrets; a deleted token Secret is dropped from its ServiceAccount's .secrets list.
#pragma once

#include "apiserver/auth/tokens.h"
#include "apiserver/rest/service.h"
#include "apiserver/system/loop.h"
#include "runtime/log/log.h"

#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace capstan::apiserver::system {

inline constexpr std::string_view kServiceAccountTokenType = "kubernetes.io/service-account-token";
inline constexpr std::string_view kServiceAccountNameAnnotation = "kubernetes.io/service-account.name";
inline constexpr std::string_view kServiceAccountUidAnnotation = "kubernetes.io/service-account.uid";

class TokensController {
 public:
  // `ca_pem` is what token Secrets carry as ca.crt (empty: ca.crt is not managed).
  TokensController(rest::Service& service, const auth::TokenIssuer& issuer, std::string ca_pem);
  ~TokensController();
  TokensController(const TokensController&) = delete;
  TokensController& operator=(const TokensController&) = delete;

  void start();
  void stop();

 private:
  std::vector<Key> observe_secret(const storage::Event& e);
  std::vector<Key> observe_service_account(const storage::Event& e);
  std::chrono::milliseconds reconcile(const Key& k);
  void sync_secret(const Key& k);
  void sync_service_account(const Key& k);
  // Fills in what a token Secret lacks; false when it lacks nothing.
  bool fill_secret(json::Value& secret, const json::Value& sa) const;

  rest::Service& service_;
  const auth::TokenIssuer& issuer_;
  std::string ca_pem_;
  log::Logger log_;
  std::mutex mu_;
  std::map<Key, std::set<std::string>> deleted_secrets_;  // ServiceAccount -> its token Secrets deleted since
  Loop loop_;  // declared last: stopped before the rest goes away
};

}  // namespace capstan::apiserver::system
