#include "controllers/certificates/plugin.h"

#include "apis/certs/v1/crds.h"
#include "apis/certs/v1/defaults.h"
#include "apis/certs/v1/group.h"
#include "controllers/certificates/acme/solver.h"
#include "apis/trust/v1alpha1/crds.h"
#include "controllers/certificates/alert_rules.h"
#include "controllers/certificates/approval/policy_approver.h"
#include "controllers/certificates/bundles/bundle_controller.h"
#include "controllers/certificates/certificate_controller.h"
#include "controllers/certificates/constants.h"
#include "controllers/certificates/env.h"
#include "controllers/certificates/ingress_shim.h"
#include "controllers/certificates/issuers/acme_http01.h"
#include "controllers/certificates/issuers/issuer_controller.h"
#include "controllers/certificates/metrics.h"
#include "controllers/certificates/request_builder.h"
#include "controllers/certificates/requests/approver.h"
#include "controllers/certificates/requests/issuer_controller.h"
#include "runtime/cache/informer.h"
#include "runtime/controller/manager.h"
#include "runtime/events/recorder.h"
#include "runtime/meta/selector.h"
#include "runtime/metrics/registry.h"
#include "runtime/plugin/kept_objects.h"
#include "webhooks/certificates/webhooks.h"

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

}  // namespace

