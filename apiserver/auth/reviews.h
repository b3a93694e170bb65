// The review resources the server answers itself (create-only, never stored):
// authorization.k8s.io SubjectAccessReview, LocalSubjectAccessReview, SelfSubjectAccessReview
// (`kubectl auth can-i`) and SelfSubjectRulesReview (`kubectl auth can-i --list`), answered by the
// authorizer; authentication.k8s.io SelfSubjectReview (`kubectl auth whoami`) and TokenReview.
// Shapes and validation follow kube's registry (pkg/registry/authorization): the access reviews
// echo the request with a status {allowed, denied, reason, evaluationError}, a rules review is a
// fresh object.
#pragma once

#include "apiserver/auth/authorizer.h"
#include "apiserver/auth/tokens.h"
#include "apiserver/registry/resource.h"

namespace capstan::apiserver::auth {

class Reviews {
 public:
  Reviews(const Authorizer& authorizer, const TokenIssuer& tokens) : authorizer_(authorizer), tokens_(tokens) {}
  // The answer to `request` (a create of review kind `r`, in namespace `ns` for a
  // LocalSubjectAccessReview) made by `user`; apiVersion and kind are the caller's. Throws ApiError.
  json::Value answer(const registry::ResourceInfo& r, std::string_view ns, const json::Value& request, const rest::User& user) const;

 private:
  json::Value access_review(const registry::ResourceInfo& r, std::string_view ns, json::Value review, const rest::User& user) const;
  json::Value rules_review(const json::Value& request, const rest::User& user) const;
  json::Value token_review(json::Value review) const;

  const Authorizer& authorizer_;
  const TokenIssuer& tokens_;
};

// The user a ServiceAccount token stands for.
rest::User service_account_user(const TokenClaims& claims);

}  // namespace capstan::apiserver::auth
