// Building, reading and serialising JSON documents (Boost.JSON), plus small path helpers.
// The hot decode path (lists, watch events) lives in decode.h and uses simdjson instead.
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/storage_ptr.hpp>
#include <boost/json/string.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace capstan::json {

using Value = boost::json::value;
using Object = boost::json::object;
using Array = boost::json::array;
using String = boost::json::string;
// Where a value's memory comes from; default: the heap.
using storage_ptr = boost::json::storage_ptr;

// Thrown when text is not valid JSON; the message names what was being parsed and where.
class ParseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses `text`; `what` names the document in the error message ("watch event", "Certificate default/web").
Value parse(std::string_view text, std::string_view what = "document");
// Like parse() but returns nullopt and fills `error` instead of throwing.
std::optional<Value> try_parse(std::string_view text, std::string* error = nullptr);
// Parses into `storage`: a document read and dropped within one request parses into an arena
// (boost::json::make_shared_resource<boost::json::monotonic_resource>), one allocation instead
// of one per member. Values copied from it share the arena and keep it alive.
std::optional<Value> try_parse(std::string_view text, storage_ptr storage, std::string* error = nullptr);
std::string serialize(const Value& v);
// Serialises with two-space indentation (for humans: CLI output, golden files).
std::string serialize_pretty(const Value& v);

// The JSON type of a value as JSON Schema names it ("object", "array", "string", "number",
// "boolean", "null"), and as Go's encoding/json does in unmarshal errors ("bool" for booleans).
std::string_view type_name(const Value& v);
std::string_view go_type_name(const Value& v);

using Path = std::initializer_list<std::string_view>;

// Walks object members; returns nullptr when a step is missing or not an object.
const Value* find(const Value& v, Path path);
Value* find(Value& v, Path path);
// Typed reads with a default when the member is missing or of another type.
std::string_view get_string(const Value& v, Path path, std::string_view fallback = {});
std::optional<std::int64_t> get_int(const Value& v, Path path);
bool get_bool(const Value& v, Path path, bool fallback = false);
const Object* get_object(const Value& v, Path path);
const Array* get_array(const Value& v, Path path);
// The same reads starting from an object. These overloads matter: without them an Object
// argument would convert to a temporary Value, and a returned view would dangle.
const Value* find(const Object& o, Path path);
std::string_view get_string(const Object& o, Path path, std::string_view fallback = {});
std::optional<std::int64_t> get_int(const Object& o, Path path);
bool get_bool(const Object& o, Path path, bool fallback = false);
const Object* get_object(const Object& o, Path path);
const Array* get_array(const Object& o, Path path);

// Returns the object at `path`, creating (or replacing non-objects with) empty objects on the way.
Object& ensure_object(Value& v, Path path);
// Removes the member at `path` if present; returns whether it was there.
bool erase(Value& v, Path path);

// RFC 6901 JSON pointers.
std::string pointer_escape(std::string_view token);
std::string pointer_unescape(std::string_view token);

// A number member as a double whatever its JSON representation (int64, uint64 or double).
std::optional<double> as_number(const Value& v);

}  // namespace capstan::json
