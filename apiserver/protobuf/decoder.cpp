#include "apiserver/protobuf/decoder.h"

#include "runtime/meta/base64.h"
#include "runtime/meta/time.h"

#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>

namespace capstan::apiserver::protobuf {

using schema::Card;
using schema::Field;
using schema::Message;
using schema::Special;
using schema::Type;

namespace {

WireType wire_type_of(Type type) {
  switch (type) {
    case Type::Bool:
    case Type::Int32:
    case Type::Int64: return WireType::Varint;
    case Type::Double: return WireType::Fixed64;
    case Type::Float: return WireType::Fixed32;
    case Type::String:
    case Type::Bytes:
    case Type::Message: break;
  }
  return WireType::LengthDelimited;
}

bool is_numeric(Type type) { return wire_type_of(type) != WireType::LengthDelimited; }

bool is_zero(const json::Value& v) {
  switch (v.kind()) {
    case boost::json::kind::string: return v.get_string().empty();
    case boost::json::kind::int64: return v.get_int64() == 0;
    case boost::json::kind::uint64: return v.get_uint64() == 0;
    case boost::json::kind::double_: return v.get_double() == 0.0;
    case boost::json::kind::bool_: return !v.get_bool();
    default: return false;
  }
}

std::string wire_desc(WireType w) {
  return std::to_string(static_cast<int>(w)) + " (" + std::string(wire_type_name(w)) + ")";
}

// The JSON value of an absent map value or of a message without fields set.
json::Value empty_value(const Field& f) {
  if (f.type == Type::String || f.type == Type::Bytes) return json::String();
  if (is_numeric(f.type)) return f.type == Type::Bool ? json::Value(false) : json::Value(std::int64_t{0});
  return json::Object();
}

// Moves the members of `src` named by `m`'s fields into `dst`, in schema order; inlined messages
// contribute their own fields at their position.
void order_into(const Message& m, json::Object& src, json::Object& dst) {
  for (const auto& f : m.fields) {
    if (f.inlined()) {
      order_into(*f.message, src, dst);
      continue;
    }
    auto it = src.find(f.json);
    if (it == src.end()) continue;
    dst.emplace(f.json, std::move(it->value()));
    src.erase(it);
  }
}

// Go's time range that system_clock (int64 nanoseconds) can represent: years 1678..2261.
constexpr std::int64_t kMaxTimeSeconds = 9'000'000'000;

}  // namespace

std::string valid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  const auto n = s.size();
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  auto cont = [&](std::size_t k) { return k < n && (byte(k) & 0xc0) == 0x80; };
  while (i < n) {
    const unsigned char c = byte(i);
    std::size_t len = 0;
    if (c < 0x80) {
      len = 1;
    } else if (c >= 0xc2 && c <= 0xdf) {
      len = cont(i + 1) ? 2 : 0;
    } else if (c >= 0xe0 && c <= 0xef) {
      const unsigned char lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
      len = (i + 1 < n && byte(i + 1) >= lo && byte(i + 1) <= hi && cont(i + 2)) ? 3 : 0;
    } else if (c >= 0xf0 && c <= 0xf4) {
      const unsigned char lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
      len = (i + 1 < n && byte(i + 1) >= lo && byte(i + 1) <= hi && cont(i + 2) && cont(i + 3)) ? 4 : 0;
    }
    if (len == 0) {
      out += "\xef\xbf\xbd";
      ++i;
    } else {
      out.append(s.substr(i, len));
      i += len;
    }
  }
  return out;
}

std::string Decoder::path() const {
  std::string p;
  for (const auto& seg : path_) {
    if (!p.empty() && seg.front() != '[') p += '.';
    p += seg;
  }
  return p;
}

void Decoder::fail(const std::string& what) const {
  const auto p = path();
  throw DecodeError("protobuf: " + what + (p.empty() ? std::string() : " (at " + p + ")"));
}

void Decoder::wrong_wire_type(const Tag& tag, const Field& f, const Message& m, WireType expected) const {
  fail("field " + std::to_string(tag.field) + " (" + std::string(f.json.empty() ? "inline" : f.json) +
       ") of message " + std::string(m.name) + " has wire type " + wire_desc(tag.wire) + ", expected " +
       wire_desc(expected) + ", at offset " + std::to_string(tag.offset));
}

void Decoder::decode_message(std::string_view data, std::size_t base, const Message& m, json::Object& out) {
  if (++depth_ > kMaxDepth) fail("messages nested deeper than " + std::to_string(kMaxDepth) + " levels");
  decode_fields(data, base, m, out);
  json::Object ordered;
  ordered.reserve(out.size());
  order_into(m, out, ordered);
  for (auto& kv : out) ordered.emplace(kv.key(), std::move(kv.value()));  // defensive: nothing expected
  out = std::move(ordered);
  --depth_;
}

