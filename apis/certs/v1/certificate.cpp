#include "apis/certs/v1/certificate.h"

#include "apis/certs/v1/group.h"
#include "apis/common/codec.h"

namespace capstan::apis::certs::v1 {

using openapi::Schema;

namespace {

const auto& subject_fields() {
  using S = X509Subject;
  static const auto table = codec::table<S>(
      "Subject attributes of the certificate other than the common name (RFC 5280 4.1.2.6).",
      codec::field("organizations", &S::organizations, Schema::strings("Organizations (O).").max_items(64)),
      codec::field("countries", &S::countries, Schema::strings("Countries (C), as two-letter codes.").max_items(64)),
      codec::field("organizationalUnits", &S::organizational_units, Schema::strings("Organizational units (OU).").max_items(64)),
      codec::field("localities", &S::localities, Schema::strings("Cities (L).").max_items(64)),
      codec::field("provinces", &S::provinces, Schema::strings("States or provinces (ST).").max_items(64)),
      codec::field("streetAddresses", &S::street_addresses, Schema::strings("Street addresses.").max_items(64)),
      codec::field("postalCodes", &S::postal_codes, Schema::strings("Postal codes.").max_items(64)),
      codec::field("serialNumber", &S::serial_number, Schema::string("Subject serial number.").max_length(64)));
  return table;
}

const auto& other_name_fields() {
  using S = OtherName;
  static const auto table = codec::table<S>(
      "A subjectAltName otherName whose value is a UTF8String.",
      codec::field("oid", &S::oid,
                   Schema::string("Type of the otherName as a dotted-decimal object identifier, e.g. 1.3.6.1.4.1.311.20.2.3 "
                                  "(Microsoft UPN).")
                       .max_length(256)),
      codec::field("utf8Value", &S::utf8_value, Schema::string("Value of the otherName (a UTF8String).").max_length(1024)));
  return table;
}

const auto& name_constraint_item_fields() {
  using S = NameConstraintItem;
  static const auto table = codec::table<S>(
      "Names a CA may (permitted) or may not (excluded) issue for.",
      codec::field("dnsDomains", &S::dns_domains,
                   Schema::array(Schema::string().max_length(253), "DNS domains (\"example.com\" covers its subdomains too).")
                       .max_items(64)),
      codec::field("ipRanges", &S::ip_ranges,
                   Schema::array(Schema::string().max_length(64), "IP ranges in CIDR notation: 10.0.0.0/8, 2001:db8::/32.")
                       .max_items(64)),
      codec::field("emailAddresses", &S::email_addresses,
                   Schema::array(Schema::string().max_length(254), "Email addresses, hosts or domains.").max_items(64)),
      codec::field("uriDomains", &S::uri_domains,
                   Schema::array(Schema::string().max_length(253), "Domains of URI names.").max_items(64)));
  return table;
}

const auto& name_constraints_fields() {
  using S = NameConstraints;
  static const auto table = codec::table<S>(
      "The X.509 nameConstraints extension of the CA certificate: the names the CA may and may not issue for. Requires "
      "isCA: true.",
      codec::field("critical", &S::critical, Schema::boolean("Mark the extension critical.")),
      codec::field("permitted", &S::permitted, NameConstraintItem::schema()),
      codec::field("excluded", &S::excluded, NameConstraintItem::schema()));
  return table;
}

const auto& secret_template_fields() {
  using S = SecretTemplate;
  static const auto table = codec::table<S>(
      "Labels and annotations copied onto the Secret.",
      codec::field("annotations", &S::annotations, Schema::string_map("Annotations to set on the Secret.").max_properties(64)),
      codec::field("labels", &S::labels, Schema::string_map("Labels to set on the Secret.").max_properties(64)));
  return table;
}

const auto& output_format_fields() {
  using S = AdditionalOutputFormat;
  static const auto table = codec::table<S>(
      "An additional encoding of the key and certificate written to the Secret.",
      codec::field("type", &S::type,
                   Schema::string_enum({"DER", "CombinedPEM"}, "DER: key.der (the private key, PKCS#8 DER). CombinedPEM: "
                                                               "tls-combined.pem (the private key, then the certificate chain)."))
          .required());
  return table;
}

// The members both stores have; `files` names what `create` writes.
template <class S>
auto keystore_common_fields(std::string_view files) {
  constexpr std::string_view one_of = " Exactly one of password and passwordSecretRef is set.";
  return std::make_tuple(
      codec::field<S>("create", &S::create, Schema::boolean("Write " + std::string(files) + " to the Secret.")).required(),
      codec::field<S>("passwordSecretRef", &S::password_secret_ref,
                      std::move(SecretKeySelector::schema().description(
                          "Key of a Secret, in the Certificate's namespace, holding the password of the store." + std::string(one_of)))),
      codec::field<S>("password", &S::password,
                      Schema::string("Literal password of the store." + std::string(one_of)).max_length(1024)));
}

const auto& jks_fields() {
  using S = JksKeystore;
  static const auto table = codec::table<S>(
      "A Java KeyStore: keystore.jks (the private key and its chain, and the CA as entry \"ca\") and, when the issuer "
      "gave a CA, truststore.jks.",
      std::tuple_cat(keystore_common_fields<S>("keystore.jks and truststore.jks"),
                     std::make_tuple(codec::field<S>("alias", &S::alias,
                                                     Schema::string("Alias of the private key entry. Default \"certificate\".")
                                                         .max_length(255)))));
  return table;
}

const auto& pkcs12_fields() {
  using S = Pkcs12Keystore;
  static const auto table = codec::table<S>(
      "A PKCS#12 store: keystore.p12 (the private key, its chain and the CA) and, when the issuer gave a CA, "
      "truststore.p12.",
      std::tuple_cat(
          keystore_common_fields<S>("keystore.p12 and truststore.p12"),
          std::make_tuple(codec::field<S>(
              "profile", &S::profile,
              Schema::string_enum({"LegacyRC2", "LegacyDES", "Modern2023"},
                                  "Encryption and MAC algorithms. LegacyRC2 (the default, for compatibility; OpenSSL 3 "
                                  "reads it only with -legacy), LegacyDES (3DES, read by nearly everything), Modern2023 "
                                  "(PBES2 with AES-256-CBC and PBKDF2-HMAC-SHA-256, SHA-256 MAC). cert-manager's "
                                  "Modern2026 (a PBMAC1 MAC) is not offered: this build's OpenSSL 3.0 cannot write "
                                  "it.")))));
  return table;
}

const auto& keystores_fields() {
  using S = CertificateKeystores;
  static const auto table = codec::table<S>(
      "Key stores written to the Secret beside the PEM files.",
      codec::field("jks", &S::jks, JksKeystore::schema()),
      codec::field("pkcs12", &S::pkcs12, Pkcs12Keystore::schema()));
  return table;
}

const auto& private_key_fields() {
  using S = CertificatePrivateKey;
  static const auto table = codec::table<S>(
      "Options of the private key: algorithm, size, encoding and rotation policy.",
      codec::field("algorithm", &S::algorithm,
                   Schema::string_enum({"RSA", "ECDSA", "Ed25519"}, "Key algorithm: RSA (the default), ECDSA or Ed25519.")),
      codec::field("size", &S::size,
                   Schema::integer("Key size in bits. RSA: 2048 (default) to 8192. ECDSA: 256 (default), 384 or 521. "
                                   "Ignored for Ed25519.")),
      codec::field("encoding", &S::encoding,
                   Schema::string_enum({"PKCS1", "PKCS8"}, "PEM encoding of the key in the Secret: PKCS1 (the default) or PKCS8.")),
      codec::field("rotationPolicy", &S::rotation_policy,
                   Schema::string_enum({"Never", "Always"}, "Always (the default) generates a new key at every issuance; "
                                                            "Never reuses the key already in the Secret.")));
  return table;
}

// issuerRef comes before secretName so that `required` keeps its order (issuerRef, secretName).
const auto& spec_fields() {
  using S = CertificateSpec;
  static const auto table = codec::table<S>(
      "Desired state of the Certificate.",
      codec::field("issuerRef", &S::issuer_ref, IssuerReference::schema()).required(),
      codec::field("secretName", &S::secret_name,
                   Schema::string("Name of the Secret, in the Certificate's namespace, that receives the private key "
                                  "(tls.key), certificate chain (tls.crt) and CA (ca.crt).")
                       .max_length(253))
          .required(),
      codec::field("secretTemplate", &S::secret_template, SecretTemplate::schema()),
      codec::field("additionalOutputFormats", &S::additional_output_formats,
                   Schema::array(AdditionalOutputFormat::schema(), "More encodings of the key and certificate in the Secret.")
                       .list_map({"type"})
                       .max_items(2)),
      codec::field("keystores", &S::keystores, CertificateKeystores::schema()),
      codec::field("commonName", &S::common_name,
                   Schema::string("Subject common name (at most 64 characters). TLS clients ignore it when any subject "
                                  "alternative name is set.")),
      codec::field("subject", &S::subject, X509Subject::schema()),
      codec::field("literalSubject", &S::literal_subject,
                   Schema::string("The subject as an RFC 4514 string, e.g. \"CN=app,O=Acme\\, Inc.,C=DE\" (most specific "
                                  "RDN first), used exactly: order, multi-valued RDNs (+) and any attribute type by OID. "
                                  "Cannot be set with commonName or subject.")
                       .max_length(4096)),
      codec::field("dnsNames", &S::dns_names,
                   Schema::array(Schema::string().max_length(253), "DNS subject alternative names.").max_items(256)),
      codec::field("ipAddresses", &S::ip_addresses,
                   Schema::array(Schema::string().max_length(45), "IP address subject alternative names.").max_items(256)),
      codec::field("uris", &S::uris,
                   Schema::array(Schema::string().max_length(2048), "URI subject alternative names.").max_items(256)),
      codec::field("emailAddresses", &S::email_addresses,
                   Schema::array(Schema::string().max_length(254), "Email subject alternative names.").max_items(256)),
      codec::field("otherNames", &S::other_names,
                   Schema::array(OtherName::schema(), "otherName subject alternative names with UTF8String values.")
                       .max_items(64)),
      codec::field("duration", &S::duration,
                   Schema::string("Requested lifetime as a Go duration (e.g. 2160h); the issuer may ignore it. Default "
                                  "2160h (90 days), minimum 1h.")
                       .max_length(64)),
      codec::field("renewBefore", &S::renew_before,
                   Schema::string("Renew this long before expiry (Go duration, minimum 5m, less than the lifetime). "
                                  "Default: a third of the issued lifetime. Cannot be set with renewBeforePercentage.")
                       .max_length(64)),
      codec::field("renewBeforePercentage", &S::renew_before_percentage,
                   Schema::integer("Like renewBefore, as a percentage of the issued lifetime, in (0, 100). Cannot be set "
                                   "with renewBefore.",
                                   "int32")),
      codec::field("isCA", &S::is_ca,
                   Schema::boolean("Request a CA certificate (basicConstraints CA:TRUE); adds the cert sign usage.")),
      codec::field("usages", &S::usages,
                   usages_schema("Requested key usages and extended key usages. Default: digital signature and key "
                                 "encipherment.")),
      codec::field("privateKey", &S::private_key, CertificatePrivateKey::schema()),
      codec::field("signatureAlgorithm", &S::signature_algorithm,
                   Schema::string_enum({"SHA256WithRSA", "SHA384WithRSA", "SHA512WithRSA", "ECDSAWithSHA256", "ECDSAWithSHA384",
                                        "ECDSAWithSHA512", "PureEd25519"},
                                       "Signature algorithm of the CSR, and of the certificate when the issuer is SelfSigned "
                                       "(a CA issuer signs with its own key's). Must suit privateKey.algorithm. Default: "
                                       "chosen by the key.")),
      codec::field("nameConstraints", &S::name_constraints, NameConstraints::schema()),
      codec::field("encodeUsagesInRequest", &S::encode_usages_in_request,
                   Schema::boolean("Whether the usages are encoded in the CSR. Default true; disable only for issuers "
                                   "that reject those extensions.")),
      codec::field("revisionHistoryLimit", &S::revision_history_limit,
                   Schema::integer("How many CertificateRequests of this Certificate to keep (at least 1). Default 1.",
                                   "int32")));
  return table;
}

const auto& status_fields() {
  using S = CertificateStatus;
  static const auto table = codec::table<S>(
      "Observed state of the Certificate, set by the controller.",
      codec::field("conditions", &S::conditions,
                   openapi::conditions("Conditions of the Certificate: Ready and Issuing.", "Ready, Issuing", true)),
      codec::field("lastFailureTime", &S::last_failure_time,
                   Schema::date_time("When the latest issuance failed; unset after a success.")),
      codec::field("notBefore", &S::not_before, Schema::date_time("Start of validity of the certificate in the Secret.")),
      codec::field("notAfter", &S::not_after, Schema::date_time("Expiry of the certificate in the Secret.")),
      codec::field("renewalTime", &S::renewal_time, Schema::date_time("When the certificate will next be renewed.")),
      codec::field("revision", &S::revision,
                   Schema::integer("Revision of the issued certificate; each CertificateRequest carries the next one in "
                                   "its certs.capstan.dev/certificate-revision annotation.")),
      codec::field("nextPrivateKeySecretName", &S::next_private_key_secret_name,
                   Schema::string("Secret holding the private key for the issuance in progress.")),
      codec::field("failedIssuanceAttempts", &S::failed_issuance_attempts,
                   Schema::integer("Consecutive failed issuances; the next attempt waits 1h * 2^(attempts - 1), at most "
                                   "32h.")));
  return table;
}

}  // namespace

CAPSTAN_CODEC_FROM(X509Subject, subject_fields)
CAPSTAN_CODEC_FROM(OtherName, other_name_fields)
CAPSTAN_CODEC_FROM(NameConstraintItem, name_constraint_item_fields)
CAPSTAN_CODEC_FROM(NameConstraints, name_constraints_fields)
CAPSTAN_CODEC_FROM(SecretTemplate, secret_template_fields)
CAPSTAN_CODEC_FROM(AdditionalOutputFormat, output_format_fields)
CAPSTAN_CODEC_FROM(JksKeystore, jks_fields)
CAPSTAN_CODEC_FROM(Pkcs12Keystore, pkcs12_fields)
CAPSTAN_CODEC_FROM(CertificateKeystores, keystores_fields)
CAPSTAN_CODEC_FROM(CertificatePrivateKey, private_key_fields)
CAPSTAN_CODEC_FROM(CertificateSpec, spec_fields)
CAPSTAN_CODEC_FROM(CertificateStatus, status_fields)

json::Value Certificate::to_json() const { return Resource::to_json(kApiVersion, kCertificateKind); }

Schema Certificate::schema() {
  return openapi::root(kApiVersion, "A Certificate asks for an X.509 certificate, kept up to date and renewed before it expires, in the "
                     "Secret named by spec.secretName.",
                     CertificateSpec::schema(), CertificateStatus::schema());
}


}  // namespace capstan::apis::certs::v1
