#include "apiserver/schema/cel_value.h"

#include "runtime/cel/lexer.h"
#include "runtime/cel/time.h"

#include <cmath>

namespace capstan::apiserver::schema {
namespace {

constexpr int kMaxDepth = 128;

cel::Value convert(const json::Value& v, const Schema* s, bool is_resource_root, int depth);

cel::Value convert_object(const json::Object& o, const Schema& s, bool is_resource_root, int depth) {
  cel::Map m;
  if (s.additional_properties.schema) {
    for (const auto& kv : o)
      m.insert_or_assign(cel::Value::string(std::string(kv.key())),
                         convert(kv.value(), s.additional_properties.schema.get(), s.additional_properties.schema->x_embedded_resource, depth + 1));
    return cel::Value::map(std::move(m));
  }
  if (s.properties.empty() && !is_resource_root) {
    // No declared structure (x-kubernetes-preserve-unknown-fields): an untyped value.
    return cel::Value::from_json(json::Value(o), kMaxDepth - depth);
  }
  for (const auto& kv : o) {
    std::string_view k = kv.key();
    if (is_resource_root) {
      if (k == "apiVersion" || k == "kind") {
        m.insert_or_assign(cel::Value::string(std::string(k)), convert(kv.value(), nullptr, false, depth + 1));
        continue;
      }
      if (k == "metadata" && kv.value().is_object()) {
        cel::Map md;
        for (std::string_view f : {"name", "generateName"})
          if (const auto* x = kv.value().get_object().if_contains(f); x && x->is_string())
            md.insert_or_assign(cel::Value::string(std::string(f)), cel::Value::string(std::string(x->get_string())));
        m.insert_or_assign(cel::Value::string("metadata"), cel::Value::map(std::move(md)));
        continue;
      }
    }
    const Schema* p = s.property(k);
    if (!p) continue;
    auto name = escape_property_name(k);
    if (!name) continue;
    m.insert_or_assign(cel::Value::string(*name), convert(kv.value(), p, p->x_embedded_resource, depth + 1));
  }
  return cel::Value::map(std::move(m));
}

cel::Value convert(const json::Value& v, const Schema* s, bool is_resource_root, int depth) {
  if (depth > kMaxDepth) return cel::Value::error("document nested too deeply");
  if (!s) return cel::Value::from_json(v, kMaxDepth - depth);
  switch (v.kind()) {
    case boost::json::kind::object: return convert_object(v.get_object(), *s, is_resource_root, depth);
    case boost::json::kind::array: {
      cel::List l;
      l.reserve(v.get_array().size());
      for (const auto& x : v.get_array())
        l.push_back(convert(x, s->items.get(), s->items && s->items->x_embedded_resource, depth + 1));
      return cel::Value::list(std::move(l));
    }
    case boost::json::kind::double_:
      if (s->type == "integer" && v.get_double() == std::trunc(v.get_double()) && std::fabs(v.get_double()) < 9.2e18)
        return cel::Value::integer(static_cast<std::int64_t>(v.get_double()));
      return cel::Value::dbl(v.get_double());
    case boost::json::kind::int64:
      if (s->type == "number") return cel::Value::dbl(static_cast<double>(v.get_int64()));
      return cel::Value::integer(v.get_int64());
    case boost::json::kind::uint64:
      if (s->type == "number") return cel::Value::dbl(static_cast<double>(v.get_uint64()));
      return cel::Value::uinteger(v.get_uint64());
    case boost::json::kind::string: {
      std::string str(v.get_string());
      if (s->type == "string" && (s->format == "date-time" || s->format == "date" || s->format == "duration")) {
        if (s->format == "duration") {
          if (auto d = cel::parse_duration(str, nullptr)) return cel::Value::duration(*d);
        } else {
          std::string ts = s->format == "date" ? str + "T00:00:00Z" : str;
          if (auto t = cel::parse_timestamp(ts, nullptr)) return cel::Value::timestamp(*t);
        }
      }
      return cel::Value::string(std::move(str));
    }
    default: return cel::Value::from_json(v, 1);
  }
}

bool ident_char(char c, bool first) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (!first && c >= '0' && c <= '9');
}

}  // namespace

std::optional<std::string> escape_property_name(std::string_view name) {
  if (name.empty()) return std::nullopt;
  if (cel::is_reserved_word(name) || name == "true" || name == "false" || name == "null" || name == "in")
    return "__" + std::string(name) + "__";
  // Only names of [a-zA-Z_.\-/][a-zA-Z0-9_.\-/]* can be escaped.
  for (std::size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (!ident_char(c, i == 0) && c != '.' && c != '-' && c != '/' && !(i > 0 && c >= '0' && c <= '9')) return std::nullopt;
  }
  std::string out;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name.compare(i, 2, "__") == 0) {
      out += "__underscores__";
      ++i;
    } else if (name[i] == '.') {
      out += "__dot__";
    } else if (name[i] == '-') {
      out += "__dash__";
    } else if (name[i] == '/') {
      out += "__slash__";
    } else {
      out += name[i];
    }
  }
  return out;
}

cel::Value to_cel_value(const json::Value& v, const Schema* s, bool is_resource_root) {
  return convert(v, s, is_resource_root, 0);
}

}  // namespace capstan::apiserver::schema
