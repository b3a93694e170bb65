// The authorization step of the API server's request chain, after authentication: impersonation
// headers first (they switch the user the request runs as), then the authorizer's verdict on the
// request's attributes; a refusal is kube's 403 Status.
#pragma once

#include "apiserver/auth/authorizer.h"
#include "apiserver/auth/impersonation.h"
#include "runtime/http/message.h"

namespace capstan::apiserver::auth {

class RequestAuthorizer {
 public:
  explicit RequestAuthorizer(const Authorizer& authorizer) : authorizer_(authorizer), impersonation_(authorizer) {}
  // Throws ApiError (400 for malformed impersonation, 403). May replace `user`.
  void operator()(const http::Request& req, rest::User& user) const;

 private:
  const Authorizer& authorizer_;
  Impersonation impersonation_;
};

}  // namespace capstan::apiserver::auth
