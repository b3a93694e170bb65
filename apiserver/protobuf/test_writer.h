// Test-only: a tiny protobuf writer to hand-encode messages from the same field numbers the schema
// tables use, and the Kubernetes envelope around them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace capstan::apiserver::protobuf::testing {

class Writer {
 public:
  Writer& tag(std::uint32_t field, int wire) {
    put_varint((static_cast<std::uint64_t>(field) << 3) | static_cast<std::uint64_t>(wire));
    return *this;
  }
  Writer& varint(std::uint32_t field, std::uint64_t v) {
    tag(field, 0);
    put_varint(v);
    return *this;
  }
  // int32/int64 are plain varints; negative values are sign-extended to 64 bits (10 bytes).
  Writer& int64(std::uint32_t field, std::int64_t v) { return varint(field, static_cast<std::uint64_t>(v)); }
  Writer& boolean(std::uint32_t field, bool v) { return varint(field, v ? 1 : 0); }
  Writer& str(std::uint32_t field, std::string_view s) {
    tag(field, 2);
    put_varint(s.size());
    data_.append(s);
    return *this;
  }
  Writer& msg(std::uint32_t field, const Writer& m) { return str(field, m.data_); }
  Writer& fixed64(std::uint32_t field, std::uint64_t v) {
    tag(field, 1);
    for (int i = 0; i < 8; ++i) data_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
    return *this;
  }
  Writer& fixed32(std::uint32_t field, std::uint32_t v) {
    tag(field, 5);
    for (int i = 0; i < 4; ++i) data_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
    return *this;
  }
  // A map<string, string> entry {1: key, 2: value}.
  Writer& entry(std::uint32_t field, std::string_view key, std::string_view value) {
    return msg(field, Writer().str(1, key).str(2, value));
  }
  Writer& entry(std::uint32_t field, std::string_view key, const Writer& value) {
    return msg(field, Writer().str(1, key).msg(2, value));
  }
  Writer& raw(std::string_view bytes) {
    data_.append(bytes);
    return *this;
  }
  Writer& put_varint(std::uint64_t v) {
    while (v >= 0x80) {
      data_.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    data_.push_back(static_cast<char>(v));
    return *this;
  }

  const std::string& data() const { return data_; }

 private:
  std::string data_;
};

// "k8s\x00" + runtime.Unknown{typeMeta{apiVersion, kind}, raw, contentEncoding "", contentType ""},
// as client-go writes it.
inline std::string envelope(std::string_view api_version, std::string_view kind, const Writer& object) {
  std::string body("k8s\0", 4);
  body += Writer()
              .msg(1, Writer().str(1, api_version).str(2, kind))
              .str(2, object.data())
              .str(3, "")
              .str(4, "")
              .data();
  return body;
}

}  // namespace capstan::apiserver::protobuf::testing
