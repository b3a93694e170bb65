#include "controllers/gitops/kustomize_crds.h"

#include "controllers/gitops/manifests.h"
#include "runtime/json/json.h"
#include "runtime/json/yaml.h"
#include "runtime/meta/ascii.h"

#include <algorithm>
#include <cctype>

namespace capstan::gitops::kustomize {
namespace {

constexpr int kMaxDepth = 32;

// The definition's schema: Go's encoding/json matches the "Schema" member case-insensitively.
const json::Object* schema_of(const json::Value& definition) {
  if (!definition.is_object()) return nullptr;
  for (const auto& kv : definition.get_object()) {
    const std::string key = meta::ascii_lower(kv.key());
    if (key == "schema" && kv.value().is_object()) return &kv.value().get_object();
  }
  return nullptr;
}

const json::Object* properties_of(const json::Object* schema) {
  if (!schema) return nullptr;
  const auto* p = schema->if_contains("properties");
  return p && p->is_object() ? &p->get_object() : nullptr;
}

struct Walker {
  const std::string& file;
  const json::Object& definitions;
  std::vector<CrdReference>& out;

  void walk(const std::string& kind, const std::string& definition, const std::string& path, int depth) {
    if (depth > kMaxDepth) throw BuildError(file + ": definitions nest more than " + std::to_string(kMaxDepth) + " levels through $ref (a cycle?)");
    const auto* def = definitions.if_contains(definition);
    const auto* props = def ? properties_of(schema_of(*def)) : nullptr;
    if (!props) return;
    for (const auto& [name, property] : *props) {
      if (!property.is_object()) continue;
      const std::string at = path.empty() ? std::string(name) : path + "/" + std::string(name);
      const auto& p = property.get_object();
      for (std::string_view refused : {"x-kubernetes-annotation", "x-kubernetes-label-selector", "x-kubernetes-identity"})
        if (p.contains(refused))
          throw BuildError(file + ": " + definition + " property " + at + ": " + std::string(refused) +
                           " is not supported (of crds, Capstan reads the x-kubernetes-object-ref-* name references)");
      const auto* version = p.if_contains("x-kubernetes-object-ref-api-version");
      const auto* ref_kind = p.if_contains("x-kubernetes-object-ref-kind");
      if (version && version->is_string() && ref_kind && ref_kind->is_string()) {
        const auto* key = p.if_contains("x-kubernetes-object-ref-name-key");
        std::string name_key = key && key->is_string() ? std::string(key->get_string()) : "name";
        if (name_key.empty()) throw BuildError(file + ": " + definition + " property " + at + ": x-kubernetes-object-ref-name-key is empty");
        out.push_back({kind, at + "/" + name_key, std::string(ref_kind->get_string())});
      }
      if (const auto* ref = p.if_contains("$ref"); ref && ref->is_string()) walk(kind, std::string(ref->get_string()), at, depth + 1);
    }
  }
};

}  // namespace

void load_crd_references(const std::string& file, const std::string& text, std::vector<CrdReference>& out) {
  json::Value doc;
  try {
    doc = !text.empty() && text.front() == '{' ? json::parse(text, file) : json::from_yaml(text, file);
  } catch (const std::exception& e) {
    throw BuildError(file + ": not OpenAPI definitions: " + e.what());
  }
  if (!doc.is_object()) throw BuildError(file + ": not OpenAPI definitions (a map of type names to {Schema, Dependencies})");
  const auto& definitions = doc.get_object();
  Walker w{file, definitions, out};
  for (const auto& [name, definition] : definitions) {
    const auto* props = properties_of(schema_of(definition));
    if (!props || !props->contains("kind") || !props->contains("apiVersion") || !props->contains("metadata")) continue;
    std::string type(name);
    const std::string kind = type.substr(type.rfind('.') == std::string::npos ? 0 : type.rfind('.') + 1);
    w.walk(kind, type, "", 0);
  }
}

}  // namespace capstan::gitops::kustomize
