// SubjectAccessReviews (authorization.k8s.io/v1): whether a user other than the client's own may
// do something, as the API server's authorizer (RBAC) decides. Used where a controller or webhook
// acts on a user's behalf: cert-manager's approval check (verb approve on signers) and
// approver-policy's binding check (verb use on certificaterequestpolicies).
#pragma once

#include "runtime/json/json.h"

#include <string>

namespace capstan::client {

class Client;

// ResourceAttributes of the review; `ns` empty for cluster-scoped resources.
struct AccessAttributes {
  std::string verb;
  std::string group;
  std::string resource;
  std::string name;
  std::string ns;
};

// Whether `user` may do `attrs`. `user` is an object {username, uid, groups, extra} — the shape of
// an admission request's userInfo and of a CertificateRequest's spec identity, so either is
// passed as is; other members are ignored. Throws ApiError when the review cannot be created.
bool subject_access_allowed(Client& c, const json::Value& user, const AccessAttributes& attrs);

}  // namespace capstan::client
