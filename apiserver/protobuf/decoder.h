// Internal: decodes one protobuf message into JSON following a schema (see decode.h for the rules).
#pragma once

#include "apiserver/protobuf/decode.h"
#include "apiserver/protobuf/schema.h"
#include "apiserver/protobuf/wire.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::apiserver::protobuf {

class Decoder {
 public:
  static constexpr int kMaxDepth = 64;

  Decoder(const DecodeOptions& options, std::vector<std::string>& unknown_fields)
      : options_(options), unknown_(unknown_fields) {}

  // Decodes `data` (whose first byte is at absolute offset `base`) as message `m` into `out`,
  // merging with what `out` already holds, and leaves `out`'s members in schema order.
  void decode_message(std::string_view data, std::size_t base, const schema::Message& m, json::Object& out);

  // A whole body: magic + runtime.Unknown envelope. Used for the top level and for RawExtensions
  // that carry a nested protobuf object.
  json::Value decode_envelope(std::string_view body, std::size_t base);

 private:
  void decode_fields(std::string_view data, std::size_t base, const schema::Message& m, json::Object& out);
  void decode_field(WireReader& r, const Tag& tag, const schema::Field& f, const schema::Message& m,
                    json::Object& out);
  json::Value read_scalar(WireReader& r, const Tag& tag, const schema::Field& f, const schema::Message& m);
  json::Value read_message_value(std::string_view data, std::size_t base, const schema::Message& m);
  void read_map_entry(std::string_view data, std::size_t base, const schema::Field& f, json::Object& map);
  json::Value decode_special(std::string_view data, std::size_t base, const schema::Message& m);
  json::Value decode_embedded(std::string_view raw, std::size_t base, const schema::Message& m);

  [[noreturn]] void fail(const std::string& what) const;
  [[noreturn]] void wrong_wire_type(const Tag& tag, const schema::Field& f, const schema::Message& m,
                                    WireType expected) const;
  std::string path() const;

  const DecodeOptions& options_;
  std::vector<std::string>& unknown_;
  std::vector<std::string> path_;  // "spec", "containers", "[0]", ...
  int depth_ = 0;
};

// Copies `s`, replacing each invalid UTF-8 sequence with U+FFFD (as Go's encoding/json does).
std::string valid_utf8(std::string_view s);

}  // namespace capstan::apiserver::protobuf
