// ServiceAccounts, as kube-controller-manager's serviceaccount and serviceaccount-token
// controllers: every active namespace has a "default" ServiceAccount (created when missing,
// re-created when deleted), and token Secrets are filled in (see token_controller.h).
#pragma once

#include "apiserver/auth/tokens.h"
#include "apiserver/rest/service.h"
#include "apiserver/system/loop.h"
#include "apiserver/system/token_controller.h"
#include "runtime/log/log.h"

#include <chrono>
#include <string>
#include <vector>

namespace capstan::apiserver::system {

class ServiceAccountController {
 public:
  // `issuer` must outlive the controller; `ca_pem` is the cluster CA token Secrets carry.
  ServiceAccountController(rest::Service& service, const auth::TokenIssuer& issuer, std::string ca_pem);
  ~ServiceAccountController();
  ServiceAccountController(const ServiceAccountController&) = delete;
  ServiceAccountController& operator=(const ServiceAccountController&) = delete;

  void start();
  void stop();

 private:
  std::vector<Key> observe(const storage::Event& e);
  std::chrono::milliseconds reconcile(const Key& k);  // k: the namespace

  rest::Service& service_;
  log::Logger log_;
  TokensController tokens_;
  Loop loop_;  // declared last: stopped before the rest goes away
};

}  // namespace capstan::apiserver::system
