// openapi.v2 (gnostic OpenAPIv2.proto) encoding of a Swagger 2.0 document: Document{swagger=1,
// info=2, paths=8, definitions=9}, Schema{_ref=1, format=2, title=3, description=4, default=5,
// multiple_of=6, maximum=7, exclusive_maximum=8, minimum=9, exclusive_minimum=10, max_length=11,
// min_length=12, pattern=13, max_items=14, min_items=15, unique_items=16, max_properties=17,
// min_properties=18, required=19, enum=20, additional_properties=21, type=22, items=23, all_of=24,
// properties=25, read_only=27, example=30, vendor_extension=31}.
#include "apiserver/swagger/v2.h"

#include <cstdint>
#include <cstring>

namespace capstan::apiserver::swagger {
namespace {

class Writer {
 public:
  void varint(std::uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<char>(v));
  }
  void tag(std::uint32_t field, std::uint32_t wire) { varint((static_cast<std::uint64_t>(field) << 3) | wire); }
  void bytes(std::uint32_t field, std::string_view b) {
    tag(field, 2);
    varint(b.size());
    out_.append(b);
  }
  void string(std::uint32_t field, std::string_view s) {
    if (!s.empty()) bytes(field, s);
  }
  void boolean(std::uint32_t field, bool b) {
    if (!b) return;
    tag(field, 0);
    varint(1);
  }
  void int64(std::uint32_t field, std::int64_t v) {
    if (v == 0) return;
    tag(field, 0);
    varint(static_cast<std::uint64_t>(v));
  }
  void dbl(std::uint32_t field, double d) {
    if (d == 0) return;
    tag(field, 1);
    std::uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    for (int i = 0; i < 8; ++i) out_.push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
  }
  void message(std::uint32_t field, const Writer& w) { bytes(field, w.out_); }
  const std::string& str() const { return out_; }

 private:
  std::string out_;
};

// Any{yaml=2}: the value's JSON text, which YAML readers take as is.
Writer any(const json::Value& v) {
  Writer w;
  w.bytes(2, json::serialize(v));
  return w;
}

Writer named_any(std::string_view name, const json::Value& v) {
  Writer w;
  w.string(1, name);
  w.message(2, any(v));
  return w;
}

Writer schema(const json::Value& v);

Writer named_schema(std::string_view name, const json::Value& v) {
  Writer w;
  w.string(1, name);
  w.message(2, schema(v));
  return w;
}

std::int64_t as_int(const json::Value& v) {
  if (v.is_int64()) return v.get_int64();
  if (v.is_uint64()) return static_cast<std::int64_t>(v.get_uint64());
  if (v.is_double()) return static_cast<std::int64_t>(v.get_double());
  return 0;
}

double as_double(const json::Value& v) { return json::as_number(v).value_or(0); }

Writer schema(const json::Value& v) {
  Writer w;
  const auto* o = v.if_object();
  if (!o) return w;
  auto str = [&](std::string_view k) -> std::string_view {
    const auto* m = o->if_contains(k);
    return m && m->is_string() ? std::string_view(m->get_string()) : std::string_view();
  };
  auto has = [&](std::string_view k) { return o->if_contains(k) != nullptr; };
  auto get = [&](std::string_view k) -> const json::Value& { return o->at(k); };
  w.string(1, str("$ref"));
  w.string(2, str("format"));
  w.string(3, str("title"));
  w.string(4, str("description"));
  if (has("default")) w.message(5, any(get("default")));
  if (has("multipleOf")) w.dbl(6, as_double(get("multipleOf")));
  if (has("maximum")) w.dbl(7, as_double(get("maximum")));
  if (has("exclusiveMaximum")) w.boolean(8, get("exclusiveMaximum").is_bool() && get("exclusiveMaximum").get_bool());
  if (has("minimum")) w.dbl(9, as_double(get("minimum")));
  if (has("exclusiveMinimum")) w.boolean(10, get("exclusiveMinimum").is_bool() && get("exclusiveMinimum").get_bool());
  if (has("maxLength")) w.int64(11, as_int(get("maxLength")));
  if (has("minLength")) w.int64(12, as_int(get("minLength")));
  w.string(13, str("pattern"));
  if (has("maxItems")) w.int64(14, as_int(get("maxItems")));
  if (has("minItems")) w.int64(15, as_int(get("minItems")));
  if (has("uniqueItems")) w.boolean(16, get("uniqueItems").is_bool() && get("uniqueItems").get_bool());
  if (has("maxProperties")) w.int64(17, as_int(get("maxProperties")));
  if (has("minProperties")) w.int64(18, as_int(get("minProperties")));
  if (const auto* req = o->if_contains("required"); req && req->is_array())
    for (const auto& r : req->get_array())
      if (r.is_string()) w.bytes(19, r.get_string());
  if (const auto* en = o->if_contains("enum"); en && en->is_array())
    for (const auto& e : en->get_array()) w.message(20, any(e));
  if (const auto* ap = o->if_contains("additionalProperties")) {
    Writer item;  // AdditionalPropertiesItem{schema=1 | boolean=2}
    if (ap->is_bool()) {
      item.tag(2, 0);
      item.varint(ap->get_bool() ? 1 : 0);
    } else {
      item.message(1, schema(*ap));
    }
    w.message(21, item);
  }
  if (const auto* t = o->if_contains("type")) {
    Writer type;  // TypeItem{repeated value=1}
    if (t->is_string()) type.bytes(1, t->get_string());
    else if (t->is_array())
      for (const auto& e : t->get_array())
        if (e.is_string()) type.bytes(1, e.get_string());
    w.message(22, type);
  }
  if (const auto* items = o->if_contains("items")) {
    Writer it;  // ItemsItem{repeated schema=1}
    if (items->is_array())
      for (const auto& e : items->get_array()) it.message(1, schema(e));
    else
      it.message(1, schema(*items));
    w.message(23, it);
  }
  if (const auto* all = o->if_contains("allOf"); all && all->is_array())
    for (const auto& e : all->get_array()) w.message(24, schema(e));
  if (const auto* props = o->if_contains("properties"); props && props->is_object()) {
    Writer p;  // Properties{repeated NamedSchema additional_properties=1}
    for (const auto& kv : props->get_object()) p.message(1, named_schema(kv.key(), kv.value()));
    w.message(25, p);
  }
  if (has("readOnly")) w.boolean(27, get("readOnly").is_bool() && get("readOnly").get_bool());
  if (has("example")) w.message(30, any(get("example")));
  for (const auto& kv : *o)
    if (kv.key().starts_with("x-")) w.message(31, named_any(kv.key(), kv.value()));
  return w;
}

}  // namespace

std::string to_protobuf(const json::Value& doc) {
  Writer w;
  w.string(1, json::get_string(doc, {"swagger"}));
  Writer info;  // Info{title=1, version=2}
  info.string(1, json::get_string(doc, {"info", "title"}));
  info.string(2, json::get_string(doc, {"info", "version"}));
  w.message(2, info);
  w.message(8, Writer{});  // Paths
  Writer defs;  // Definitions{repeated NamedSchema additional_properties=1}
  if (const auto* d = json::get_object(doc, {"definitions"}))
    for (const auto& kv : *d) defs.message(1, named_schema(kv.key(), kv.value()));
  w.message(9, defs);
  return w.str();
}

}  // namespace capstan::apiserver::swagger
