#include "apis/certs/v1/issuer.h"

#include "apis/certs/v1/group.h"
#include "apis/common/codec.h"

namespace capstan::apis::certs::v1 {

using openapi::Schema;

namespace {

const auto& self_signed_fields() {
  using S = SelfSignedIssuer;
  static const auto table = codec::table<S>(
      "Sign each certificate with its own private key.",
      codec::field("crlDistributionPoints", &S::crl_distribution_points,
                   Schema::strings("CRL distribution point URLs to put in the certificates.").max_items(64)));
  return table;
}

const auto& ca_fields() {
  using S = CAIssuer;
  static const auto table = codec::table<S>(
      "Sign with a CA key pair stored in a Secret.",
      codec::field("secretName", &S::secret_name,
                   Schema::string("Secret (kubernetes.io/tls, with tls.crt and tls.key) holding the CA. For a "
                                  "ClusterIssuer it is read from the cluster resource namespace."))
          .required(),
      codec::field("crlDistributionPoints", &S::crl_distribution_points,
                   Schema::strings("CRL distribution point URLs to put in the certificates.").max_items(64)),
      codec::field("ocspServers", &S::ocsp_servers, Schema::strings("OCSP server URLs to put in the certificates.").max_items(64)),
      codec::field("issuingCertificateURLs", &S::issuing_certificate_urls,
                   Schema::strings("URLs of the issuing certificate, put in the Authority Information Access extension.")
                       .max_items(64)));
  return table;
}

const auto& dns_name_selector_fields() {
  using S = CertificateDnsNameSelector;
  static const auto table = codec::table<S>(
      "Which certificates this solver applies to; empty means all.",
      codec::field("matchLabels", &S::match_labels, Schema::string_map("Labels the Certificate must have.")),
      codec::field("dnsNames", &S::dns_names, Schema::strings("DNS names this solver is for (exact match).").max_items(64)),
      codec::field("dnsZones", &S::dns_zones,
                   Schema::strings("DNS zones this solver is for (the name or a subdomain).").max_items(64)));
  return table;
}

// The podTemplate and ingressTemplate overrides, kept as written (their members are not typed).
Schema template_metadata() {
  return std::move(Schema::object("Labels and annotations for the object.")
                       .property("labels", Schema::string_map("Labels to add."))
                       .property("annotations", Schema::string_map("Annotations to add.")));
}

const auto& http01_ingress_fields() {
  using S = Http01IngressSolver;
  static const auto table = codec::table<S>(
      "Solve HTTP-01 challenges with an Ingress routing to a solver Pod.",
      codec::field("class", &S::class_,
                   Schema::string("Ingress class annotation (kubernetes.io/ingress.class) of the solver Ingresses. At "
                                  "most one of class, ingressClassName and name.")),
      codec::field("ingressClassName", &S::ingress_class_name,
                   Schema::string("spec.ingressClassName of the solver Ingresses.")),
      codec::field("name", &S::name,
                   Schema::string("Name of an existing Ingress to add the solver path to, instead of creating one.")),
      codec::field("serviceType", &S::service_type,
                   Schema::string("Type of the solver Service: ClusterIP (the default) or NodePort.")),
      codec::field("podTemplate", &S::pod_template,
                   Schema::object("Overrides for the solver Pods.")
                       .property("metadata", template_metadata())
                       .property("spec", Schema::open_object("Pod spec fields merged into the solver Pods (nodeSelector, "
                                                             "tolerations, ...)."))),
      codec::field("ingressTemplate", &S::ingress_template,
                   Schema::object("Overrides for the solver Ingresses.").property("metadata", template_metadata())));
  return table;
}

const auto& http01_fields() {
  using S = Http01Solver;
  static const auto table =
      codec::table<S>("Solve HTTP-01 challenges.", codec::field("ingress", &S::ingress, Http01IngressSolver::schema()),
                      codec::field("gatewayHTTPRoute", &S::gateway_http_route,
                                   Schema::open_object("cert-manager's Gateway API HTTPRoute solver: kept in the schema, refused by "
                                                       "the webhook (use ingress).")));
  return table;
}

const auto& rfc2136_fields() {
  using S = Rfc2136Provider;
  static const auto table = codec::table<S>(
      "A DNS server taking RFC 2136 dynamic updates (BIND, Knot, PowerDNS, Windows DNS).",
      codec::field("nameserver", &S::nameserver,
                   Schema::string("host[:port] of the primary nameserver of the zone (port 53 by default; IPv6 in "
                                  "brackets). It is also asked whether the record is published before the challenge is "
                                  "accepted.")
                       .max_length(261))
          .required(),
      codec::field("tsigKeyName", &S::tsig_key_name,
                   Schema::string("Name of the TSIG key the server knows; tsigSecretSecretRef holds its secret.")
                       .max_length(253)),
      codec::field("tsigAlgorithm", &S::tsig_algorithm,
                   Schema::string("HMACMD5 (the default), HMACSHA1, HMACSHA256 or HMACSHA512.").max_length(16)),
      codec::field("tsigSecretSecretRef", &S::tsig_secret_secret_ref,
                   std::move(SecretKeySelector::schema().description(
                       "Secret key holding the TSIG secret, base64 as in BIND's key file (the Issuer's namespace; the "
                       "cluster resource namespace for a ClusterIssuer)."))));
  return table;
}

const auto& webhook_provider_fields() {
  using S = WebhookProvider;
  static const auto table = codec::table<S>(
      "A DNS provider plugged in as cert-manager's webhook solvers are: an aggregated API server (registered by an "
      "APIService for <groupName>/v1alpha1) answering ChallengePayloads POSTed to /apis/<groupName>/v1alpha1/<solverName> "
      "through the Kubernetes API server. The manager needs RBAC 'create' on that resource.",
      codec::field("groupName", &S::group_name,
                   Schema::string("API group of the webhook's APIService (e.g. acme.mycompany.com).").max_length(253))
          .required(),
      codec::field("solverName", &S::solver_name,
                   Schema::string("Name of the solver the webhook serves: the resource of the request URL.").max_length(253))
          .required(),
      codec::field("config", &S::config,
                   Schema::open_object("Solver configuration, passed to the webhook as ChallengeRequest.config.")));
  return table;
}

Schema unsupported_provider(std::string_view name) {
  return Schema::open_object(std::string("cert-manager's ") + std::string(name) +
                             " DNS01 provider: kept in the schema, refused by the webhook (use rfc2136 or webhook).");
}

const auto& dns01_fields() {
  using S = Dns01Solver;
  static const auto table = codec::table<S>(
      "Solve DNS-01 challenges (the only kind that proves wildcard names) by publishing a TXT record.",
      codec::field("cnameStrategy", &S::cname_strategy,
                   Schema::string_enum({"None", "Follow"},
                                       "None (the default): the record goes at _acme-challenge.<domain>. Follow: at the "
                                       "target of that name's CNAME chain, for zones delegated to another DNS server.")),
      codec::field("rfc2136", &S::rfc2136, Rfc2136Provider::schema()),
      codec::field("webhook", &S::webhook, WebhookProvider::schema()),
      codec::field("acmeDNS", &S::acme_dns, unsupported_provider("acmeDNS")),
      codec::field("akamai", &S::akamai, unsupported_provider("akamai")),
      codec::field("azureDNS", &S::azure_dns, unsupported_provider("azureDNS")),
      codec::field("cloudDNS", &S::cloud_dns, unsupported_provider("cloudDNS")),
      codec::field("cloudflare", &S::cloudflare, unsupported_provider("cloudflare")),
      codec::field("digitalocean", &S::digitalocean, unsupported_provider("digitalocean")),
      codec::field("route53", &S::route53, unsupported_provider("route53")));
  return table;
}

const auto& solver_fields() {
  using S = AcmeChallengeSolver;
  static const auto table = codec::table<S>(
      "How to solve challenges for the matching DNS names. Exactly one solver type.",
      codec::field("selector", &S::selector, CertificateDnsNameSelector::schema()),
      codec::field("http01", &S::http01, Http01Solver::schema()),
      codec::field("dns01", &S::dns01, Dns01Solver::schema()));
  return table;
}

// privateKeySecretRef comes before server so that `required` keeps its order (privateKeySecretRef,
// server).
const auto& acme_fields() {
  using S = AcmeIssuer;
  static const auto table = codec::table<S>(
      "Obtain certificates from an ACME (RFC 8555) server.",
      codec::field("privateKeySecretRef", &S::private_key_secret_ref,
                   std::move(SecretKeySelector::schema().description(
                       "Secret storing the ACME account key (key tls.key by default); generated unless "
                       "disableAccountKeyGeneration.")))
          .required(),
      codec::field("server", &S::server,
                   Schema::string("URL of the ACME server's directory, e.g. "
                                  "https://acme-staging-v02.api.letsencrypt.org/directory."))
          .required(),
      codec::field("email", &S::email, Schema::string("Contact email registered with the ACME account.")),
      codec::field("skipTLSVerify", &S::skip_tls_verify,
                   Schema::boolean("INSECURE: do not verify the ACME server's TLS certificate. Mutually exclusive with "
                                   "caBundle.")),
      codec::field("caBundle", &S::ca_bundle,
                   Schema::bytes("PEM CA certificates to verify the ACME server with (base64 in JSON); default: the "
                                 "system trust store.")),
      codec::field("preferredChain", &S::preferred_chain,
                   Schema::string("Issuer common name of the root of the preferred alternative chain.").max_length(64)),
      codec::field("disableAccountKeyGeneration", &S::disable_account_key_generation,
                   Schema::boolean("Use the key already in privateKeySecretRef instead of generating one.")),
      codec::field("solvers", &S::solvers,
                   Schema::array(AcmeChallengeSolver::schema(), "Challenge solvers, chosen per DNS name by their selectors.")
                       .max_items(64)));
  return table;
}

// Issuer and ClusterIssuer spec descriptions differ; Issuer::schema sets the ClusterIssuer's.
const auto& spec_fields() {
  using S = IssuerSpec;
  static const auto table = codec::table<S>("Desired state of the Issuer: exactly one issuer type.",
                                            codec::field("selfSigned", &S::self_signed, SelfSignedIssuer::schema()),
                                            codec::field("ca", &S::ca, CAIssuer::schema()),
                                            codec::field("acme", &S::acme, AcmeIssuer::schema()));
  return table;
}

const auto& acme_status_fields() {
  using S = AcmeIssuerStatus;
  static const auto table = codec::table<S>(
      "State of the ACME account.", codec::field("uri", &S::uri, Schema::string("URL of the registered ACME account.")),
      codec::field("lastRegisteredEmail", &S::last_registered_email, Schema::string("Email last registered with the account.")),
      codec::field("lastPrivateKeyHash", &S::last_private_key_hash, Schema::string("Hash of the account key last used.")));
  return table;
}

const auto& status_fields() {
  using S = IssuerStatus;
  static const auto table = codec::table<S>(
      "Observed state of the issuer, set by the controller.",
      codec::field("conditions", &S::conditions, openapi::conditions("Conditions of the issuer: Ready.", "Ready", true)),
      codec::field("acme", &S::acme, AcmeIssuerStatus::schema()));
  return table;
}

}  // namespace

CAPSTAN_CODEC_FROM(SelfSignedIssuer, self_signed_fields)
CAPSTAN_CODEC_FROM(CAIssuer, ca_fields)
CAPSTAN_CODEC_FROM(CertificateDnsNameSelector, dns_name_selector_fields)
CAPSTAN_CODEC_FROM(Http01IngressSolver, http01_ingress_fields)
CAPSTAN_CODEC_FROM(Http01Solver, http01_fields)
CAPSTAN_CODEC_FROM(Rfc2136Provider, rfc2136_fields)
CAPSTAN_CODEC_FROM(WebhookProvider, webhook_provider_fields)
CAPSTAN_CODEC_FROM(Dns01Solver, dns01_fields)
CAPSTAN_CODEC_FROM(AcmeChallengeSolver, solver_fields)
CAPSTAN_CODEC_FROM(AcmeIssuer, acme_fields)
CAPSTAN_CODEC_FROM(IssuerSpec, spec_fields)
CAPSTAN_CODEC_FROM(AcmeIssuerStatus, acme_status_fields)
CAPSTAN_CODEC_FROM(IssuerStatus, status_fields)

json::Value Issuer::to_json() const { return Resource::to_json(kApiVersion, kIssuerKind); }

Schema Issuer::schema(bool cluster_scoped) {
  Schema spec = IssuerSpec::schema();
  if (cluster_scoped) spec.description("Desired state of the ClusterIssuer: exactly one issuer type.");
  return openapi::root(kApiVersion, cluster_scoped ? "A ClusterIssuer is a certificate authority that Certificates of any namespace can "
                                      "reference with issuerRef.kind ClusterIssuer."
                                    : "An Issuer is a certificate authority that Certificates and CertificateRequests of "
                                      "its namespace can reference in issuerRef.",
                     spec, IssuerStatus::schema());
}


}  // namespace capstan::apis::certs::v1
