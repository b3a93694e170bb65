#include "apiserver/builtin/decode_check.h"

#include <stdexcept>
#include <string>

namespace capstan::apiserver::builtin {
namespace {

// A map[string]string field: an object whose values are strings (null allowed, as Go leaves
// the zero value).
void string_map(const json::Value* v, std::string_view struct_field) {
  if (!v || v->is_null()) return;
  if (!v->is_object()) {
    throw std::invalid_argument("json: cannot unmarshal " + std::string(json::go_type_name(*v)) + " into Go struct field " +
                                std::string(struct_field) + " of type map[string]string");
  }
  for (const auto& kv : v->get_object()) {
    if (kv.value().is_string() || kv.value().is_null()) continue;
    throw std::invalid_argument("json: cannot unmarshal " + std::string(json::go_type_name(kv.value())) + " into Go struct field " +
                                std::string(struct_field) + " of type string");
  }
}

void string_list(const json::Value* v, std::string_view struct_field) {
  if (!v || v->is_null()) return;
  if (!v->is_array()) {
    throw std::invalid_argument("json: cannot unmarshal " + std::string(json::go_type_name(*v)) + " into Go struct field " +
                                std::string(struct_field) + " of type []string");
  }
  for (const auto& e : v->get_array())
    if (!e.is_string())
      throw std::invalid_argument("json: cannot unmarshal " + std::string(json::go_type_name(e)) + " into Go struct field " +
                                  std::string(struct_field) + " of type string");
}

}  // namespace

void check_decodable(std::string_view gr, std::string_view kind, const json::Value& obj) {
  if (const auto* md = json::find(obj, {"metadata"}); md && !md->is_object() && !md->is_null()) {
    throw std::invalid_argument("json: cannot unmarshal " + std::string(json::go_type_name(*md)) + " into Go struct field " + std::string(kind) +
                                ".metadata of type v1.ObjectMeta");
  }
  string_map(json::find(obj, {"metadata", "labels"}), "ObjectMeta.metadata.labels");
  string_map(json::find(obj, {"metadata", "annotations"}), "ObjectMeta.metadata.annotations");
  string_list(json::find(obj, {"metadata", "finalizers"}), "ObjectMeta.metadata.finalizers");
  if (gr == "configmaps") {
    string_map(json::find(obj, {"data"}), "ConfigMap.data");
    string_map(json::find(obj, {"binaryData"}), "ConfigMap.binaryData");
  } else if (gr == "secrets") {
    string_map(json::find(obj, {"data"}), "Secret.data");
    string_map(json::find(obj, {"stringData"}), "Secret.stringData");
  }
}

}  // namespace capstan::apiserver::builtin
