// Internal helpers of the typed decoders and encoders: member reads that throw DecodeError naming
// the field path, and writers that follow Go's `omitempty`. Not part of the public API.
#pragma once

#include "apis/certs/v1/common.h"
#include "runtime/json/json.h"
#include "runtime/meta/time.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::apis::certs::v1::codec {

using StringMap = std::map<std::string, std::string>;

std::string child(std::string_view path, std::string_view name);
std::string index(std::string_view path, std::size_t i);

// The value as an object; throws `<path>: expected an object, got <kind>`. Null counts as {}.
const json::Object& as_object(const json::Value& v, std::string_view path);

// Member reads: missing and null members give the zero value / nullopt (as Go's decoder does);
// a member of the wrong type throws.
const json::Value* member(const json::Object& o, std::string_view key);
std::string read_string(const json::Object& o, std::string_view key, std::string_view path);
std::optional<std::string> read_optional_string(const json::Object& o, std::string_view key, std::string_view path);
std::vector<std::string> read_strings(const json::Object& o, std::string_view key, std::string_view path);
StringMap read_string_map(const json::Object& o, std::string_view key, std::string_view path);
bool read_bool(const json::Object& o, std::string_view key, std::string_view path);
std::optional<bool> read_optional_bool(const json::Object& o, std::string_view key, std::string_view path);
std::optional<std::int64_t> read_int(const json::Object& o, std::string_view key, std::string_view path);
std::optional<std::int32_t> read_int32(const json::Object& o, std::string_view key, std::string_view path);
std::optional<std::chrono::nanoseconds> read_duration(const json::Object& o, std::string_view key, std::string_view path);
std::optional<meta::TimePoint> read_time(const json::Object& o, std::string_view key, std::string_view path);
// A `format: byte` member ([]byte in Go): base64 text decoded.
std::string read_bytes(const json::Object& o, std::string_view key, std::string_view path);
// The member as an object, or nullptr when missing/null.
const json::Object* read_object(const json::Object& o, std::string_view key, std::string_view path);
// A raw member kept as is (open sub-schemas such as podTemplate), or nullopt when missing/null.
std::optional<json::Value> read_raw(const json::Object& o, std::string_view key);

// Writers that skip empty values, like Go's `omitempty`.
void put_string(json::Object& o, std::string_view key, const std::string& s);
void put_strings(json::Object& o, std::string_view key, const std::vector<std::string>& v);
void put_string_map(json::Object& o, std::string_view key, const StringMap& m);
void put_true(json::Object& o, std::string_view key, bool b);
void put_duration(json::Object& o, std::string_view key, const std::optional<std::chrono::nanoseconds>& d);
void put_time(json::Object& o, std::string_view key, const std::optional<meta::TimePoint>& t);
void put_bytes(json::Object& o, std::string_view key, const std::string& data);

// strconv.Quote for the texts we produce: double quotes, backslash escapes for quotes, backslashes
// and control characters; printable UTF-8 kept.
std::string go_quote(std::string_view s);

// Why Go's time.ParseDuration rejects `s` ("time: unknown unit \"d\" in duration \"90d\""), or
// empty when it parses.
std::string go_duration_error(std::string_view s);

}  // namespace capstan::apis::certs::v1::codec