void Decoder::decode_fields(std::string_view data, std::size_t base, const Message& m, json::Object& out) {
  WireReader r(data, base);
  try {
    while (!r.done()) {
      const Tag tag = r.read_tag();
      const Field* f = m.find(tag.field);
      if (f == nullptr) {
        const std::string what = "unknown field " + std::to_string(tag.field) + " (" +
                                 std::string(wire_type_name(tag.wire)) + ") of message " + std::string(m.name);
        if (options_.reject_unknown_fields) fail(what + " at offset " + std::to_string(tag.offset));
        const auto p = path();
        unknown_.push_back((p.empty() ? std::string(".") : p) + ": " + what);
        r.skip(tag.wire);
        continue;
      }
      decode_field(r, tag, *f, m, out);
    }
  } catch (const WireError& e) {
    fail(std::string(e.what()) + " in message " + std::string(m.name));
  }
}

void Decoder::decode_field(WireReader& r, const Tag& tag, const Field& f, const Message& m, json::Object& out) {
  const WireType expected = wire_type_of(f.type);

  if (f.card == Card::Map) {
    if (tag.wire != WireType::LengthDelimited) wrong_wire_type(tag, f, m, WireType::LengthDelimited);
    std::size_t at = 0;
    const auto entry = r.read_length_delimited(&at);
    auto& slot = out[f.json];
    if (!slot.is_object()) slot = json::Object();
    path_.emplace_back(f.json);
    read_map_entry(entry, at, f, slot.get_object());
    path_.pop_back();
    return;
  }

  if (f.card == Card::Repeated) {
    auto& slot = out[f.json];
    if (!slot.is_array()) slot = json::Array();
    auto& arr = slot.get_array();
    if (is_numeric(f.type) && tag.wire == WireType::LengthDelimited) {  // packed
      std::size_t at = 0;
      const auto packed = r.read_length_delimited(&at);
      WireReader pr(packed, at);
      const Tag element{tag.field, expected, at};
      while (!pr.done()) arr.push_back(read_scalar(pr, element, f, m));
      return;
    }
    if (tag.wire != expected) wrong_wire_type(tag, f, m, expected);
    if (f.type != Type::Message) {
      arr.push_back(read_scalar(r, tag, f, m));
      return;
    }
    std::size_t at = 0;
    const auto data = r.read_length_delimited(&at);
    path_.emplace_back(f.json);
    std::string index = "[";  // (built piecewise: GCC 12 warns falsely on "[" + std::to_string(...))
    index += std::to_string(arr.size());
    index += ']';
    path_.push_back(std::move(index));
    arr.push_back(read_message_value(data, at, *f.message));
    path_.pop_back();
    path_.pop_back();
    return;
  }

  if (tag.wire != expected) wrong_wire_type(tag, f, m, expected);
  if (f.type != Type::Message) {
    json::Value v = read_scalar(r, tag, f, m);
    if (!f.keep_zero() && is_zero(v)) {
      out.erase(f.json);  // a later zero overrides an earlier value, as in Go
    } else {
      out[f.json] = std::move(v);
    }
    return;
  }

  std::size_t at = 0;
  const auto data = r.read_length_delimited(&at);
  if (f.inlined()) {
    decode_fields(data, at, *f.message, out);
    return;
  }
  path_.emplace_back(f.json);
  if (f.message->special != Special::None) {
    out[f.json] = decode_special(data, at, *f.message);
  } else {
    auto& slot = out[f.json];  // a repeated occurrence merges into the first, as in Go
    if (!slot.is_object()) slot = json::Object();
    decode_message(data, at, *f.message, slot.get_object());
  }
  path_.pop_back();
}

json::Value Decoder::read_scalar(WireReader& r, const Tag& tag, const Field& f, const Message& m) {
  switch (f.type) {
    case Type::String: return json::String(valid_utf8(r.read_length_delimited()));
    case Type::Bytes: return json::String(meta::base64_encode(r.read_length_delimited()));
    case Type::Bool: return r.read_varint() != 0;
    case Type::Int32:  // int32(v): the low 32 bits, sign-extended
      return static_cast<std::int64_t>(static_cast<std::int32_t>(static_cast<std::uint32_t>(r.read_varint())));
    case Type::Int64: return static_cast<std::int64_t>(r.read_varint());
    case Type::Double:
    case Type::Float: {
      const double d = f.type == Type::Double ? std::bit_cast<double>(r.read_fixed64())
                                              : static_cast<double>(std::bit_cast<float>(r.read_fixed32()));
      if (!std::isfinite(d)) {
        fail("field " + std::to_string(tag.field) + " (" + std::string(f.json) + ") of message " +
             std::string(m.name) + " is not a finite number, at offset " + std::to_string(tag.offset));
      }
      return d;
    }
    case Type::Message: break;
  }
  fail("internal: field " + std::string(f.json) + " is not a scalar");
}

json::Value Decoder::read_message_value(std::string_view data, std::size_t base, const Message& m) {
  if (m.special != Special::None) return decode_special(data, base, m);
  json::Object obj;
  decode_message(data, base, m, obj);
  return obj;
}

