// Bundle (trust.capstan.dev/v1alpha1): trust-manager's Bundle, same field names and JSON shape
// (pkg/apis/trust/v1alpha1/types_bundle.go). A cluster-scoped set of CA certificates gathered
// from sources in the trust namespace and written, deduplicated, to a ConfigMap and/or Secret of
// the Bundle's name in every selected namespace.
#pragma once

#include "apis/common/codec.h"
#include "apis/common/openapi.h"
#include "runtime/json/json.h"
#include "runtime/meta/object.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace capstan::apis::trust::v1alpha1 {

// A key (or every key) of a ConfigMap or Secret in the trust namespace, named or label-selected
// (every object matching, in name order).
struct SourceObjectKeySelector {
  std::string name;
  json::Value selector;  // metav1.LabelSelector as written; null: `name` names the object
  std::string key;
  bool include_all_keys = false;

  static SourceObjectKeySelector from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const SourceObjectKeySelector&) const = default;
};

// Exactly one of the four.
struct BundleSource {
  std::optional<SourceObjectKeySelector> config_map;
  std::optional<SourceObjectKeySelector> secret;
  std::optional<std::string> in_line;
  std::optional<bool> use_default_cas;

  static BundleSource from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const BundleSource&) const = default;
};

struct TargetMetadata {
  std::map<std::string, std::string> annotations;
  std::map<std::string, std::string> labels;

  static TargetMetadata from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const TargetMetadata&) const = default;
};

// A ConfigMap or Secret target: the key of the PEM bundle and extra metadata.
struct TargetTemplate {
  std::string key;
  std::optional<TargetMetadata> metadata;

  static TargetTemplate from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const TargetTemplate&) const = default;
};

struct JksFormat {
  std::string key;
  std::optional<std::string> password;  // default "changeit"

  static JksFormat from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const JksFormat&) const = default;
};

struct Pkcs12Format {
  std::string key;
  std::optional<std::string> password;  // default "" (no password)
  std::string profile;                  // LegacyRC2 (default) | LegacyDES | Modern2023

  static Pkcs12Format from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const Pkcs12Format&) const = default;
};

struct AdditionalFormats {
  std::optional<JksFormat> jks;
  std::optional<Pkcs12Format> pkcs12;

  static AdditionalFormats from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const AdditionalFormats&) const = default;
};

struct BundleTarget {
  std::optional<TargetTemplate> config_map;
  std::optional<TargetTemplate> secret;
  std::optional<AdditionalFormats> additional_formats;
  json::Value namespace_selector;  // metav1.LabelSelector as written; null: every namespace

  static BundleTarget from_json(const json::Value& v, std::string_view path);
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const BundleTarget&) const = default;
};

struct BundleSpec {
  std::vector<BundleSource> sources;
  BundleTarget target;

  static BundleSpec from_json(const json::Value& v, std::string_view path = "spec");
  json::Value to_json() const;
  static openapi::Schema schema();
  bool operator==(const BundleSpec&) const = default;
};

struct BundleStatus {
  std::vector<meta::Condition> conditions;  // Synced
  std::string default_ca_version;           // set when a source uses the default CAs

  static BundleStatus from_json(const json::Value& v, std::string_view path = "status");
  json::Value to_json() const;
  static openapi::Schema schema();
};

struct Bundle : codec::Resource<BundleSpec, BundleStatus> {
  static Bundle from_json(const json::Value& obj) { return {Resource::from_json(obj)}; }
  json::Value to_json() const;
  static openapi::Schema schema();
};

// The limits the schema and the webhook hold a Bundle to.
inline constexpr std::size_t kMaxSources = 100;
inline constexpr std::size_t kMaxInLineBytes = 512 * 1024;

}  // namespace capstan::apis::trust::v1alpha1
