// The Certificate schema (cert-manager's deploy/crds/cert-manager.io_certificates.yaml, for the
// fields this API has).
#include "apis/certs/v1/openapi.h"
#include "apis/certs/v1/schema_common.h"

namespace capstan::apis::certs::v1 {

using openapi::Schema;

namespace {

Schema subject() {
  return std::move(
      Schema::object("Subject attributes of the certificate other than the common name (RFC 5280 4.1.2.6).")
          .property("organizations", Schema::strings("Organizations (O).").max_items(64))
          .property("countries", Schema::strings("Countries (C), as two-letter codes.").max_items(64))
          .property("organizationalUnits", Schema::strings("Organizational units (OU).").max_items(64))
          .property("localities", Schema::strings("Cities (L).").max_items(64))
          .property("provinces", Schema::strings("States or provinces (ST).").max_items(64))
          .property("streetAddresses", Schema::strings("Street addresses.").max_items(64))
          .property("postalCodes", Schema::strings("Postal codes.").max_items(64))
          .property("serialNumber", Schema::string("Subject serial number.").max_length(64)));
}

Schema private_key() {
  return std::move(
      Schema::object("Options of the private key: algorithm, size, encoding and rotation policy.")
          .property("algorithm", Schema::string_enum({"RSA", "ECDSA", "Ed25519"},
                                                     "Key algorithm: RSA (the default), ECDSA or Ed25519."))
          .property("size", Schema::integer("Key size in bits. RSA: 2048 (default) to 8192. ECDSA: 256 (default), 384 or "
                                            "521. Ignored for Ed25519."))
          .property("encoding", Schema::string_enum({"PKCS1", "PKCS8"},
                                                    "PEM encoding of the key in the Secret: PKCS1 (the default) or PKCS8."))
          .property("rotationPolicy",
                    Schema::string_enum({"Never", "Always"},
                                        "Always (the default) generates a new key at every issuance; Never reuses the key "
                                        "already in the Secret.")));
}

Schema spec() {
  return std::move(
      Schema::object("Desired state of the Certificate.")
          .property("secretName", Schema::string("Name of the Secret, in the Certificate's namespace, that receives the "
                                                 "private key (tls.key), certificate chain (tls.crt) and CA (ca.crt).")
                                      .max_length(253))
          .property("secretTemplate",
                    Schema::object("Labels and annotations copied onto the Secret.")
                        .property("annotations", Schema::string_map("Annotations to set on the Secret.").max_properties(64))
                        .property("labels", Schema::string_map("Labels to set on the Secret.").max_properties(64)))
          .property("issuerRef", openapi::issuer_ref())
          .property("commonName", Schema::string("Subject common name (at most 64 characters). TLS clients ignore it when "
                                                 "any subject alternative name is set."))
          .property("subject", subject())
          .property("dnsNames", Schema::array(Schema::string().max_length(253), "DNS subject alternative names.").max_items(256))
          .property("ipAddresses", Schema::array(Schema::string().max_length(45), "IP address subject alternative names.").max_items(256))
          .property("uris", Schema::array(Schema::string().max_length(2048), "URI subject alternative names.").max_items(256))
          .property("emailAddresses", Schema::array(Schema::string().max_length(254), "Email subject alternative names.").max_items(256))
          .property("duration", Schema::string("Requested lifetime as a Go duration (e.g. 2160h); the issuer may ignore "
                                               "it. Default 2160h (90 days), minimum 1h.")
                                    .max_length(64))
          .property("renewBefore", Schema::string("Renew this long before expiry (Go duration, minimum 5m, less than the "
                                                  "lifetime). Default: a third of the issued lifetime. Cannot be set "
                                                  "with renewBeforePercentage.")
                                       .max_length(64))
          .property("renewBeforePercentage",
                    Schema::integer("Like renewBefore, as a percentage of the issued lifetime, in (0, 100). Cannot be set "
                                    "with renewBefore.",
                                    "int32"))
          .property("isCA", Schema::boolean("Request a CA certificate (basicConstraints CA:TRUE); adds the cert sign "
                                            "usage."))
          .property("usages", openapi::usages("Requested key usages and extended key usages. Default: digital "
                                              "signature and key encipherment."))
          .property("privateKey", private_key())
          .property("encodeUsagesInRequest", Schema::boolean("Whether the usages are encoded in the CSR. Default true; "
                                                             "disable only for issuers that reject those extensions."))
          .property("revisionHistoryLimit",
                    Schema::integer("How many CertificateRequests of this Certificate to keep (at least 1). Default 1.",
                                    "int32"))
          .required({"issuerRef", "secretName"}));
}

Schema status() {
  return std::move(
      Schema::object("Observed state of the Certificate, set by the controller.")
          .property("conditions", openapi::conditions("Conditions of the Certificate: Ready and Issuing.", "Ready, Issuing",
                                                      true))
          .property("lastFailureTime", Schema::date_time("When the latest issuance failed; unset after a success."))
          .property("notBefore", Schema::date_time("Start of validity of the certificate in the Secret."))
          .property("notAfter", Schema::date_time("Expiry of the certificate in the Secret."))
          .property("renewalTime", Schema::date_time("When the certificate will next be renewed."))
          .property("revision", Schema::integer("Revision of the issued certificate; each CertificateRequest carries the "
                                                "next one in its certs.capstan.dev/certificate-revision annotation."))
          .property("nextPrivateKeySecretName",
                    Schema::string("Secret holding the private key for the issuance in progress."))
          .property("failedIssuanceAttempts",
                    Schema::integer("Consecutive failed issuances; the next attempt waits 1h * 2^(attempts - 1), at most "
                                    "32h.")));
}

}  // namespace

json::Value certificate_schema() {
  return openapi::root("A Certificate asks for an X.509 certificate, kept up to date and renewed before it expires, in the "
                       "Secret named by spec.secretName.",
                       spec(), status())
      .json();
}

}  // namespace capstan::apis::certs::v1
