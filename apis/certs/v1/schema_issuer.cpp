// The Issuer and ClusterIssuer schema (cert-manager's deploy/crds/cert-manager.io_issuers.yaml,
// restricted to selfSigned, ca and acme with HTTP-01 Ingress solvers).
#include "apis/certs/v1/openapi.h"
#include "apis/certs/v1/schema_common.h"

namespace capstan::apis::certs::v1 {

using openapi::Schema;

namespace {

Schema self_signed() {
  return std::move(Schema::object("Sign each certificate with its own private key.")
                       .property("crlDistributionPoints", Schema::strings("CRL distribution point URLs to put in the "
                                                                          "certificates.").max_items(64)));
}

Schema ca() {
  return std::move(
      Schema::object("Sign with a CA key pair stored in a Secret.")
          .property("secretName", Schema::string("Secret (kubernetes.io/tls, with tls.crt and tls.key) holding the CA. "
                                                 "For a ClusterIssuer it is read from the cluster resource namespace."))
          .property("crlDistributionPoints", Schema::strings("CRL distribution point URLs to put in the certificates.").max_items(64))
          .property("ocspServers", Schema::strings("OCSP server URLs to put in the certificates.").max_items(64))
          .property("issuingCertificateURLs",
                    Schema::strings("URLs of the issuing certificate, put in the Authority Information Access extension.").max_items(64))
          .required({"secretName"}));
}

Schema http01_ingress() {
  auto metadata = Schema::object("Labels and annotations for the object.")
                      .property("labels", Schema::string_map("Labels to add."))
                      .property("annotations", Schema::string_map("Annotations to add."));
  return std::move(
      Schema::object("Solve HTTP-01 challenges with an Ingress routing to a solver Pod.")
          .property("class", Schema::string("Ingress class annotation (kubernetes.io/ingress.class) of the solver "
                                            "Ingresses. At most one of class, ingressClassName and name."))
          .property("ingressClassName", Schema::string("spec.ingressClassName of the solver Ingresses."))
          .property("name", Schema::string("Name of an existing Ingress to add the solver path to, instead of creating one."))
          .property("serviceType", Schema::string("Type of the solver Service: ClusterIP (the default) or NodePort."))
          .property("podTemplate", Schema::object("Overrides for the solver Pods.")
                                       .property("metadata", metadata)
                                       .property("spec", Schema::open_object("Pod spec fields merged into the solver "
                                                                             "Pods (nodeSelector, tolerations, ...).")))
          .property("ingressTemplate", Schema::object("Overrides for the solver Ingresses.").property("metadata", metadata)));
}

Schema solver() {
  return std::move(
      Schema::object("How to solve challenges for the matching DNS names. Exactly one solver type.")
          .property("selector",
                    Schema::object("Which certificates this solver applies to; empty means all.")
                        .property("matchLabels", Schema::string_map("Labels the Certificate must have."))
                        .property("dnsNames", Schema::strings("DNS names this solver is for (exact match).").max_items(64))
                        .property("dnsZones", Schema::strings("DNS zones this solver is for (the name or a subdomain).").max_items(64)))
          .property("http01", Schema::object("Solve HTTP-01 challenges.").property("ingress", http01_ingress()))
          .property("dns01", Schema::open_object("DNS-01 solvers (cert-manager's schema) are kept but not supported.")));
}

Schema acme() {
  return std::move(
      Schema::object("Obtain certificates from an ACME (RFC 8555) server.")
          .property("server", Schema::string("URL of the ACME server's directory, e.g. "
                                             "https://acme-staging-v02.api.letsencrypt.org/directory."))
          .property("email", Schema::string("Contact email registered with the ACME account."))
          .property("privateKeySecretRef",
                    openapi::secret_key_selector("Secret storing the ACME account key (key tls.key by default); "
                                                 "generated unless disableAccountKeyGeneration."))
          .property("skipTLSVerify", Schema::boolean("INSECURE: do not verify the ACME server's TLS certificate. "
                                                     "Mutually exclusive with caBundle."))
          .property("caBundle", Schema::bytes("PEM CA certificates to verify the ACME server with (base64 in JSON); "
                                              "default: the system trust store."))
          .property("preferredChain", Schema::string("Issuer common name of the root of the preferred alternative chain.")
                                          .max_length(64))
          .property("disableAccountKeyGeneration",
                    Schema::boolean("Use the key already in privateKeySecretRef instead of generating one."))
          .property("solvers", Schema::array(solver(), "Challenge solvers, chosen per DNS name by their selectors.").max_items(64))
          .required({"privateKeySecretRef", "server"}));
}

Schema spec(bool cluster) {
  return std::move(Schema::object(cluster ? "Desired state of the ClusterIssuer: exactly one issuer type."
                                          : "Desired state of the Issuer: exactly one issuer type.")
                       .property("selfSigned", self_signed())
                       .property("ca", ca())
                       .property("acme", acme()));
}

Schema status() {
  return std::move(
      Schema::object("Observed state of the issuer, set by the controller.")
          .property("conditions", openapi::conditions("Conditions of the issuer: Ready.", "Ready", true))
          .property("acme", Schema::object("State of the ACME account.")
                                .property("uri", Schema::string("URL of the registered ACME account."))
                                .property("lastRegisteredEmail", Schema::string("Email last registered with the account."))
                                .property("lastPrivateKeyHash", Schema::string("Hash of the account key last used."))));
}

}  // namespace

json::Value issuer_schema(bool cluster) {
  const char* description =
      cluster ? "A ClusterIssuer is a certificate authority that Certificates of any namespace can reference with "
                "issuerRef.kind ClusterIssuer."
              : "An Issuer is a certificate authority that Certificates and CertificateRequests of its namespace can "
                "reference in issuerRef.";
  return openapi::root(description, spec(cluster), status()).json();
}

}  // namespace capstan::apis::certs::v1
