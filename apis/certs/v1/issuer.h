// Issuer and ClusterIssuer (certs.capstan.dev/v1): cert-manager.io/v1's issuers
// (pkg/apis/certmanager/v1/types_issuer.go, pkg/apis/acme/v1/types_issuer.go), restricted to the
// selfSigned, ca and acme (HTTP-01 Ingress solver) types. Both kinds share IssuerSpec and
// IssuerStatus; Issuer::kind tells them apart.
#pragma once

#include "apis/certs/v1/common.h"
#include "runtime/json/json.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::apis::certs::v1 {

// Issuer Ready reasons (pkg/issuer/*).
namespace issuer_reason {
inline constexpr std::string_view kIsReady = "IsReady";                      // selfSigned
inline constexpr std::string_view kKeyPairVerified = "KeyPairVerified";      // ca: "Signing CA verified"
inline constexpr std::string_view kErrGetKeyPair = "ErrGetKeyPair";
inline constexpr std::string_view kErrInvalidKeyPair = "ErrInvalidKeyPair";
inline constexpr std::string_view kAccountRegistered = "ACMEAccountRegistered";
inline constexpr std::string_view kAccountVerified = "ACMEAccountVerified";
inline constexpr std::string_view kErrRegisterAccount = "ErrRegisterACMEAccount";
inline constexpr std::string_view kErrVerifyAccount = "ErrVerifyACMEAccount";
inline constexpr std::string_view kErrUpdateAccount = "ErrUpdateACMEAccount";
inline constexpr std::string_view kInvalidConfig = "InvalidConfig";
inline constexpr std::string_view kInvalidURL = "InvalidURL";
inline constexpr std::string_view kInvalidSolver = "InvalidSolver";
}  // namespace issuer_reason

struct SelfSignedIssuer {
  std::vector<std::string> crl_distribution_points;

  static SelfSignedIssuer from_json(const json::Value& v, std::string_view path = "spec.selfSigned");
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const SelfSignedIssuer&) const = default;
};

struct CAIssuer {
  std::string secret_name;  // Secret with tls.crt and tls.key
  std::vector<std::string> crl_distribution_points;
  std::vector<std::string> ocsp_servers;
  std::vector<std::string> issuing_certificate_urls;

  static CAIssuer from_json(const json::Value& v, std::string_view path = "spec.ca");
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const CAIssuer&) const = default;
};

// CertificateDNSNameSelector: which Certificates a solver applies to.
struct CertificateDnsNameSelector {
  std::map<std::string, std::string> match_labels;
  std::vector<std::string> dns_names;
  std::vector<std::string> dns_zones;

  static CertificateDnsNameSelector from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const CertificateDnsNameSelector&) const = default;
};

// ACMEChallengeSolverHTTP01Ingress. class/ingressClassName are pointers in cert-manager: set-but-
// empty differs from unset, and at most one of class, ingressClassName and name may be set.
struct Http01IngressSolver {
  std::optional<std::string> class_;
  std::optional<std::string> ingress_class_name;
  std::string name;          // an existing Ingress to edit instead of creating one
  std::string service_type;  // "" (ClusterIP) | "ClusterIP" | "NodePort"
  std::optional<json::Value> pod_template;      // {metadata{labels,annotations}, spec{...}}, kept as is
  std::optional<json::Value> ingress_template;  // {metadata{labels,annotations}}, kept as is

  static Http01IngressSolver from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const Http01IngressSolver&) const = default;
};

struct Http01Solver {
  std::optional<Http01IngressSolver> ingress;
  // cert-manager's Gateway API solver: kept by the schema so that its manifests load, refused by
  // the webhook by name (the manager's solver is reached through an ExternalName Service, which
  // Gateway implementations do not route to).
  std::optional<json::Value> gateway_http_route;

  static Http01Solver from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const Http01Solver&) const = default;
};

