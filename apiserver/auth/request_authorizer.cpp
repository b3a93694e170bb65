#include "apiserver/auth/request_authorizer.h"

#include "apiserver/auth/request_attributes.h"

namespace capstan::apiserver::auth {

void RequestAuthorizer::operator()(const http::Request& req, rest::User& user) const {
  bool impersonating = has_impersonation_headers(req.headers);
  // The hot path: a user allowed everything (system:masters, or any user with AlwaysAllow) needs
  // no attributes parsed.
  if (!impersonating && authorizer_.allows_everything(user)) return;
  Attributes a = request_attributes(req, user);
  if (impersonating) {
    if (auto wanted = requested_user(req.headers)) {
      rest::User as = impersonation_.impersonate(user, *wanted, a);
      user = std::move(as);
      a.user = &user;
    }
  }
  auto d = authorizer_.check(a);
  if (!d.allowed) throw forbidden_error(a, d.reason);
}

}  // namespace capstan::apiserver::auth
