#include "controllers/certificates/descriptor.h"

#include "apis/certs/v1/crds.h"
#include "apis/certs/v1/defaults.h"
#include "apis/certs/v1/group.h"
#include "controllers/certificates/acme/solver.h"
#include "controllers/certificates/certificate_controller.h"
#include "controllers/certificates/constants.h"
#include "controllers/certificates/env.h"
#include "controllers/certificates/issuers/issuer_controller.h"
#include "controllers/certificates/metrics.h"
#include "controllers/certificates/rbac.h"
#include "controllers/certificates/request_builder.h"
#include "controllers/certificates/requests/approver.h"
#include "controllers/certificates/requests/issuer_controller.h"
#include "runtime/controller/manager.h"
#include "runtime/events/recorder.h"
#include "runtime/metrics/registry.h"

namespace capstan::certificates {
namespace {

namespace v1 = apis::certs::v1;

constexpr std::string_view kSecretNameIndex = "certificates.capstan.dev/secret-name";  // "ns/secretName"
constexpr std::string_view kCaSecretIndex = "certificates.capstan.dev/ca-secret";      // "ns/secretName" | "secretName"
constexpr std::string_view kIssuerIndex = "certificates.capstan.dev/issuer";           // "Kind/ns/name" | "ClusterIssuer/name"

std::string issuer_key(const json::Value& request, std::string_view ns) {
  auto ref = v1::effective_issuer_ref(v1::IssuerReference{std::string(json::get_string(request, {"spec", "issuerRef", "name"})),
                                                           std::string(json::get_string(request, {"spec", "issuerRef", "kind"})),
                                                           std::string(json::get_string(request, {"spec", "issuerRef", "group"}))});
  if (ref.group != v1::kGroup) return "";
  if (ref.kind == v1::kClusterIssuerKind) return "ClusterIssuer/" + ref.name;
  return "Issuer/" + std::string(ns) + "/" + ref.name;
}

std::vector<controller::Request> requests_of(const cache::Informer& inf, std::string_view index, const std::string& value) {
  std::vector<controller::Request> out;
  for (const auto& o : inf.store().by_index(index, value)) out.push_back({std::string(o->ns()), std::string(o->name())});
  return out;
}

}  // namespace

CertificatesOptions options_from(const manager::Settings& settings) {
  CertificatesOptions o;
  o.cluster_resource_namespace = !settings.cluster_resource_namespace.empty() ? settings.cluster_resource_namespace
                                 : !settings.pod_namespace.empty()             ? settings.pod_namespace
                                                                                : "capstan-system";
  if (!settings.acme_http01_solver_service.empty()) o.acme_solver_service = settings.acme_http01_solver_service;
  o.acme_solver_port = static_cast<std::uint16_t>(settings.acme_http01_solver_port);
  o.acme_solver = settings.acme_http01_solver_port > 0;
  return o;
}

std::shared_ptr<Env> wire_certificates(controller::Manager& mgr, CertificatesOptions options) {
  if (!options.registry) options.registry = mgr.metrics_registry();
  cache::InformerOptions secrets_narrow;
  secrets_narrow.label_selector = std::string(kFaoSelector);
  auto env = std::make_shared<Env>(mgr.client(), mgr.informer(kCertificateType), mgr.informer(kRequestType), mgr.informer(kIssuerType),
                                   mgr.informer(kClusterIssuerType), mgr.informer(kSecretType, kFaoSelector), options);
  if (options.record_events) env->recorder = std::make_unique<events::Recorder>(mgr.client(), events::Source{std::string(kEventComponent), ""});
  if (options.acme_solver) {
    acme::Http01SolverOptions so;
    so.address = options.acme_solver_address;
    so.port = options.acme_solver_port;
    env->solver = std::make_unique<acme::Http01Solver>(so, options.registry);
  }

  // Indexes the map functions below look up.
  env->certificates.ensure_index(std::string(kSecretNameIndex), [](const cache::CachedObject& o) {
    std::string secret(json::get_string(o.value(), {"spec", "secretName"}));
    return secret.empty() ? std::vector<std::string>{} : std::vector<std::string>{std::string(o.ns()) + "/" + secret};
  });
  env->issuers.ensure_index(std::string(kCaSecretIndex), [](const cache::CachedObject& o) {
    std::string secret(json::get_string(o.value(), {"spec", "ca", "secretName"}));
    return secret.empty() ? std::vector<std::string>{} : std::vector<std::string>{std::string(o.ns()) + "/" + secret};
  });
  env->cluster_issuers.ensure_index(std::string(kCaSecretIndex), [](const cache::CachedObject& o) {
    std::string secret(json::get_string(o.value(), {"spec", "ca", "secretName"}));
    return secret.empty() ? std::vector<std::string>{} : std::vector<std::string>{secret};
  });
  env->requests.ensure_index(std::string(kIssuerIndex), [](const cache::CachedObject& o) {
    std::string key = issuer_key(o.value(), o.ns());
    return key.empty() ? std::vector<std::string>{} : std::vector<std::string>{key};
  });

  const int workers = options.max_concurrent_reconciles;
  Env* e = env.get();

  // Secrets (ours) -> the Certificates writing them, and the owner of temporary keys.
  auto secret_to_certificates = [e](const cache::ObjectPtr& o) {
    auto out = requests_of(e->certificates, kSecretNameIndex, std::string(o->ns()) + "/" + std::string(o->name()));
    for (const auto& ref : o->owners())
      if (ref.controller && ref.kind == v1::kCertificateKind) out.push_back({std::string(o->ns()), std::string(ref.name)});
    return out;
  };
  mgr.controller("certificates")
      .for_(kCertificateType)
      .owns(kRequestType)
      .watches(kSecretType, secret_to_certificates, {}, secrets_narrow)
      .with_max_concurrent(workers)
      .records_faults("Ready", env->recorder.get())
      .complete([env](const controller::Request& r, controller::Context& c) { return reconcile_certificate(*env, r, c); });

  if (options.enable_approver) {
    mgr.controller("certificaterequests-approver")
        .for_(kRequestType)
        .with_max_concurrent(workers)
        .complete([env](const controller::Request& r, controller::Context& c) { return reconcile_approval(*env, r, c); });
  }

  mgr.controller("certificaterequests-issuer")
      .for_(kRequestType)
      .watches(kIssuerType,
               [e](const cache::ObjectPtr& o) {
                 return requests_of(e->requests, kIssuerIndex, "Issuer/" + std::string(o->ns()) + "/" + std::string(o->name()));
               })
      .watches(kClusterIssuerType,
               [e](const cache::ObjectPtr& o) { return requests_of(e->requests, kIssuerIndex, "ClusterIssuer/" + std::string(o->name())); })
      .with_max_concurrent(workers)
      .records_faults("Ready", env->recorder.get())
      .complete([env](const controller::Request& r, controller::Context& c) { return reconcile_signing(*env, r, c); });

  mgr.controller("issuers")
      .for_(kIssuerType)
      .watches(kSecretType,
               [e](const cache::ObjectPtr& o) {
                 return requests_of(e->issuers, kCaSecretIndex, std::string(o->ns()) + "/" + std::string(o->name()));
               },
               {}, secrets_narrow)
      .with_max_concurrent(workers)
      .records_faults("Ready", env->recorder.get())
      .complete([env](const controller::Request& r, controller::Context& c) { return reconcile_issuer(*env, false, r, c); });

  mgr.controller("clusterissuers")
      .for_(kClusterIssuerType)
      .watches(kSecretType,
               [e](const cache::ObjectPtr& o) {
                 if (o->ns() != e->options.cluster_resource_namespace) return std::vector<controller::Request>{};
                 return requests_of(e->cluster_issuers, kCaSecretIndex, std::string(o->name()));
               },
               {}, secrets_narrow)
      .with_max_concurrent(workers)
      .records_faults("Ready", env->recorder.get())
      .complete([env](const controller::Request& r, controller::Context& c) { return reconcile_issuer(*env, true, r, c); });

  if (env->solver) {
    mgr.add_server("certificates-acme-http01-solver", [env] { env->solver->start(); }, [env] { env->solver->stop(); });
  }
  auto metrics_registry = options.registry ? options.registry : &metrics::Registry::global();
  auto collector = std::make_shared<CertificateMetrics>(*metrics_registry, env->certificates);
  mgr.add_server("certificates-metrics", [collector] { collector->start(); }, [collector] { collector->stop(); });
  if (env->recorder) {
    mgr.add_server("certificates-events", [] {}, [env] { env->recorder->stop(); });
  }
  return env;
}

manager::ControllerDescriptor certificates_descriptor() {
  manager::ControllerDescriptor d;
  d.name = "certificates";
  d.aliases = {"cert-manager"};
  d.default_on = true;
  d.description =
      "X.509 certificates (cert-manager's Certificate, CertificateRequest, Issuer and ClusterIssuer under certs.capstan.dev): "
      "SelfSigned, CA and ACME HTTP-01 issuers, renewal, webhooks (webhooks/certificates) and metrics";
  d.crds = [] { return v1::crds(); };
  d.informers = [] {
    return std::vector<manager::InformerNeed>{{kCertificateType, ""},
                                              {kRequestType, ""},
                                              {kIssuerType, ""},
                                              {kClusterIssuerType, ""},
                                              {kSecretType, std::string(kFaoSelector)}};  // only the Secrets we own
  };
  d.rbac_rules = [] { return rbac_rules(); };
  d.wire = [](controller::Manager& mgr, webhook::Server&, const manager::Settings& settings) {
    wire_certificates(mgr, options_from(settings));
  };
  return d;
}

}  // namespace capstan::certificates