// ACMEIssuerDNS01ProviderRFC2136: a DNS server taking RFC 2136 updates signed with TSIG.
struct Rfc2136Provider {
  std::string nameserver;      // "host[:port]" (port 53 by default), IPv6 in brackets
  std::string tsig_key_name;   // none: unsigned updates
  std::string tsig_algorithm;  // HMACMD5 (the default), HMACSHA1, HMACSHA256, HMACSHA512
  std::optional<SecretKeySelector> tsig_secret_secret_ref;  // the base64 secret, as in BIND's key file

  static Rfc2136Provider from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const Rfc2136Provider&) const = default;
};

// ACMEIssuerDNS01ProviderWebhook: a third-party DNS provider behind an aggregated API server
// (cert-manager's webhook solver API). Challenges are presented and cleaned up by POSTing a
// ChallengePayload (webhook.acme.cert-manager.io/v1alpha1) to
// /apis/<groupName>/v1alpha1/<solverName> through the Kubernetes API server.
struct WebhookProvider {
  std::string group_name;   // the API group of the webhook's APIService
  std::string solver_name;  // the resource named in the URL
  std::optional<json::Value> config;  // handed to the solver as is (ChallengeRequest.config)

  static WebhookProvider from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const WebhookProvider&) const = default;
};

// ACMEChallengeSolverDNS01. cert-manager's other providers stay in the schema so that its
// manifests load, and the webhook refuses them by name.
struct Dns01Solver {
  std::string cname_strategy;  // "" or "None": present at _acme-challenge.<domain>; "Follow": at its CNAME target
  std::optional<Rfc2136Provider> rfc2136;
  std::optional<WebhookProvider> webhook;
  std::optional<json::Value> acme_dns, akamai, azure_dns, cloud_dns, cloudflare, digitalocean, route53;

  static Dns01Solver from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const Dns01Solver&) const = default;
};

struct AcmeChallengeSolver {
  std::optional<CertificateDnsNameSelector> selector;
  std::optional<Http01Solver> http01;
  std::optional<Dns01Solver> dns01;

  static AcmeChallengeSolver from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const AcmeChallengeSolver&) const = default;
};

struct AcmeIssuer {
  std::string server;
  std::string email;
  SecretKeySelector private_key_secret_ref;  // key defaults to tls.key
  bool skip_tls_verify = false;
  std::string ca_bundle;  // PEM (JSON: base64)
  std::string preferred_chain;
  bool disable_account_key_generation = false;
  std::vector<AcmeChallengeSolver> solvers;

  static AcmeIssuer from_json(const json::Value& v, std::string_view path = "spec.acme");
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const AcmeIssuer&) const = default;
};

// Exactly one member is set in a valid spec.
struct IssuerSpec {
  std::optional<AcmeIssuer> acme;
  std::optional<CAIssuer> ca;
  std::optional<SelfSignedIssuer> self_signed;

  static IssuerSpec from_json(const json::Value& v, std::string_view path = "spec");
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const IssuerSpec&) const = default;
};

struct AcmeIssuerStatus {
  std::string uri;                    // the registered account's URL
  std::string last_registered_email;
  std::string last_private_key_hash;

  static AcmeIssuerStatus from_json(const json::Value& v, std::string_view path = "status.acme");
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const AcmeIssuerStatus&) const = default;
};

struct IssuerStatus {
  std::vector<Condition> conditions;  // Ready
  std::optional<AcmeIssuerStatus> acme;

  static IssuerStatus from_json(const json::Value& v, std::string_view path = "status");
  json::Value to_json() const;
  static openapi::Schema schema();
  const Condition* condition(std::string_view type) const { return find_condition(conditions, type); }
};

// An Issuer or a ClusterIssuer.
// Issuer and ClusterIssuer: kind says which (Issuer when absent).
struct Issuer : codec::Resource<IssuerSpec, IssuerStatus> {
  // Throws apis::codec::DecodeError.
  static Issuer from_json(const json::Value& obj) { return {Resource::from_json(obj)}; }
  json::Value to_json() const;
  // The CRD's openAPIV3Schema; Issuer and ClusterIssuer differ only in the descriptions.
  static openapi::Schema schema(bool cluster_scoped);
  bool cluster_scoped() const { return kind == "ClusterIssuer"; }
};

using ClusterIssuer = Issuer;

}  // namespace capstan::apis::certs::v1
