// A small builder for OpenAPI v3 (structural) schemas, so that the CRD schemas read like the
// Go types they come from:
//
//   Schema::object("Reference to the issuer.")
//       .property("name", Schema::string("Name of the issuer."))
//       .property("kind", Schema::string("Kind of the issuer."))
//       .required({"name"})
//
// Arrays are atomic lists unless told otherwise (as controller-gen marks cert-manager's).
#pragma once

#include "runtime/json/json.h"

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>

namespace capstan::apis::openapi {

class Schema {
 public:
  static Schema object(std::string_view description = {});
  // An object whose unknown members are kept (x-kubernetes-preserve-unknown-fields).
  static Schema open_object(std::string_view description = {});
  static Schema string(std::string_view description = {});
  static Schema int_or_string(std::string_view description = {});  // x-kubernetes-int-or-string
  static Schema integer(std::string_view description = {}, std::string_view format = {});
  static Schema number(std::string_view description = {});  // a JSON number (Go float64)
  static Schema boolean(std::string_view description = {});
  static Schema date_time(std::string_view description = {});  // string, format date-time
  static Schema bytes(std::string_view description = {});      // string, format byte (Go []byte)
  static Schema string_enum(std::initializer_list<std::string_view> values, std::string_view description = {});
  static Schema string_enum(std::span<const std::string_view> values, std::string_view description = {});
  static Schema array(const Schema& items, std::string_view description = {});  // x-kubernetes-list-type: atomic
  static Schema strings(std::string_view description = {});                    // array of strings
  static Schema map(const Schema& values, std::string_view description = {});  // additionalProperties
  static Schema string_map(std::string_view description = {});

  Schema& description(std::string_view d);
  Schema& property(std::string_view name, const Schema& s);
  Schema& required(std::initializer_list<std::string_view> names);
  Schema& default_value(json::Value v);
  Schema& max_length(std::int64_t n);
  Schema& min_length(std::int64_t n);
  Schema& pattern(std::string_view regex);  // ECMA 262, as kube-apiserver checks it
  Schema& minimum(std::int64_t n);
  Schema& maximum(std::int64_t n);
  Schema& range(std::int64_t min, std::int64_t max) { return minimum(min).maximum(max); }
  Schema& min_items(std::int64_t n);
  Schema& max_items(std::int64_t n);
  Schema& max_properties(std::int64_t n);
  // An x-kubernetes-validations CEL rule on this node (`self` is its value); `field_path`, when
  // given, names the member the error is reported on (".replicas").
  Schema& rule(std::string_view cel, std::string_view message, std::string_view field_path = {});
  Schema& list_type(std::string_view type);
  // x-kubernetes-list-type: map keyed by `keys`.
  Schema& list_map(std::initializer_list<std::string_view> keys);

  const json::Value& json() const { return v_; }

 private:
  explicit Schema(std::string_view type);
  json::Object& o() { return v_.get_object(); }
  json::Value v_;
};

// Names as Kubernetes bounds them: an object's name (a DNS subdomain, 1-253 characters) and a
// namespace's (a DNS label, 1-63 characters).
Schema object_name(std::string_view description);
Schema namespace_name(std::string_view description);
// A metav1.LabelSelector {matchLabels, matchExpressions} (runtime/meta/selector.h reads it).
Schema label_selector(std::string_view description);
// metadata.generation as status reports it back (observedGeneration).
Schema observed_generation();

// {apiVersion, kind, metadata, spec, status} of a kind served as `api_version`; spec is required.
Schema root(std::string_view api_version, std::string_view description, const Schema& spec, const Schema& status);
// status.conditions: a list map keyed by type, with observedGeneration per condition when
// `observed_generation` is set. `types` names the condition types for the description.
// `degraded` adds the status Degraded (prometheus-operator's Available: some pods not ready).
Schema conditions(std::string_view description, std::string_view types, bool observed_generation, bool degraded = false);

}  // namespace capstan::apis::openapi
