// Certificate (certs.capstan.dev/v1): cert-manager.io/v1's Certificate, same field names and
// JSON shape (pkg/apis/certmanager/v1/types_certificate.go). The typed structs hold what is
// written, not the defaults: absent optional fields stay nullopt/empty, and defaults.h's
// effective_* helpers supply cert-manager's values.
#pragma once

#include "apis/certs/v1/common.h"
#include "runtime/json/json.h"
#include "runtime/meta/time.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::apis::certs::v1 {

// Values of spec.privateKey (strings, so that unknown values survive decoding and validation
// can name them).
namespace private_key {
inline constexpr std::string_view kRSA = "RSA";
inline constexpr std::string_view kECDSA = "ECDSA";
inline constexpr std::string_view kEd25519 = "Ed25519";
inline constexpr std::string_view kPKCS1 = "PKCS1";
inline constexpr std::string_view kPKCS8 = "PKCS8";
inline constexpr std::string_view kNever = "Never";
inline constexpr std::string_view kAlways = "Always";
}  // namespace private_key

// X509Subject: the subject attributes other than the common name.
struct X509Subject {
  std::vector<std::string> organizations;
  std::vector<std::string> countries;
  std::vector<std::string> organizational_units;
  std::vector<std::string> localities;
  std::vector<std::string> provinces;
  std::vector<std::string> street_addresses;
  std::vector<std::string> postal_codes;
  std::string serial_number;

  static X509Subject from_json(const json::Value& v, std::string_view path = "spec.subject");
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const X509Subject&) const = default;
};

// OtherName: a subjectAltName otherName with a UTF8String value.
struct OtherName {
  std::string oid;  // dotted decimal
  std::string utf8_value;

  static OtherName from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const OtherName&) const = default;
};

// NameConstraintItem: one side (permitted or excluded) of spec.nameConstraints.
struct NameConstraintItem {
  std::vector<std::string> dns_domains;
  std::vector<std::string> ip_ranges;  // CIDRs
  std::vector<std::string> email_addresses;
  std::vector<std::string> uri_domains;

  static NameConstraintItem from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const NameConstraintItem&) const = default;
};

// NameConstraints: the X.509 nameConstraints extension of a CA certificate (RFC 5280 4.2.1.10).
struct NameConstraints {
  bool critical = false;
  std::optional<NameConstraintItem> permitted;
  std::optional<NameConstraintItem> excluded;

  static NameConstraints from_json(const json::Value& v, std::string_view path = "spec.nameConstraints");
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const NameConstraints&) const = default;
};

// Values of spec.signatureAlgorithm.
namespace signature_algorithm {
inline constexpr std::string_view kSHA256WithRSA = "SHA256WithRSA";
inline constexpr std::string_view kSHA384WithRSA = "SHA384WithRSA";
inline constexpr std::string_view kSHA512WithRSA = "SHA512WithRSA";
inline constexpr std::string_view kECDSAWithSHA256 = "ECDSAWithSHA256";
inline constexpr std::string_view kECDSAWithSHA384 = "ECDSAWithSHA384";
inline constexpr std::string_view kECDSAWithSHA512 = "ECDSAWithSHA512";
inline constexpr std::string_view kPureEd25519 = "PureEd25519";
}  // namespace signature_algorithm

// CertificateSecretTemplate: labels and annotations copied onto the target Secret.
struct SecretTemplate {
  std::map<std::string, std::string> annotations;
  std::map<std::string, std::string> labels;

  static SecretTemplate from_json(const json::Value& v, std::string_view path = "spec.secretTemplate");
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const SecretTemplate&) const = default;
};

// CertificatePrivateKey. Empty strings / size 0 mean "not set" (cert-manager's omitempty).
struct CertificatePrivateKey {
  std::string rotation_policy;  // "Never" | "Always"
  std::string encoding;         // "PKCS1" | "PKCS8"
  std::string algorithm;        // "RSA" | "ECDSA" | "Ed25519"
  std::int64_t size = 0;

  static CertificatePrivateKey from_json(const json::Value& v, std::string_view path = "spec.privateKey");
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const CertificatePrivateKey&) const = default;
};

