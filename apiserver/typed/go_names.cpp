#include "apiserver/typed/go_names.h"

namespace capstan::apiserver::typed {
namespace schema = protobuf::schema;
namespace {

std::string_view package_of(std::string_view proto_name) {
  auto last = proto_name.rfind('.');
  if (last == std::string_view::npos) return {};
  auto pkg = proto_name.substr(0, last);
  auto prev = pkg.rfind('.');
  return prev == std::string_view::npos ? pkg : pkg.substr(prev + 1);
}

bool is_core_v1(const schema::Message& m) { return m.name.starts_with("k8s.io.api.core.v1."); }

}  // namespace

std::string_view go_struct_name(const schema::Message& m) {
  auto last = m.name.rfind('.');
  return last == std::string_view::npos ? m.name : m.name.substr(last + 1);
}

std::string go_qualified_name(const schema::Message& m) {
  return std::string(package_of(m.name)) + "." + std::string(go_struct_name(m));
}

std::string go_element_type(const schema::Field& f, const schema::Message& owner) {
  switch (f.type) {
    case schema::Type::String: return "string";
    case schema::Type::Bytes: return "[]byte";
    case schema::Type::Bool: return "bool";
    case schema::Type::Int32: return "int32";
    case schema::Type::Int64: return "int64";
    case schema::Type::Double: return "float64";
    case schema::Type::Float: return "float32";
    case schema::Type::Message: return go_qualified_name(*f.message);
  }
  return "interface {}";
}

std::string go_field_type(const schema::Field& f, const schema::Message& owner) {
  std::string elem = go_element_type(f, owner);
  switch (f.card) {
    case schema::Card::Single: return elem;
    case schema::Card::Repeated: return "[]" + elem;
    case schema::Card::Map:
      // core/v1 declares every map of quantities as the named type ResourceList.
      if (f.type == schema::Type::Message && f.message->special == schema::Special::Quantity && is_core_v1(owner))
        return "v1.ResourceList";
      return "map[string]" + elem;
  }
  return elem;
}

}  // namespace capstan::apiserver::typed
