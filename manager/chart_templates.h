// The generated parts of the Helm chart and of the kustomize tree that come from the controller
// descriptors (CRDs, RBAC rules, webhook configurations), so neither can drift from the code.
#pragma once

#include "runtime/json/json.h"

#include <map>
#include <string>
#include <vector>

namespace capstan::manager {

// Rules every manager needs whatever it runs (Events); leader election's Lease is granted
// by a Role in the manager's namespace, not here.
json::Array common_rules();

// charts/capstan/templates/_generated.tpl: the named templates "capstan.rbac.common",
// "capstan.rbac.<controller>" (ClusterRole rules) and "capstan.webhooks.<controller>"
// (webhook configurations, called with a dict of fullname, service, namespace, caBundle,
// urlHost, failurePolicy and timeoutSeconds).
std::string chart_templates();

// charts/capstan/templates/crds/<crd name>.yaml: each CRD as a template installed only when
// crds.enabled and its controller is enabled, kept on uninstall with crds.keep.
std::map<std::string, std::string> chart_crd_templates();

// config/crd/bases: the CRDs, a conversion webhook pointing at the Service "webhook-service" in
// "system" (config/default's namePrefix and namespace rewrite both) with the manager's CA
// injected (--webhook-cert-secret).
std::vector<json::Value> kustomize_crds();

// config/webhook/manifests.yaml: every webhook configuration named without the "capstan-"
// prefix (config/default's namePrefix adds it), pointing at the Service "webhook-service" in
// the namespace "system" (which config/default's namespace rewrites).
std::string kustomize_webhooks();

// config/default's namespace and the Secret the manager keeps its webhook certificate in
// (--webhook-cert-secret), as the injection annotation names them.
inline constexpr std::string_view kKustomizeNamespace = "capstan-system";
inline constexpr std::string_view kKustomizeWebhookSecret = "capstan-webhook-server-cert";

// config/rbac/webhook_certs_role.yaml: what --webhook-cert-secret needs. A Role (the Secret, in
// the manager's namespace) and a ClusterRole reading webhook configurations and CRDs and
// patching only Capstan's own, by name.
std::string kustomize_webhook_cert_roles();

}  // namespace capstan::manager
