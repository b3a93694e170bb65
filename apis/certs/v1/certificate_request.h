// CertificateRequest (certs.capstan.dev/v1): cert-manager.io/v1's one-shot request for a signed
// certificate (pkg/apis/certmanager/v1/types_certificaterequest.go). The PEM fields are Go []byte
// in cert-manager, so their JSON form is base64 of the PEM text; the structs hold the PEM itself.
#pragma once

#include "apis/certs/v1/common.h"
#include "runtime/json/json.h"
#include "runtime/meta/time.h"

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::apis::certs::v1 {

// CertificateRequest Ready reasons (cert-manager's CertificateRequestReason*).
namespace request_reason {
inline constexpr std::string_view kPending = "Pending";
inline constexpr std::string_view kFailed = "Failed";
inline constexpr std::string_view kIssued = "Issued";
inline constexpr std::string_view kDenied = "Denied";
}  // namespace request_reason

struct CertificateRequestSpec {
  std::optional<std::chrono::nanoseconds> duration;
  IssuerReference issuer_ref;
  std::string request;  // PEM "CERTIFICATE REQUEST" (JSON: base64 of it)
  bool is_ca = false;
  std::vector<std::string> usages;
  // Identity of the creator, set by the mutating webhook on CREATE and immutable afterwards.
  std::string username;
  std::string uid;
  std::vector<std::string> groups;
  std::map<std::string, std::vector<std::string>> extra;

  static CertificateRequestSpec from_json(const json::Value& v, std::string_view path = "spec");
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const CertificateRequestSpec&) const = default;
};

struct CertificateRequestStatus {
  std::vector<Condition> conditions;  // Ready, Approved, Denied, InvalidRequest
  std::string certificate;            // PEM chain, leaf first (JSON: base64)
  std::string ca;                     // PEM (JSON: base64)
  std::optional<meta::TimePoint> failure_time;

  static CertificateRequestStatus from_json(const json::Value& v, std::string_view path = "status");
  json::Value to_json() const;
  static openapi::Schema schema();
  const Condition* condition(std::string_view type) const { return find_condition(conditions, type); }
  // Approved=True / Denied=True.
  bool approved() const;
  bool denied() const;
};

struct CertificateRequest : codec::Resource<CertificateRequestSpec, CertificateRequestStatus> {
  // Throws apis::codec::DecodeError.
  static CertificateRequest from_json(const json::Value& obj) { return {Resource::from_json(obj)}; }
  json::Value to_json() const;
  // The CRD's openAPIV3Schema.
  static openapi::Schema schema();
};

}  // namespace capstan::apis::certs::v1
