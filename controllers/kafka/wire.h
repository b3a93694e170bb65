// The Kafka protocol, for the few Admin requests Debian's librdkafka 2.0 has no call for
// (DescribeUserScramCredentials and AlterUserScramCredentials arrived in 2.2): the encoding of
// flexible request versions (compact strings and arrays, tagged fields) and one connection that
// sends a request and reads its response, plaintext or mutual TLS with the broker's name checked.
// Every read is bounded (response size, string and array lengths) and every wait by the timeout;
// failures throw AdminError naming the address and the request.
#pragma once

#include "controllers/kafka/cluster_admin.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace capstan::kafka::wire {

// ApiVersions' key: its response header has no tagged fields, whatever the version (KIP-511).
inline constexpr std::int16_t kApiVersions = 18;

// Appends fields in the protocol's big-endian and varint encodings.
class Writer {
 public:
  Writer& int8(std::int8_t v);
  Writer& int16(std::int16_t v);
  Writer& int32(std::int32_t v);
  Writer& int64(std::int64_t v);
  Writer& uvarint(std::uint32_t v);
  Writer& compact_string(std::string_view s);  // COMPACT_STRING and COMPACT_BYTES
  Writer& nullable_string(std::string_view s);  // NULLABLE_STRING (INT16 length), the header's client id
  Writer& compact_nullable_string(const std::optional<std::string>& s);  // nullopt: null
  Writer& boolean(bool v);
  Writer& float64(double v);
  Writer& compact_array_size(std::size_t n);
  Writer& no_tags();  // an empty tagged-field section
  const std::string& bytes() const { return out_; }

 private:
  std::string out_;
};

// Reads fields of `data`, which must outlive the reader; throws AdminError("_BAD_MSG") past the
// end or on a length beyond the data.
class Reader {
 public:
  explicit Reader(std::string_view data) : data_(data) {}
  explicit Reader(std::string&&) = delete;  // a temporary would dangle
  std::int8_t int8();
  std::int16_t int16();
  std::int32_t int32();
  std::int64_t int64();
  double float64();
  std::uint32_t uvarint();
  std::string compact_string();                   // COMPACT_STRING / COMPACT_BYTES
  std::optional<std::string> compact_nullable_string();
  std::size_t compact_array_size();               // the element count (a null array: 0)
  void skip_tags();                                // a tagged-field section, whatever it holds
  std::string_view bytes(std::size_t n);           // the next `n` bytes as they are (a tagged field's value)
  std::string_view rest() const { return data_.substr(pos_); }
  bool done() const { return pos_ == data_.size(); }

 private:
  std::string_view take(std::size_t n);
  std::string_view data_;
  std::size_t pos_ = 0;
};

// One connection to a broker. `address` ("host:port") is where the request goes and whose name
// the broker's certificate must carry; `address_map` ("host:port" -> "host:port") says where it
// leads when the manager runs outside the cluster's network (--kafka-address-map). It serves
// calls one after another (not at once); each connect and each call is bounded by `timeout`.
class Connection {
 public:
  // `connect_timeout`: the bound of connecting, when shorter than `timeout`.
  Connection(const std::string& address, const std::map<std::string, std::string>& address_map, const std::optional<ClientTls>& tls,
             std::chrono::milliseconds timeout, std::optional<std::chrono::milliseconds> connect_timeout = std::nullopt);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Sends `body` as request `api_key` at flexible `version` (request header v2) and returns the
  // response's body (after its header v1; v0 for ApiVersions). `what` names the request in errors;
  // `timeout`: this call's own bound instead of the connection's.
  std::string call(std::int16_t api_key, std::int16_t version, const std::string& body, const std::string& what,
                   std::optional<std::chrono::milliseconds> timeout = std::nullopt);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Kafka's name of an error code (RESOURCE_NOT_FOUND); "ERROR_<n>" for one librdkafka 2.0 does not know.
std::string error_name(std::int16_t code);
// Throws AdminError(<name>, "<what>: <name>: <message>") unless `code` is 0.
void throw_if_error(std::int16_t code, const std::optional<std::string>& message, const std::string& what);

}  // namespace capstan::kafka::wire
