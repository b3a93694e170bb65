#include "apiserver/schema/model.h"

namespace capstan::apiserver::schema {

const Schema* Schema::property(std::string_view name) const {
  auto it = properties.find(std::string(name));
  return it == properties.end() ? nullptr : it->second.get();
}

const Schema* Schema::member(std::string_view name) const {
  if (const Schema* p = property(name)) return p;
  return additional_properties.schema.get();
}

}  // namespace capstan::apiserver::schema
