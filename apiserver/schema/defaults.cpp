#include "apiserver/schema/defaults.h"

#include "apiserver/schema/object_util.h"

#include <string>
#include <vector>

namespace capstan::apiserver::schema {
namespace {

bool is_non_nullable_null(const json::Value& x, const Schema* s) { return x.is_null() && s && !s->nullable; }

void default_rec(json::Value& x, const Schema* s) {
  if (!s) return;
  if (x.is_object()) {
    auto& o = x.get_object();
    for (const auto& [name, prop] : s->properties) {
      if (!prop->default_value) continue;
      auto it = o.find(name);
      if (it == o.end() || is_non_nullable_null(it->value(), prop.get())) {
        o[name] = *prop->default_value;
      }
    }
    for (auto& kv : o) {
      if (const Schema* p = s->property(kv.key())) {
        default_rec(kv.value(), p);
      } else if (s->additional_properties.present) {
        const Schema* ap = s->additional_properties.schema.get();
        if (is_non_nullable_null(kv.value(), ap)) {
          kv.value() = ap->default_value ? *ap->default_value : json::Value();
        }
        default_rec(kv.value(), ap);
      }
    }
  } else if (x.is_array()) {
    auto& a = x.get_array();
    const Schema* items = s->items.get();
    for (auto& e : a) {
      if (is_non_nullable_null(e, items)) e = items->default_value ? *items->default_value : json::Value();
      default_rec(e, items);
    }
  }
}

void prune_nulls_rec(json::Value& x, const Schema* s) {
  if (x.is_object()) {
    auto& o = x.get_object();
    std::vector<std::string> drop;
    for (auto& kv : o) {
      const Schema* sub = s ? s->member(kv.key()) : nullptr;
      if (kv.value().is_null() && sub && !sub->nullable && !sub->default_value) {
        drop.emplace_back(kv.key());
      } else {
        prune_nulls_rec(kv.value(), sub);
      }
    }
    detail::erase_keys(o, drop);
  } else if (x.is_array()) {
    const Schema* items = s ? s->items.get() : nullptr;
    for (auto& e : x.get_array()) prune_nulls_rec(e, items);
  }
}

}  // namespace

void apply_defaults(json::Value& obj, const Schema& schema) { default_rec(obj, &schema); }

void prune_non_nullable_nulls_without_defaults(json::Value& obj, const Schema& schema) {
  prune_nulls_rec(obj, &schema);
}

}  // namespace capstan::apiserver::schema