std::shared_ptr<Env> wire_certificates(controller::Manager& mgr, CertificatesOptions options) {
  if (!options.registry) options.registry = mgr.metrics_registry();
  cache::InformerOptions secrets_narrow;
  secrets_narrow.label_selector = std::string(kFaoSelector);
  auto env = std::make_shared<Env>(mgr.client(), mgr.informer(kCertificateType), mgr.informer(kCertificateRequestType), mgr.informer(kIssuerType),
                                   mgr.informer(kClusterIssuerType), mgr.informer(kSecretType, kFaoSelector), options);
  if (options.record_events) env->recorder = std::make_unique<events::Recorder>(mgr.event_client(), events::Source{std::string(kEventComponent), ""});
  if (options.acme_solver) {
    acme::Http01SolverOptions so;
    so.address = options.acme_solver_address;
    so.port = options.acme_solver_port;
    env->solver = std::make_unique<acme::Http01Solver>(so, options.registry);
    // Every replica answers the tokens the leader publishes on its CertificateRequests (the
    // informers run on followers too; only controllers wait for leadership).
    acme::Http01Solver* solver = env->solver.get();
    Env* e = env.get();
    auto publish = [solver, e](const cache::ObjectPtr& o) {
      // Most requests publish nothing: decoded only when the annotation is there.
      const bool publishes = o->json().find(annotation::kAcmeHttp01Tokens) != std::string_view::npos;
      solver->set_published(std::string(o->uid()), publishes ? trusted_published_tokens(*e, o->value())
                                                             : std::vector<acme::Http01Solver::Published>{});
    };
    env->requests.add_handlers(cache::Handlers{
        [publish](const cache::ObjectPtr& o, bool) { publish(o); },
        [publish](const cache::ObjectPtr&, const cache::ObjectPtr& o) { publish(o); },
        [solver](const cache::ObjectPtr& o) { solver->set_published(std::string(o->uid()), {}); }});
    // Tokens are trusted by their issuer's account: an issuer seen later (or registered anew)
    // judges the requests that publish again.
    // Only an ACME issuer's requests publish tokens, and only its own are judged again (the
    // requests index by issuer): a CA issuer's status update costs nothing however many
    // requests it signed.
    auto issuer_seen = [publish, e](const cache::ObjectPtr& issuer, bool cluster) {
      if (issuer->json().find("\"acme\"") == std::string_view::npos) return;
      std::string key = cluster ? "ClusterIssuer/" + std::string(issuer->name())
                                : "Issuer/" + std::string(issuer->ns()) + "/" + std::string(issuer->name());
      for (const auto& r : e->requests.store().by_index(kIssuerIndex, key))
        if (r->json().find(annotation::kAcmeHttp01Tokens) != std::string_view::npos) publish(r);
    };
    for (bool cluster : {false, true})
      (cluster ? env->cluster_issuers : env->issuers)
          .add_handlers(cache::Handlers{[issuer_seen, cluster](const cache::ObjectPtr& o, bool) { issuer_seen(o, cluster); },
                                        [issuer_seen, cluster](const cache::ObjectPtr&, const cache::ObjectPtr& o) { issuer_seen(o, cluster); },
                                        nullptr});
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
    auto out = controller::requests_by_index(e->certificates, kSecretNameIndex, std::string(o->ns()) + "/" + std::string(o->name()));
    for (const auto& ref : o->owners())
      if (ref.controller && ref.kind == v1::kCertificateKind) out.push_back({std::string(o->ns()), std::string(ref.name)});
    return out;
  };
  mgr.controller("certificates")
      .for_(kCertificateType)
      .owns(kCertificateRequestType)
      .watches(kSecretType, secret_to_certificates, {}, secrets_narrow)
      .with_max_concurrent(workers)
      .records_faults("Ready", env->recorder.get())
      .complete([env](const controller::Request& r, controller::Context& c) { return reconcile_certificate(*env, r, c); });

  if (options.enable_policy_approver) {
    approval::wire_policy_approver(mgr, env, workers);
  } else if (options.enable_approver) {
    mgr.controller("certificaterequests-approver")
        .for_(kCertificateRequestType)
        .with_max_concurrent(workers)
        .complete([env](const controller::Request& r, controller::Context& c) { return reconcile_approval(*env, r, c); });
  }

  mgr.controller("certificaterequests-issuer")
      .for_(kCertificateRequestType)
      .watches(kIssuerType,
               [e](const cache::ObjectPtr& o) {
                 return controller::requests_by_index(e->requests, kIssuerIndex, "Issuer/" + std::string(o->ns()) + "/" + std::string(o->name()));
               })
      .watches(kClusterIssuerType,
               [e](const cache::ObjectPtr& o) { return controller::requests_by_index(e->requests, kIssuerIndex, "ClusterIssuer/" + std::string(o->name())); })
      .with_max_concurrent(workers)
      .records_faults("Ready", env->recorder.get())
      .complete([env](const controller::Request& r, controller::Context& c) { return reconcile_signing(*env, r, c); });

  mgr.controller("issuers")
      .for_(kIssuerType)
      .watches(kSecretType,
               [e](const cache::ObjectPtr& o) {
                 return controller::requests_by_index(e->issuers, kCaSecretIndex, std::string(o->ns()) + "/" + std::string(o->name()));
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
                 return controller::requests_by_index(e->cluster_issuers, kCaSecretIndex, std::string(o->name()));
               },
               {}, secrets_narrow)
      .with_max_concurrent(workers)
      .records_faults("Ready", env->recorder.get())
      .complete([env](const controller::Request& r, controller::Context& c) { return reconcile_issuer(*env, true, r, c); });

  const DefaultIssuer default_issuer{options.default_issuer_name, options.default_issuer_kind, options.default_issuer_group};
  struct Shim {
    bool enabled;
    const char* name;
    const meta::ResourceType& type;
    cache::Informer*& informer;
    const ShimSource& source;
  };
  for (const Shim& shim : {Shim{options.enable_ingress_shim, "ingress-shim", meta::core::kIngressType, env->ingresses, ingress_source()},
                           Shim{options.enable_gateway_shim, "gateway-shim", kGatewayType, env->gateways, gateway_source()}}) {
    if (!shim.enabled) continue;
    shim.informer = &mgr.informer(shim.type);
    mgr.controller(shim.name)
        .for_(shim.type, {controller::any_of({controller::generation_changed(), controller::annotations_changed()})})
        .owns(kCertificateType)
        .with_max_concurrent(workers)
        .complete([env, default_issuer, source = &shim.source](const controller::Request& r, controller::Context& c) {
          return reconcile_shim(*env, *source, default_issuer, r, c);
        });
  }

  if (options.enable_bundles) {
    bundles::BundleOptions bo{options.trust_namespace.empty() ? options.cluster_resource_namespace : options.trust_namespace,
                              options.default_ca_package};
    bundles::wire_bundles(mgr, std::move(bo), env->recorder.get());
  }

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

plugin::Plugin plugin() {
  struct Flags {
    std::string cluster_resource_namespace;  // "" = the manager's namespace
    long long acme_port = 8089;
    std::string acme_service = "capstan-acme-solver";
    std::string default_issuer_name, default_issuer_kind = "Issuer", default_issuer_group = "certs.capstan.dev";
    bool ingress_shim = true;
    bool gateway_shim = false;
    bool http01_self_check = true;
    std::vector<std::string> dns01_recursive_nameservers;  // none: /etc/resolv.conf
    // --certificate-request-approver: true (the internal approver), false (none), policy
    // (CertificateRequestPolicies).
    bool approver = true;
    bool policy_approver = false;
    bool bundles = true;
    std::string trust_namespace;  // "" = the cluster resource namespace
    std::string default_ca_package = "/etc/ssl/certs/ca-certificates.crt";
    bool alert_rules = true;
    meta::Labels alert_rule_labels;
  };
  auto settings = std::make_shared<Flags>();
  return plugin::Plugin("certificates")
      .alias("cert-manager")
      .describe("X.509 certificates (cert-manager's Certificate, CertificateRequest, Issuer and ClusterIssuer under certs.capstan.dev): "
                "SelfSigned, CA and ACME (HTTP-01, DNS-01 over RFC 2136 or cert-manager's webhook solvers) issuers, renewal, webhooks (webhooks/certificates) and metrics; trust-manager's "
                "Bundle under trust.capstan.dev")
      .flags([settings](flags::FlagSet& fs) {
        fs.add_string("cluster-resource-namespace", &settings->cluster_resource_namespace,
                      "where ClusterIssuers keep their Secrets (default: the manager's namespace)");
        fs.add_int("acme-http01-solver-port", &settings->acme_port, "port of the ACME HTTP-01 challenge solver (0: no solver)", 0,
                   65535);
        fs.add_string("acme-http01-solver-service", &settings->acme_service,
                      "the Service (in the cluster resource namespace) in front of the solver port, which challenge Ingresses reach");
        fs.add_bool("gateway-shim", &settings->gateway_shim,
                    "make Certificates for Gateways (gateway.networking.k8s.io/v1) annotated like Ingresses, one per Secret of "
                    "their TLS listeners (cert-manager's gateway-shim; the Gateway API CRDs must be installed)");
        fs.add_bool("acme-http01-self-check", &settings->http01_self_check,
                    "accept an HTTP-01 challenge only once http://<domain>/.well-known/acme-challenge/<token> answers it from "
                    "here (cert-manager's self check); =false accepts at once (a manager that cannot reach its own domains)");
        fs.add_custom(
            "dns01-recursive-nameservers",
            [settings](const std::string& v) {
              settings->dns01_recursive_nameservers = flags::split_csv(v);
              if (settings->dns01_recursive_nameservers.size() > 8)
                throw flags::UsageError("--dns01-recursive-nameservers: at most 8 nameservers");
            },
            "host[:port],... of the recursive nameservers webhook DNS-01 solvers' records are looked up on (their zone, and "
            "whether they are answered before a challenge is accepted); default: those of /etc/resolv.conf",
            "");
        fs.add_bool("ingress-shim", &settings->ingress_shim,
                    "make Certificates for Ingresses annotated certs.capstan.dev/issuer, certs.capstan.dev/cluster-issuer or "
                    "kubernetes.io/tls-acme (cert-manager's ingress-shim); --ingress-shim=false turns it off");
        fs.add_custom(
            "certificate-request-approver",
            [settings](const std::string& v) {
              settings->policy_approver = v == "policy";
              try {
                settings->approver = !settings->policy_approver && flags::parse_bool("certificate-request-approver", v);
              } catch (const flags::UsageError&) {
                throw flags::UsageError("invalid value \"" + v + "\" for --certificate-request-approver: want true, false or policy");
              }
            },
            "true: approve every CertificateRequest for this API group's issuers (cert-manager's internal approver); "
            "policy: approve or deny by CertificateRequestPolicies bound to the requester with RBAC verb use "
            "(cert-manager's approver-policy; requests no policy applies to wait); false: leave them to `capstan certs "
            "approve|deny` or an approver of your own",
            "true", /*boolean=*/true);
        fs.add_bool("bundles", &settings->bundles,
                    "distribute trust bundles (trust-manager's Bundle, trust.capstan.dev/v1alpha1) to the namespaces they select; "
                    "--bundles=false turns it off");
        fs.add_string("trust-namespace", &settings->trust_namespace,
                      "where Bundles read their ConfigMap and Secret sources (default: the cluster resource namespace)");
        fs.add_string("default-ca-package", &settings->default_ca_package,
                      "PEM file of the public CAs a Bundle's useDefaultCAs source adds (Debian's ca-certificates by default)");
        fs.add_string("default-issuer-name", &settings->default_issuer_name,
                      "issuer of Ingresses annotated only kubernetes.io/tls-acme: \"true\" (empty: such Ingresses get a BadConfig event)");
        fs.add_string("default-issuer-kind", &settings->default_issuer_kind, "kind of the default issuer (Issuer or ClusterIssuer)");
        fs.add_string("default-issuer-group", &settings->default_issuer_group, "API group of the default issuer");
        fs.add_bool("certificates-alert-rules", &settings->alert_rules,
                    "with the monitoring controller on too, keep the PrometheusRule capstan-certificates in the manager's namespace "
                    "(alerts on certificates expiring within 21 days or not ready); --certificates-alert-rules=false leaves it out");
        fs.add_custom(
            "certificates-alert-rules-labels", [settings](const std::string& v) { settings->alert_rule_labels = meta::parse_labels(v); },
            "labels of that PrometheusRule (k=v,...), for your Prometheus's ruleSelector", "");
      })
      .dev_defaults([](flags::FlagSet& fs, const plugin::DevEnvironment& dev) {
        // The ACME solver on a loopback port kept across restarts.
        if (fs.changed("acme-http01-solver-port")) return std::vector<std::string>{};
        std::string port = std::to_string(dev.loopback_port("acme-http01"));
        fs.set("acme-http01-solver-port", port);
        return std::vector<std::string>{"ACME HTTP-01 solver: http://127.0.0.1:" + port};
      })
      .crds([] {
        auto all = v1::crds();
        for (auto& crd : apis::trust::v1alpha1::crds()) all.push_back(std::move(crd));
        return all;
      })
      // Only the verbs the controllers use (cert-manager's controller ClusterRole holds every
      // verb on its kinds and `update` on Secrets; nothing here updates by PUT but status).
      .permits({"certs.capstan.dev"}, {"certificaterequests"}, {"create", "patch", "delete"})
      // The ingress-shim's Certificates (server-side apply; deleted when an Ingress no longer asks).
      .permits({"certs.capstan.dev"}, {"certificates"}, {"create", "patch", "delete"})
      .permits({"certs.capstan.dev"}, {"certificates/status", "certificaterequests/status", "issuers/status", "clusterissuers/status"},
               {"get", "update", "patch"})
      // The internal approver (cert-manager's approval plugin checks this verb on signers), and
      // that check in the webhook, by SubjectAccessReview.
      .permits({"certs.capstan.dev"}, {"signers"}, {"approve"})
      .permits({"authorization.k8s.io"}, {"subjectaccessreviews"}, {"create"})
      // The policy approver (--certificate-request-approver=policy): its informers exist only
      // when it is on, so reading is granted here for the chart to hold it whatever the flag.
      .permits({"certs.capstan.dev"}, {"certificaterequestpolicies"}, {"get", "list", "watch"})
      .permits({"certs.capstan.dev"}, {"certificaterequestpolicies/status"}, {"get", "update", "patch"})
      .permits({""}, {"namespaces"}, {"get", "list", "watch"})
      // Target and temporary key Secrets (ours are listed and watched by label; RBAC cannot
      // narrow by label), CA and ACME key Secrets read by name. Written by server-side apply.
      .permits({""}, {"secrets"}, {"create", "patch", "delete"})
      .permits({""}, {"events"}, {"create", "patch"})
      // HTTP-01 solver Services and Ingresses.
      .permits({""}, {"services"}, {"get", "list", "create", "delete"})
      .permits({"networking.k8s.io"}, {"ingresses"}, {"get", "list", "create", "update", "delete"})
      // The gateway-shim reads Gateways (--gateway-shim).
      .permits({"gateway.networking.k8s.io"}, {"gateways"}, {"get", "list", "watch"})
      // Bundles: their status, and the ConfigMap targets (server-side apply; Secret targets are
      // written under the Secret rule above).
      .permits({"trust.capstan.dev"}, {"bundles/status"}, {"get", "update", "patch"})
      .permits({""}, {"configmaps"}, {"create", "patch", "delete"})
      // The alert rules it gives the monitoring controller (server-side apply).
      .permits({"monitoring.capstan.dev"}, {"prometheusrules"}, {"get", "create", "patch"})
      .webhooks({webhooks::certificates::configurations,
                 [](plugin::Wiring& w) {
                   webhooks::certificates::register_webhooks(w.webhooks,
                                                             webhooks::certificates::subject_access_review(w.manager.client()));
                 }})
      .setup([settings](plugin::Wiring& w) {
        CertificatesOptions o;
        o.cluster_resource_namespace = settings->cluster_resource_namespace.empty() ? w.env.pod_namespace : settings->cluster_resource_namespace;
        o.acme_solver_service = settings->acme_service;
        o.acme_solver_port = static_cast<std::uint16_t>(settings->acme_port);
        o.acme_solver = settings->acme_port > 0;
        o.acme_http01_self_check = settings->http01_self_check;
        o.dns01_recursive_nameservers = settings->dns01_recursive_nameservers;
        o.enable_ingress_shim = settings->ingress_shim;
        o.enable_gateway_shim = settings->gateway_shim;
        o.default_issuer_name = settings->default_issuer_name;
        o.default_issuer_kind = settings->default_issuer_kind;
        o.default_issuer_group = settings->default_issuer_group;
        o.enable_approver = settings->approver;
        o.enable_policy_approver = settings->policy_approver;
        o.enable_bundles = settings->bundles;
        o.trust_namespace = settings->trust_namespace;
        o.default_ca_package = settings->default_ca_package;
        wire_certificates(w.manager, o);
        if (settings->alert_rules && w.env.runs("monitoring"))
          plugin::add_kept_objects(w.manager, "certificates-alert-rules",
                                   {certificate_alert_rule(w.env.pod_namespace, settings->alert_rule_labels)},
                                   "capstan-certificates");
      });
}

}  // namespace capstan::certificates
