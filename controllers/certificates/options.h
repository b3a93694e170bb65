// Options of the certificates controllers. The plug-in (plugin.h) sets some from its flags;
// tests build them directly (a fast clock, a solver on a free port, ...).
#pragma once

#include "runtime/meta/time.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace capstan::metrics {
class Registry;
}

namespace capstan::certificates {

using namespace std::chrono_literals;

// "Now" for every decision the controllers take (renewal due, backoff over, validity of
// signed certificates). Tests install an offset clock to jump hours ahead.
using ClockFn = std::function<meta::TimePoint()>;

struct CertificatesOptions {
  ClockFn clock;                                 // empty = the system clock
  int max_concurrent_reconciles = 5;             // per controller (cert-manager's --concurrent-workers)
  // Timers (renewal time, failure backoff) longer than this are re-checked after it; tests with
  // a jumping clock set it low so the new time is noticed.
  std::chrono::milliseconds max_requeue_delay = 10h;
  // How soon an Issuer whose Secret or ACME server is not usable is looked at again (Secrets
  // the user made are not watched: they lack our label), and how often a Ready one is.
  std::chrono::milliseconds issuer_retry_interval = 10s;
  std::chrono::milliseconds issuer_recheck_interval = 5min;
  // Secrets read live (not ours, so not cached) are kept this long.
  std::chrono::milliseconds live_secret_ttl = 10s;
  bool enable_approver = true;  // the internal approver (disable to approve/deny by hand)
  // approver-policy's CertificateRequestPolicies decide instead (approval/policy_approver.h);
  // when set, the internal approver is not run whatever enable_approver says, so that the two
  // never race for the same request.
  bool enable_policy_approver = false;
  bool enable_ingress_shim = true;  // Certificates from annotated Ingresses (ingress_shim.h)
  bool enable_gateway_shim = false;  // and from annotated Gateways (needs the Gateway API CRDs)
  // The issuer of Ingresses annotated only kubernetes.io/tls-acme: "true" (cert-manager's
  // --default-issuer-name/-kind/-group); no name: those Ingresses get a BadConfig event.
  std::string default_issuer_name;
  std::string default_issuer_kind = "Issuer";
  std::string default_issuer_group = "certs.capstan.dev";
  bool record_events = true;
  // Where ClusterIssuers keep their Secrets (cert-manager's --cluster-resource-namespace).
  std::string cluster_resource_namespace = "capstan-system";

  // ACME HTTP-01: the solver endpoint this process serves, and the Service in
  // cluster_resource_namespace that fronts it (per-challenge ExternalName Services point there).
  bool acme_solver = true;
  std::string acme_solver_address;  // "" = every interface, IPv6 and IPv4 (pebble and ACME CAs may dial either)
  std::uint16_t acme_solver_port = 8089;  // 0 = a free port (tests)
  // cert-manager's self check: an HTTP-01 challenge is accepted only once
  // http://<domain>/.well-known/acme-challenge/<token> answers its key authorization from here.
  bool acme_http01_self_check = true;
  // host:port the self check connects to instead of <domain>:80, with Host: <domain> (tests).
  std::string acme_http01_self_check_address;
  std::string acme_solver_service = "capstan-acme-solver";
  int acme_solver_service_port = 80;
  // ACME orders are driven by short polls inside a reconcile, then requeues.
  std::chrono::milliseconds acme_poll_timeout = 3s;
  std::chrono::milliseconds acme_requeue = 1s;
  std::chrono::milliseconds acme_request_timeout = 30s;
  // Each exchange with a DNS-01 solver's nameserver (RFC 2136 update or query).
  std::chrono::milliseconds dns01_timeout = 10s;
  // Where webhook DNS-01 solvers' records are looked up before a challenge is accepted (their
  // zone, CNAMEs with cnameStrategy Follow, and the propagation check), "host[:port]" each;
  // none: the nameservers of /etc/resolv.conf (cert-manager's --dns01-recursive-nameservers).
  std::vector<std::string> dns01_recursive_nameservers;

  // trust-manager's Bundles (bundles/bundle_controller.h): sources read in trust_namespace ("" =
  // cluster_resource_namespace), useDefaultCAs from default_ca_package ("" = none).
  bool enable_bundles = true;
  std::string trust_namespace;
  std::string default_ca_package = "/etc/ssl/certs/ca-certificates.crt";

  metrics::Registry* registry = nullptr;  // nullptr = the global registry
};

}  // namespace capstan::certificates