void Decoder::read_map_entry(std::string_view data, std::size_t base, const Field& f, json::Object& map) {
  static constexpr Field kKey = schema::str(1, "key");
  const std::string entry_name = "entry of map " + std::string(f.json);
  const Message entry_message{entry_name, {}};
  std::string key;
  json::Value value;
  bool have_value = false;
  WireReader r(data, base);
  try {
    while (!r.done()) {
      const Tag tag = r.read_tag();
      if (tag.field == 1) {
        if (tag.wire != WireType::LengthDelimited) wrong_wire_type(tag, kKey, entry_message, WireType::LengthDelimited);
        key = valid_utf8(r.read_length_delimited());
      } else if (tag.field == 2) {
        const WireType expected = wire_type_of(f.type);
        if (tag.wire != expected) wrong_wire_type(tag, f, entry_message, expected);
        if (f.type == Type::Message) {
          std::size_t at = 0;
          const auto v = r.read_length_delimited(&at);
          value = read_message_value(v, at, *f.message);
        } else {
          value = read_scalar(r, tag, f, entry_message);
        }
        have_value = true;
      } else {
        r.skip(tag.wire);
      }
    }
  } catch (const WireError& e) {
    fail(std::string(e.what()) + " in an " + entry_name);
  }
  if (!have_value) {
    value = f.type == Type::Message && f.message->special != Special::None ? decode_special({}, base, *f.message)
                                                                            : empty_value(f);
  }
  map[key] = std::move(value);
}

json::Value Decoder::decode_special(std::string_view data, std::size_t base, const Message& m) {
  std::int64_t seconds = 0, nanos = 0, type = 0, int_val = 0;
  std::string str_val;
  std::string_view raw;
  std::size_t raw_at = base;
  json::Array items;
  WireReader r(data, base);
  try {
    while (!r.done()) {
      const Tag tag = r.read_tag();
      const Field* f = m.find(tag.field);
      if (f == nullptr) {
        r.skip(tag.wire);
        continue;
      }
      const WireType expected = wire_type_of(f->type);
      if (tag.wire != expected) wrong_wire_type(tag, *f, m, expected);
      switch (m.special) {
        case Special::Time:
        case Special::MicroTime:
          if (tag.field == 1) seconds = static_cast<std::int64_t>(r.read_varint());
          else nanos = static_cast<std::int32_t>(static_cast<std::uint32_t>(r.read_varint()));
          break;
        case Special::Duration: nanos = static_cast<std::int64_t>(r.read_varint()); break;
        case Special::Quantity: str_val = valid_utf8(r.read_length_delimited()); break;
        case Special::IntOrString:
          if (tag.field == 1) type = static_cast<std::int64_t>(r.read_varint());
          else if (tag.field == 2) int_val = static_cast<std::int32_t>(static_cast<std::uint32_t>(r.read_varint()));
          else str_val = valid_utf8(r.read_length_delimited());
          break;
        case Special::RawExtension:
        case Special::FieldsV1: raw = r.read_length_delimited(&raw_at); break;
        case Special::StringList: items.emplace_back(valid_utf8(r.read_length_delimited())); break;
        case Special::None: r.skip(tag.wire); break;
      }
    }
  } catch (const WireError& e) {
    fail(std::string(e.what()) + " in message " + std::string(m.name));
  }

  switch (m.special) {
    case Special::Time:
    case Special::MicroTime: {
      if (data.empty()) return nullptr;  // the zero time marshals to an empty message
      if (seconds > kMaxTimeSeconds || seconds < -kMaxTimeSeconds) {
        fail("time of " + std::to_string(seconds) + " seconds since the epoch in " + std::string(m.name) +
             " is outside the supported range");
      }
      meta::TimePoint t{std::chrono::duration_cast<meta::Clock::duration>(std::chrono::seconds(seconds))};
      if (m.special == Special::Time) return json::String(meta::format_rfc3339(t));  // Go drops the nanos
      t += std::chrono::duration_cast<meta::Clock::duration>(std::chrono::microseconds(nanos / 1000));
      return json::String(meta::format_rfc3339_micro(t));
    }
    case Special::Duration: return json::String(meta::format_go_duration(std::chrono::nanoseconds(nanos)));
    case Special::Quantity: return json::String(str_val.empty() ? std::string("0") : str_val);
    case Special::IntOrString:
      if (type == 0) return int_val;
      if (type == 1) return json::String(str_val);
      fail("IntOrString has invalid type " + std::to_string(type) + " (0 is int, 1 is string)");
    case Special::RawExtension:
    case Special::FieldsV1: return decode_embedded(raw, raw_at, m);
    case Special::StringList:
      if (items.empty()) return nullptr;
      return items;
    case Special::None: break;
  }
  return nullptr;
}

json::Value Decoder::decode_embedded(std::string_view raw, std::size_t base, const Message& m) {
  if (raw.empty()) return nullptr;
  if (raw.size() >= kMagic.size() && raw.substr(0, kMagic.size()) == kMagic) return decode_envelope(raw, base);
  std::string error;
  auto parsed = json::try_parse(raw, &error);
  if (!parsed) {
    fail("the raw bytes of " + std::string(m.name) + " at offset " + std::to_string(base) +
         " are neither JSON nor a protobuf object: " + error);
  }
  return std::move(*parsed);
}

}  // namespace capstan::apiserver::protobuf
