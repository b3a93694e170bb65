#include "apiserver/typed/value_structs.h"

#include "apiserver/typed/check.h"

namespace capstan::apiserver::typed {

void fill_value_structs(json::Value& obj, const schema::Message& m) {
  auto* o = obj.if_object();
  if (!o) return;
  for (const auto& f : m.fields) {
    if (f.inlined()) {
      fill_value_structs(obj, *f.message);
      continue;
    }
    auto it = o->find(f.json);
    // A list or map without omitempty: nil is serialised as null.
    if (f.card != schema::Card::Single && f.keep_zero() && it == o->end()) {
      (*o)[f.json] = nullptr;
      continue;
    }
    if (f.type != schema::Type::Message || f.message->special != schema::Special::None) continue;
    if (f.card == schema::Card::Single) {
      if (f.by_value() && (it == o->end() || it->value().is_null())) {
        (*o)[f.json] = json::Object{};
        it = o->find(f.json);
      }
      if (it != o->end()) fill_value_structs(it->value(), *f.message);
    } else if (it != o->end() && f.card == schema::Card::Repeated && it->value().is_array()) {
      for (auto& e : it->value().as_array()) fill_value_structs(e, *f.message);
    } else if (it != o->end() && f.card == schema::Card::Map && it->value().is_object()) {
      for (auto& kv : it->value().as_object()) fill_value_structs(kv.value(), *f.message);
    }
  }
}

bool fill_value_structs(json::Value& obj, std::string_view api_version, std::string_view kind) {
  const auto* m = kind_message(api_version, kind);
  if (!m) return false;
  fill_value_structs(obj, *m);
  return true;
}

json::Value zero_object(std::string_view api_version, std::string_view kind) {
  json::Value zero = json::Object{{"apiVersion", api_version}, {"kind", kind}};
  if (!fill_value_structs(zero, api_version, kind)) return json::Object{};
  return zero;
}

}  // namespace capstan::apiserver::typed
