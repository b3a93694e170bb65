// Plain value types describing what a certificate or CSR should contain. They mirror the
// fields of a cert-manager Certificate spec; nothing here touches OpenSSL.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace capstan::pki {

using Clock = std::chrono::system_clock;
using TimePoint = Clock::time_point;

// cert-manager's DefaultCertificateDuration.
inline constexpr std::chrono::seconds kDefaultDuration = std::chrono::hours(24 * 90);

// A distinguished name. Attributes are written in Go's pkix.Name order (C, ST, L, street,
// postalCode, O, OU, CN, serialNumber), one RDN per value.
struct Subject {
  std::string common_name;
  std::vector<std::string> organizations;
  std::vector<std::string> organizational_units;
  std::vector<std::string> countries;  // two-letter codes (the X.520 bound OpenSSL enforces)
  std::vector<std::string> localities;
  std::vector<std::string> provinces;
  std::vector<std::string> street_addresses;
  std::vector<std::string> postal_codes;
  std::string serial_number;

  bool empty() const;
  bool operator==(const Subject&) const = default;
};

// One attribute of a distinguished name: its type as a dotted OID ("2.5.4.3") and its value as
// UTF-8.
struct NameAttribute {
  std::string oid;
  std::string value;
  bool operator==(const NameAttribute&) const = default;
};
// A relative distinguished name (one SET; several attributes make a multi-valued RDN) and a
// whole name, in ASN.1 order: the most general RDN first (the reverse of an RFC 4514 string).
using RelativeName = std::vector<NameAttribute>;
using NameSequence = std::vector<RelativeName>;

// A subjectAltName otherName whose value is a UTF8String (cert-manager's otherNames).
struct OtherName {
  std::string oid;  // dotted decimal
  std::string utf8_value;
  bool operator==(const OtherName&) const = default;
};

// One side (permitted or excluded) of a nameConstraints extension (RFC 5280 4.2.1.10).
struct NameConstraintSubtrees {
  std::vector<std::string> dns_domains;
  std::vector<std::string> ip_ranges;  // CIDRs: "10.0.0.0/8", "2001:db8::/32"; canonical when parsed back
  std::vector<std::string> email_addresses;
  std::vector<std::string> uri_domains;
  bool empty() const {
    return dns_domains.empty() && ip_ranges.empty() && email_addresses.empty() && uri_domains.empty();
  }
  bool operator==(const NameConstraintSubtrees&) const = default;
};

struct NameConstraints {
  bool critical = false;
  NameConstraintSubtrees permitted;
  NameConstraintSubtrees excluded;
  bool operator==(const NameConstraints&) const = default;
};

struct CertificateTemplate {
  Subject subject;
  // When not empty, the subject exactly as given (order, multi-valued RDNs, any attribute type),
  // and `subject` is ignored when building. Parsed CSRs and certificates leave it empty (see
  // their subject_sequence()).
  NameSequence literal_subject;
  std::vector<std::string> dns_names;
  std::vector<std::string> ip_addresses;  // IPv4 or IPv6 text; normalised when parsed back
  std::vector<std::string> uris;
  std::vector<std::string> email_addresses;
  std::vector<OtherName> other_names;  // after the other SANs, in order
  bool is_ca = false;
  // Only for a CA; copied from a CSR into the certificate signed for it.
  std::optional<NameConstraints> name_constraints;
  // cert-manager usage names; empty means default_usages(). A CA always also gets "cert sign".
  std::vector<std::string> usages;

  // Validity, used when signing (ignored for CSRs). not_before defaults to now; not_after to
  // not_before + duration (an explicit duration passed to sign() wins over this one, then
  // kDefaultDuration).
  std::optional<TimePoint> not_before;
  std::optional<TimePoint> not_after;
  std::optional<std::chrono::seconds> duration;

  bool subject_empty() const { return literal_subject.empty() && subject.empty(); }
  bool has_sans() const {
    return !dns_names.empty() || !ip_addresses.empty() || !uris.empty() || !email_addresses.empty() || !other_names.empty();
  }
  bool operator==(const CertificateTemplate&) const = default;
};

}  // namespace capstan::pki
