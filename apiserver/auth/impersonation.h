// Impersonate-User, -Group, -Uid and -Extra-* headers, checked as kube-apiserver 1.37 checks them
// (constrained impersonation, KEP-5284, on by default): the modes arbitrary-node,
// serviceaccount and user-info first require `impersonate-on:<mode>:<verb>` on what the request
// does, then `impersonate:<mode>` on the user (nodes, serviceaccounts or users in
// authentication.k8s.io), uids, groups and userextras; legacy impersonation requires the
// `impersonate` verb on users/serviceaccounts/groups (core group) and uids/userextras
// (authentication.k8s.io). The first mode that allows wins; when none does, the answer is the first
// mode's refusal (the mode that last worked for this requestor is tried first, as kube does).
// Not implemented: the associated-node mode (no token here carries a node binding) and kube's
// short-lived cache of successful impersonations.
#pragma once

#include "apiserver/auth/authorizer.h"
#include "runtime/http/message.h"

#include <mutex>
#include <optional>
#include <unordered_map>

namespace capstan::apiserver::auth {

// The user the headers ask for: nullopt without Impersonate-User (400 Bad Request when groups, a
// uid or extras come without one).
std::optional<rest::User> requested_user(const http::Headers& headers);
bool has_impersonation_headers(const http::Headers& headers);

class Impersonation {
 public:
  explicit Impersonation(const Authorizer& authorizer) : authorizer_(authorizer) {}
  // The user to run `request` (attributes as the requestor) as; throws ApiError (403) when the
  // requestor may not impersonate `wanted`.
  rest::User impersonate(const rest::User& requestor, const rest::User& wanted, const Attributes& request) const;

 private:
  struct Mode;
  std::optional<rest::User> try_mode(int mode, const rest::User& requestor, const rest::User& wanted, const Attributes& request,
                                     std::optional<ApiError>& error) const;
  void check(const Attributes& a) const;  // throws the 403

  const Authorizer& authorizer_;
  mutable std::mutex mu_;
  mutable std::unordered_map<std::string, int> last_mode_;  // requestor name -> mode index
};

}  // namespace capstan::apiserver::auth
