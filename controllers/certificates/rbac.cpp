#include "controllers/certificates/rbac.h"

namespace capstan::certificates {
namespace {

json::Object rule(std::initializer_list<std::string_view> groups, std::initializer_list<std::string_view> resources,
                  std::initializer_list<std::string_view> verbs) {
  json::Array g, r, v;
  for (auto x : groups) g.emplace_back(x);
  for (auto x : resources) r.emplace_back(x);
  for (auto x : verbs) v.emplace_back(x);
  return json::Object{{"apiGroups", std::move(g)}, {"resources", std::move(r)}, {"verbs", std::move(v)}};
}

}  // namespace

json::Array rbac_rules() {
  return json::Array{
      rule({"certs.capstan.dev"}, {"certificates", "certificaterequests", "issuers", "clusterissuers"},
           {"get", "list", "watch", "create", "update", "patch", "delete"}),
      rule({"certs.capstan.dev"}, {"certificates/status", "certificaterequests/status", "issuers/status", "clusterissuers/status"},
           {"get", "update", "patch"}),
      // The internal approver (cert-manager's approval plugin checks this verb on signers).
      rule({"certs.capstan.dev"}, {"signers"}, {"approve"}),
      // Target and temporary key Secrets (ours are listed and watched by label), CA and ACME key Secrets.
      rule({""}, {"secrets"}, {"get", "list", "watch", "create", "update", "patch", "delete"}),
      rule({""}, {"events"}, {"create", "patch"}),
      // HTTP-01 solver Services and Ingresses.
      rule({""}, {"services"}, {"get", "list", "create", "delete"}),
      rule({"networking.k8s.io"}, {"ingresses"}, {"get", "list", "create", "delete"}),
  };
}

}  // namespace capstan::certificates
