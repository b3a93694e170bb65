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

struct CertificateTemplate {
  Subject subject;
  std::vector<std::string> dns_names;
  std::vector<std::string> ip_addresses;  // IPv4 or IPv6 text; normalised when parsed back
  std::vector<std::string> uris;
  std::vector<std::string> email_addresses;
  bool is_ca = false;
  // cert-manager usage names; empty means default_usages(). A CA always also gets "cert sign".
  std::vector<std::string> usages;

  // Validity, used when signing (ignored for CSRs). not_before defaults to now; not_after to
  // not_before + duration (an explicit duration passed to sign() wins over this one, then
  // kDefaultDuration).
  std::optional<TimePoint> not_before;
  std::optional<TimePoint> not_after;
  std::optional<std::chrono::seconds> duration;

  bool operator==(const CertificateTemplate&) const = default;
};

}  // namespace capstan::pki