// CertificateAdditionalOutputFormat: more encodings of the key and certificate in the Secret,
// beside tls.crt and tls.key: DER (key.der, the private key as PKCS#8 DER) and CombinedPEM
// (tls-combined.pem, the private key then the certificate chain).
struct AdditionalOutputFormat {
  std::string type;  // DER | CombinedPEM

  static AdditionalOutputFormat from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const AdditionalOutputFormat&) const = default;
};

// CertificateKeystores (cert-manager's JKSKeystore / PKCS12Keystore): Java and PKCS#12 stores
// written to the Secret beside the PEM files. The password is given literally or by a Secret key,
// exactly one of the two.
struct KeystoreCommon {
  bool create = false;
  std::optional<SecretKeySelector> password_secret_ref;
  std::string password;
  bool operator==(const KeystoreCommon&) const = default;
};

struct JksKeystore : KeystoreCommon {
  std::string alias;  // default "certificate"

  static JksKeystore from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const JksKeystore&) const = default;
};

struct Pkcs12Keystore : KeystoreCommon {
  std::string profile;  // LegacyRC2 (default) | LegacyDES | Modern2023

  static Pkcs12Keystore from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const Pkcs12Keystore&) const = default;
};

struct CertificateKeystores {
  std::optional<JksKeystore> jks;
  std::optional<Pkcs12Keystore> pkcs12;

  static CertificateKeystores from_json(const json::Value& v, std::string_view path = "spec.keystores");
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const CertificateKeystores&) const = default;
};

struct CertificateSpec {
  std::optional<X509Subject> subject;
  // RFC 4514 string; when set, the subject exactly (commonName and subject must be empty).
  std::string literal_subject;
  std::string common_name;
  std::optional<std::chrono::nanoseconds> duration;
  std::optional<std::chrono::nanoseconds> renew_before;
  std::optional<std::int32_t> renew_before_percentage;
  std::vector<std::string> dns_names;
  std::vector<std::string> ip_addresses;
  std::vector<std::string> uris;
  std::vector<std::string> email_addresses;
  std::vector<OtherName> other_names;
  std::string secret_name;
  std::optional<SecretTemplate> secret_template;
  std::vector<AdditionalOutputFormat> additional_output_formats;
  std::optional<CertificateKeystores> keystores;
  IssuerReference issuer_ref;
  bool is_ca = false;
  std::vector<std::string> usages;
  std::optional<CertificatePrivateKey> private_key;
  std::string signature_algorithm;  // empty: chosen by the key (signature_algorithm::k*)
  std::optional<NameConstraints> name_constraints;
  std::optional<bool> encode_usages_in_request;
  std::optional<std::int32_t> revision_history_limit;

  static CertificateSpec from_json(const json::Value& v, std::string_view path = "spec");
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const CertificateSpec&) const = default;
};

struct CertificateStatus {
  std::vector<Condition> conditions;  // Ready, Issuing
  std::optional<meta::TimePoint> last_failure_time;
  std::optional<meta::TimePoint> not_before;
  std::optional<meta::TimePoint> not_after;
  std::optional<meta::TimePoint> renewal_time;
  std::optional<std::int64_t> revision;
  std::optional<std::string> next_private_key_secret_name;
  std::optional<std::int64_t> failed_issuance_attempts;

  static CertificateStatus from_json(const json::Value& v, std::string_view path = "status");
  json::Value to_json() const;
  static openapi::Schema schema();
  const Condition* condition(std::string_view type) const { return find_condition(conditions, type); }
};

struct Certificate : codec::Resource<CertificateSpec, CertificateStatus> {
  // Reads a whole object (apiVersion is not checked); throws apis::codec::DecodeError.
  static Certificate from_json(const json::Value& obj) { return {Resource::from_json(obj)}; }
  // apiVersion, kind, metadata, spec and (when not empty) status.
  json::Value to_json() const;
  // The CRD's openAPIV3Schema.
  static openapi::Schema schema();
};

}  // namespace capstan::apis::certs::v1
