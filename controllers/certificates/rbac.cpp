#include "controllers/certificates/rbac.h"

#include "manager/registry.h"

namespace capstan::certificates {

using manager::rbac_rule;

json::Array rbac_rules() {
  // Only the verbs the controllers use (cert-manager's controller ClusterRole holds every verb
  // on its kinds and `update` on Secrets; nothing here updates by PUT but status).
  return json::Array{
      rbac_rule({"certs.capstan.dev"}, {"certificates", "issuers", "clusterissuers"}, {"get", "list", "watch"}),
      rbac_rule({"certs.capstan.dev"}, {"certificaterequests"}, {"get", "list", "watch", "create", "patch", "delete"}),
      rbac_rule({"certs.capstan.dev"}, {"certificates/status", "certificaterequests/status", "issuers/status", "clusterissuers/status"},
           {"get", "update", "patch"}),
      // The internal approver (cert-manager's approval plugin checks this verb on signers).
      rbac_rule({"certs.capstan.dev"}, {"signers"}, {"approve"}),
      // Target and temporary key Secrets (ours are listed and watched by label; RBAC cannot
      // narrow by label), CA and ACME key Secrets read by name. Written by server-side apply.
      rbac_rule({""}, {"secrets"}, {"get", "list", "watch", "create", "patch", "delete"}),
      rbac_rule({""}, {"events"}, {"create", "patch"}),
      // HTTP-01 solver Services and Ingresses.
      rbac_rule({""}, {"services"}, {"get", "list", "create", "delete"}),
      rbac_rule({"networking.k8s.io"}, {"ingresses"}, {"get", "list", "create", "delete"}),
  };
}

}  // namespace capstan::certificates
