// Per-type behaviour of built-in resources (kube-apiserver's registry strategies): defaults
// applied on create/update, type-specific validation and fields preserved on update.
#pragma once

#include "runtime/validation/field.h"
#include "runtime/json/json.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::apiserver::builtin {

class Strategy {
 public:
  virtual ~Strategy() = default;
  // Fills defaults on a new object (after the generic metadata handling).
  virtual void prepare_create(json::Value& obj) {}
  // Sets what kube-apiserver's PrepareForCreate sets, which it does after recording the
  // creator's managed fields (so they are not the creator's): a Namespace's finalizers and phase.
  virtual void prepare_create_server_owned(json::Value& obj) {}
  // Fills defaults / carries over server-owned fields from `old` on update.
  virtual void prepare_update(json::Value& obj, const json::Value& old) {}
  // Type-specific validation; `old` is null on create.
  virtual std::vector<validation::Cause> validate(const json::Value& obj, const json::Value* old) { return {}; }
  // Warnings (the Warning response header) for a valid object on create/update.
  virtual std::vector<std::string> warnings(const json::Value& obj, const json::Value* old) { return {}; }
  // How metadata.name is validated: "subdomain" (default), "label", "dns1035", "path".
  virtual std::string_view name_rule() const { return "subdomain"; }
};

// Sets `key` in `o` to `v` unless it holds a non-null value (the defaulting every strategy does).
void set_default(json::Object& o, std::string_view key, json::Value v);

// The strategy for a group-resource ("services", "deployments.apps"); a no-op strategy for
// resources without special behaviour.
Strategy& strategy_for(std::string_view group_resource);

// metadata.name (or, with generate_name_prefix, metadata.generateName) validation messages
// exactly as apimachinery's validation package words them; `rule` as Strategy::name_rule().
std::vector<validation::Cause> validate_name(std::string_view name, std::string_view rule, bool generate_name_prefix = false);
std::vector<validation::Cause> validate_labels(const json::Value& obj);
// ValidateObjectMeta's format checks in upstream order: on create metadata.generateName and
// metadata.name, then metadata.labels and metadata.annotations.
std::vector<validation::Cause> validate_object_meta(const json::Value& obj, std::string_view name_rule, bool create);

}  // namespace capstan::apiserver::builtin
