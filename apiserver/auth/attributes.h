// What an authorizer decides on (k8s.io/apiserver's authorizer.Attributes): who asks for which
// verb, on a resource (group, resource, subresource, namespace, name) or on a non-resource path.
#pragma once

#include "apiserver/rest/api_error.h"
#include "apiserver/rest/user.h"

#include <string>
#include <string_view>
#include <vector>

namespace capstan::apiserver::auth {

struct Attributes {
  const rest::User* user = nullptr;
  std::string verb;
  bool resource_request = false;
  std::string path;            // non-resource requests: "/apis", "/healthz"
  std::string api_group;
  std::string api_version = "*";
  std::string resource;
  std::string subresource;
  std::string ns;
  std::string name;
};

// A decision of an authorizer chain; `reason` is what kube reports (in SubjectAccessReview
// status and after the forbidden message): "RBAC: allowed by ...", "rbac: RBAC: ... not found".
struct Decision {
  bool allowed = false;
  std::string reason;
};

// The 403 kube-apiserver answers a request the authorizer did not allow, worded as
// responsewriters.ForbiddenStatusError: `configmaps "x" is forbidden: User "u" cannot get resource
// "configmaps" in API group "" in the namespace "default"[: reason]`, `forbidden: User "u" cannot get
// path "/apis"`; details {name, group, kind} (an empty object for paths).
ApiError forbidden_error(const Attributes& a, std::string_view reason);

// apierrors.NewForbidden: `<resource>[.<group>] ["<name>" ]is forbidden: <message>`, or
// `forbidden: <message>` without a resource.
ApiError forbidden_status(std::string_view group, std::string_view resource, std::string_view name, std::string_view message);

// Go's %q of a []string: ["a" "b"].
std::string quote_list(const std::vector<std::string>& v);

// utilerrors.NewAggregate(errs).Error(): one message as is, several deduplicated as "[a, b]".
std::string aggregate_errors(const std::vector<std::string>& errors);

}  // namespace capstan::apiserver::auth
