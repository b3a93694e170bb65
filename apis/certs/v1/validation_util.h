// Internal helpers of the validation files: lenient JSON reads, apimachinery's name checks with
// their exact messages, and the Go parsers cert-manager relies on (net.ParseIP, net/mail).
#pragma once

#include "runtime/validation/field.h"
#include "runtime/json/json.h"

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::apis::certs::v1::vutil {

using validation::Cause;
using validation::FieldPath;
using Causes = std::vector<Cause>;

// ---- lenient reads (wrong types read as absent) ------------------------------------------------
const json::Object& object_or_empty(const json::Value* v);
const json::Value* get(const json::Object& o, std::string_view key);  // nullptr when missing or null
std::string_view str(const json::Object& o, std::string_view key);
const json::Object* obj(const json::Object& o, std::string_view key);
const json::Array* arr(const json::Object& o, std::string_view key);
std::size_t array_size(const json::Object& o, std::string_view key);
bool truthy(const json::Object& o, std::string_view key);

json::Value jstr(std::string_view s);

// ---- apimachinery/pkg/util/validation ----------------------------------------------------------
std::vector<std::string> dns1123_subdomain_errors(std::string_view value);  // IsDNS1123Subdomain
std::vector<std::string> qualified_name_errors(std::string_view value);     // IsQualifiedName
std::vector<std::string> label_value_errors(std::string_view value);        // IsValidLabelValue
// metav1validation.ValidateLabels / apivalidation.ValidateAnnotations over a string map.
void validate_labels(const json::Object& labels, const FieldPath& path, Causes& out);
void validate_annotations(const json::Object& annotations, const FieldPath& path, Causes& out);

// ---- Go parsers --------------------------------------------------------------------------------
bool is_ip(std::string_view s);  // net.ParseIP != nil
bool is_cidr(std::string_view s);  // net.ParseCIDR succeeds: an IP literal, '/', a prefix length that fits it
// The error net/mail.ParseAddress returns ("mail: missing '@' or angle-addr"), or nullopt when it
// parses; `address` receives the parsed address on success.
std::optional<std::string> mail_parse_error(std::string_view s, std::string* address);

// cert-manager's validateIssuerRef for spec.issuerRef (shared by Certificate and CertificateRequest).
void validate_issuer_ref(const json::Object* ref, const FieldPath& spec_path, Causes& out);

// A Go time.Duration as field.Error prints it (a fmt.Stringer, so unquoted): 30m0s.
Cause invalid_duration(const FieldPath& p, std::chrono::nanoseconds d, std::string_view detail);

}  // namespace capstan::apis::certs::v1::vutil
