// The public entry points: the "k8s\x00" + runtime.Unknown envelope, kind lookup, content types.
#include "apiserver/protobuf/decode.h"

#include "apiserver/protobuf/decoder.h"

#include <cctype>
#include <cstdio>

namespace capstan::apiserver::protobuf {
namespace {

constexpr std::string_view kUnknownName = "k8s.io.apimachinery.pkg.runtime.Unknown";
constexpr std::string_view kTypeMetaName = "k8s.io.apimachinery.pkg.runtime.TypeMeta";

struct Envelope {
  std::string api_version, kind, content_encoding, content_type;
  std::string_view raw;
  std::size_t raw_offset = 0;
};

std::string hex_prefix(std::string_view body) {
  std::string out;
  for (std::size_t i = 0; i < body.size() && i < 4; ++i) {
    char buf[4];
    std::snprintf(buf, sizeof buf, "%02x", static_cast<unsigned char>(body[i]));
    if (!out.empty()) out += ' ';
    out += buf;
  }
  return out;
}

std::string_view string_field(WireReader& r, const Tag& tag, std::string_view message, std::string_view name,
                              std::size_t* payload_offset = nullptr) {
  if (tag.wire != WireType::LengthDelimited) {
    throw DecodeError("protobuf: field " + std::to_string(tag.field) + " (" + std::string(name) + ") of message " +
                      std::string(message) + " has wire type " + std::to_string(static_cast<int>(tag.wire)) +
                      " (" + std::string(wire_type_name(tag.wire)) + "), expected 2 (length-delimited), at offset " +
                      std::to_string(tag.offset));
  }
  return r.read_length_delimited(payload_offset);
}

Envelope read_envelope(std::string_view body, std::size_t base) {
  if (body.size() < kMagic.size() || body.substr(0, kMagic.size()) != kMagic) {
    throw DecodeError("protobuf: body does not start with the Kubernetes protobuf magic \"k8s\\x00\" (" +
                      (body.empty() ? std::string("body is empty") : "first bytes: " + hex_prefix(body)) + ")");
  }
  Envelope env;
  WireReader r(body.substr(kMagic.size()), base + kMagic.size());
  try {
    while (!r.done()) {
      const Tag tag = r.read_tag();
      switch (tag.field) {
        case 1: {
          std::size_t at = 0;
          const auto type_meta = string_field(r, tag, kUnknownName, "typeMeta", &at);
          WireReader t(type_meta, at);
          while (!t.done()) {
            const Tag tt = t.read_tag();
            if (tt.field == 1) env.api_version = valid_utf8(string_field(t, tt, kTypeMetaName, "apiVersion"));
            else if (tt.field == 2) env.kind = valid_utf8(string_field(t, tt, kTypeMetaName, "kind"));
            else t.skip(tt.wire);
          }
          break;
        }
        case 2: {
          env.raw = string_field(r, tag, kUnknownName, "raw", &env.raw_offset);
          break;
        }
        case 3: env.content_encoding = std::string(string_field(r, tag, kUnknownName, "contentEncoding")); break;
        case 4: env.content_type = std::string(string_field(r, tag, kUnknownName, "contentType")); break;
        default: r.skip(tag.wire);
      }
    }
  } catch (const WireError& e) {
    throw DecodeError("protobuf: " + std::string(e.what()) + " in the envelope (" + std::string(kUnknownName) + ")");
  }
  if (env.kind.empty()) {
    throw DecodeError("protobuf: the envelope has no kind (apiVersion \"" + env.api_version + "\")");
  }
  if (!env.content_encoding.empty()) {
    throw DecodeError("protobuf: unsupported contentEncoding \"" + env.content_encoding + "\" for " +
                      env.api_version + " " + env.kind);
  }
  if (!env.content_type.empty() && !is_protobuf_content_type(env.content_type)) {
    throw DecodeError("protobuf: unsupported contentType \"" + env.content_type + "\" inside the envelope of " +
                      env.api_version + " " + env.kind);
  }
  return env;
}

}  // namespace

json::Value Decoder::decode_envelope(std::string_view body, std::size_t base) {
  const Envelope env = read_envelope(body, base);
  const schema::Message* m = schema::find_kind(env.api_version, env.kind);
  if (m == nullptr) {
    throw DecodeError("protobuf: unknown kind \"" + env.kind + "\" in apiVersion \"" + env.api_version +
                      "\": no protobuf schema for it");
  }
  json::Object fields;
  decode_message(env.raw, env.raw_offset, *m, fields);
  json::Object out;
  out.reserve(fields.size() + 2);
  out["kind"] = env.kind;
  out["apiVersion"] = env.api_version;
  for (auto& kv : fields) out.emplace(kv.key(), std::move(kv.value()));
  return out;
}

DecodeResult decode_with_report(std::string_view body, const DecodeOptions& options) {
  DecodeResult result;
  Decoder decoder(options, result.unknown_fields);
  result.object = decoder.decode_envelope(body, 0);
  return result;
}

json::Value decode(std::string_view body) { return decode_with_report(body).object; }

bool is_supported(std::string_view api_version, std::string_view kind) {
  return schema::find_kind(api_version, kind) != nullptr;
}

std::vector<std::string> supported_kinds() {
  std::vector<std::string> out;
  for (const auto& e : schema::kinds()) out.push_back(std::string(e.api_version) + "/" + std::string(e.kind));
  return out;
}

bool is_protobuf_content_type(std::string_view content_type) {
  auto media = content_type.substr(0, content_type.find(';'));
  while (!media.empty() && std::isspace(static_cast<unsigned char>(media.front()))) media.remove_prefix(1);
  while (!media.empty() && std::isspace(static_cast<unsigned char>(media.back()))) media.remove_suffix(1);
  if (media.size() != kContentType.size()) return false;
  for (std::size_t i = 0; i < media.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(media[i])) != kContentType[i]) return false;
  }
  return true;
}

}  // namespace capstan::apiserver::protobuf
