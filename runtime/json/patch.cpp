#include "runtime/json/patch.h"

#include <boost/json/serialize.hpp>

#include <charconv>
#include <cmath>
#include <utility>
#include <vector>

namespace capstan::json {

// ---- PatchError -----------------------------------------------------------------------------------

PatchError::PatchError(Kind kind, std::string detail, std::string status_message)
    : std::runtime_error(detail), kind_(kind), status_message_(status_message.empty() ? std::move(detail) : std::move(status_message)) {}

int PatchError::code() const noexcept {
  switch (kind_) {
    case Kind::BadRequest: return 400;
    case Kind::Invalid: return 422;
    case Kind::Internal: return 500;
  }
  return 500;
}

std::string_view PatchError::reason() const noexcept {
  switch (kind_) {
    case Kind::BadRequest: return "BadRequest";
    case Kind::Invalid: return "Invalid";
    case Kind::Internal: return "";
  }
  return "";
}

// ---- equality -------------------------------------------------------------------------------------

namespace {

bool is_number(const Value& v) { return v.is_int64() || v.is_uint64() || v.is_double(); }

bool numbers_equal(const Value& a, const Value& b) {
  if (a.is_double() || b.is_double()) return *as_number(a) == *as_number(b);
  if (a.is_int64() && b.is_int64()) return a.get_int64() == b.get_int64();
  if (a.is_uint64() && b.is_uint64()) return a.get_uint64() == b.get_uint64();
  const Value& s = a.is_int64() ? a : b;  // one int64, one uint64
  const Value& u = a.is_int64() ? b : a;
  return s.get_int64() >= 0 && static_cast<std::uint64_t>(s.get_int64()) == u.get_uint64();
}

}  // namespace

namespace {

// What an API server leaves out of what it stores (Go's omitempty): an empty map, list or string.
bool dropped_when_stored(const Value& v) {
  return v.is_null() || (v.is_object() && v.get_object().empty()) || (v.is_array() && v.get_array().empty()) ||
         (v.is_string() && v.get_string().empty());
}

// `want` against `have`: equal, or (subset) every member `want` has, `have` holds alike.
bool compare(const Value& have, const Value& want, bool subset) {
  if (is_number(have) && is_number(want)) return numbers_equal(have, want);
  if (have.kind() != want.kind()) return false;
  switch (have.kind()) {
    case boost::json::kind::object: {
      const auto& oh = have.get_object();
      const auto& ow = want.get_object();
      if (!subset && oh.size() != ow.size()) return false;
      for (const auto& kv : ow) {
        const Value* other = oh.if_contains(kv.key());
        if (!other && subset && dropped_when_stored(kv.value())) continue;
        if (!other || !compare(*other, kv.value(), subset)) return false;
      }
      return true;
    }
    case boost::json::kind::array: {
      const auto& ah = have.get_array();
      const auto& aw = want.get_array();
      if (ah.size() != aw.size()) return false;
      for (std::size_t i = 0; i < ah.size(); ++i) {
        if (!compare(ah[i], aw[i], subset)) return false;
      }
      return true;
    }
    case boost::json::kind::string: return have.get_string() == want.get_string();
    case boost::json::kind::bool_: return have.get_bool() == want.get_bool();
    case boost::json::kind::null: return true;
    default: return false;
  }
}

}  // namespace

bool deep_equal(const Value& a, const Value& b) { return compare(a, b, false); }

bool contains(const Value& have, const Value& want) { return compare(have, want, true); }

// ---- RFC 6902 -------------------------------------------------------------------------------------

namespace {

constexpr std::string_view kRejected = "the server rejected our request due to an error in our request";

// An operation that does not apply: the message is the json-patch library's.
struct OpFailure {
  std::string message;
};

[[noreturn]] void fail(std::string message) { throw OpFailure{std::move(message)}; }

std::vector<std::string> split_pointer(std::string_view path) {
  std::vector<std::string> tokens;
  std::size_t start = 1;
  while (true) {
    std::size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) {
      tokens.push_back(pointer_unescape(path.substr(start)));
      break;
    }
    tokens.push_back(pointer_unescape(path.substr(start, slash - start)));
    start = slash + 1;
  }
  return tokens;
}

// strconv.Atoi: optional sign then decimal digits.
std::optional<long long> parse_index(std::string_view s) {
  if (s.empty()) return std::nullopt;
  std::string_view digits = s;
  bool negative = false;
  if (digits.front() == '+' || digits.front() == '-') {
    negative = digits.front() == '-';
    digits.remove_prefix(1);
  }
  if (digits.empty()) return std::nullopt;
  long long value = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) return std::nullopt;
  return negative ? -value : value;
}

std::string invalid_index(long long idx) {
  return "Unable to access invalid index: " + std::to_string(idx) + ": invalid index referenced";
}

// The container holding the target of `path` and the final (unescaped) token, or nullptr when an
// intermediate step is missing or not a container (json-patch's findObject).
Value* find_parent(Value& doc, std::string_view path, std::string& key) {
  if (path.empty() || path.front() != '/') return nullptr;
  auto tokens = split_pointer(path);
  Value* cur = &doc;
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (auto* obj = cur->if_object()) {
      auto it = obj->find(tokens[i]);
      if (it == obj->end() || it->value().is_null()) return nullptr;
      cur = &it->value();
    } else if (auto* arr = cur->if_array()) {
      auto idx = parse_index(tokens[i]);
      if (!idx) return nullptr;
      long long n = static_cast<long long>(arr->size());
      long long k = *idx < 0 ? *idx + n : *idx;
      if (k < 0 || k >= n || (*arr)[static_cast<std::size_t>(k)].is_null()) return nullptr;
      cur = &(*arr)[static_cast<std::size_t>(k)];
    } else {
      return nullptr;
    }
  }
  if (!cur->is_object() && !cur->is_array()) return nullptr;
  key = tokens.back();
  return cur;
}

// Resolves an existing array index for get/replace/remove; throws with json-patch's wording.
std::size_t existing_index(const Array& arr, const std::string& key) {
  auto idx = parse_index(key);
  if (!idx) fail("strconv.Atoi: parsing \"" + key + "\": invalid syntax");
  long long n = static_cast<long long>(arr.size());
  long long k = *idx;
  if (k < 0) {
    if (k < -n) fail(invalid_index(*idx));
    k += n;
  }
  if (k >= n) fail(invalid_index(*idx));
  return static_cast<std::size_t>(k);
}

// The value at key in container, or nullptr when an object member is missing; throws for bad indices.
Value* get_in(Value& container, const std::string& key) {
  if (auto* obj = container.if_object()) {
    auto it = obj->find(key);
    return it == obj->end() ? nullptr : &it->value();
  }
  auto& arr = container.get_array();
  return &arr[existing_index(arr, key)];
}

void add_in(Value& container, const std::string& key, Value value) {
  if (auto* obj = container.if_object()) {
    (*obj)[key] = std::move(value);
    return;
  }
  auto& arr = container.get_array();
  if (key == "-") {
    arr.push_back(std::move(value));
    return;
  }
  auto idx = parse_index(key);
  if (!idx) fail("value was not a proper array index: '" + key + "'");
  long long size = static_cast<long long>(arr.size()) + 1;
  long long k = *idx;
  if (k >= size) fail(invalid_index(*idx));
  if (k < 0) {
    if (k < -size) fail(invalid_index(*idx));
    k += size;
  }
  arr.insert(arr.begin() + k, std::move(value));
}

void remove_in(Value& container, const std::string& key) {
  if (auto* obj = container.if_object()) {
    if (obj->erase(key) == 0) fail("Unable to remove nonexistent key: " + key + ": missing value");
    return;
  }
  auto& arr = container.get_array();
  arr.erase(arr.begin() + static_cast<std::ptrdiff_t>(existing_index(arr, key)));
}

const Value* member(const Object& op, std::string_view name) { return op.if_contains(name); }

// The string member `name`, or nullopt when it is missing, null or not a string.
std::optional<std::string> string_member(const Object& op, std::string_view name) {
  const Value* v = member(op, name);
  if (!v || !v->is_string()) return std::nullopt;
  return std::string(v->get_string());
}

Value op_value(const Object& op) {
  const Value* v = member(op, "value");
  return v ? *v : Value(nullptr);
}

std::string path_missing(const std::string& kind) {
  if (kind == "add" || kind == "remove" || kind == "copy") return kind + " operation failed to decode path: missing value";
  return kind + " operation failed to decode path: operation missing path field: missing value";
}

void apply_operation(Value& doc, const Object& op, const std::string& kind, const std::string& path) {
  auto wrap = [&](const std::string& what, const std::string& where, auto&& fn) {
    try {
      fn();
    } catch (const OpFailure& f) {
      fail("error in " + what + " for path: '" + where + "': " + f.message);
    }
  };
  std::string key;
  if (kind == "add") {
    if (path.empty()) {
      doc = op_value(op);
      return;
    }
    Value* parent = find_parent(doc, path, key);
    if (!parent) fail("add operation does not apply: doc is missing path: \"" + path + "\": missing value");
    wrap("add", path, [&] { add_in(*parent, key, op_value(op)); });
  } else if (kind == "remove") {
    Value* parent = find_parent(doc, path, key);
    if (!parent) fail("remove operation does not apply: doc is missing path: \"" + path + "\": missing value");
    wrap("remove", path, [&] { remove_in(*parent, key); });
  } else if (kind == "replace") {
    if (path.empty()) {
      doc = op_value(op);
      return;
    }
    Value* parent = find_parent(doc, path, key);
    if (!parent) fail("replace operation does not apply: doc is missing path: " + path + ": missing value");
    Value* target = nullptr;
    try {
      target = get_in(*parent, key);
    } catch (const OpFailure&) {
      fail("replace operation does not apply: doc is missing key: " + path + ": missing value");
    }
    // json-patch v4 replaces a missing object member like add does.
    if (target) *target = op_value(op);
    else parent->get_object()[key] = op_value(op);
  } else if (kind == "move" || kind == "copy") {
    auto from = string_member(op, "from");
    if (!from) fail(kind + " operation failed to decode from: operation, missing from field: missing value");
    Value* src_parent = find_parent(doc, *from, key);
    if (!src_parent) fail(kind + " operation does not apply: doc is missing from path: " + *from + ": missing value");
    Value moved;
    if (kind == "move") {
      wrap("move", key, [&] {
        Value* src = get_in(*src_parent, key);
        if (src) moved = *src;
        remove_in(*src_parent, key);
      });
    } else {
      Value* src = nullptr;
      wrap("copy", *from, [&] { src = get_in(*src_parent, key); });
      if (!src) fail("copy operation does not apply: doc is missing from path: " + *from + ": missing value");
      moved = *src;
    }
    Value* dst_parent = find_parent(doc, path, key);
    if (!dst_parent) fail(kind + " operation does not apply: doc is missing destination path: " + path + ": missing value");
    if (kind == "move") wrap("move", path, [&] { add_in(*dst_parent, key, std::move(moved)); });
    else wrap("copy", path, [&] { add_in(*dst_parent, key, std::move(moved)); });
  } else if (kind == "test") {
    const Value expected = op_value(op);
    if (path.empty()) {
      if (!deep_equal(doc, expected)) fail("testing value  failed: test failed");
      return;
    }
    Value* parent = find_parent(doc, path, key);
    if (!parent) fail("test operation does not apply: is missing path: " + path + ": missing value");
    Value* actual = nullptr;
    wrap("test", path, [&] { actual = get_in(*parent, key); });
    // json-patch treats a missing member and a null member alike.
    bool actual_null = !actual || actual->is_null();
    if (actual_null ? expected.is_null() : deep_equal(*actual, expected)) return;
    fail("testing value " + path + " failed: test failed");
  } else {
    fail("Unexpected kind: " + kind);
  }
}

}  // namespace

std::size_t json_patch_operation_count(const Value& patch) {
  const auto* arr = patch.if_array();
  return arr ? arr->size() : 0;
}

Value apply_json_patch(const Value& doc, const Value& patch) {
  const auto* ops = patch.if_array();
  if (!ops) {
    throw PatchError(PatchError::Kind::BadRequest,
                     "json: cannot unmarshal " + std::string(go_type_name(patch)) + " into Go value of type jsonpatch.Patch");
  }
  for (const auto& op : *ops) {
    if (!op.is_object() && !op.is_null()) {
      throw PatchError(PatchError::Kind::BadRequest,
                       "json: cannot unmarshal " + std::string(go_type_name(op)) + " into Go value of type jsonpatch.Operation");
    }
  }
  Value out = doc;
  for (std::size_t i = 0; i < ops->size(); ++i) {
    static const Object kEmpty;
    const Object& op = (*ops)[i].is_object() ? (*ops)[i].get_object() : kEmpty;
    std::string kind = string_member(op, "op").value_or("unknown");
    auto path = string_member(op, "path");
    try {
      bool known = kind == "add" || kind == "remove" || kind == "replace" || kind == "move" || kind == "copy" || kind == "test";
      if (known && !path) fail(path_missing(kind));
      apply_operation(out, op, kind, path.value_or(""));
    } catch (const OpFailure& f) {
      std::string where = path ? " " + *path : "";
      PatchError err(PatchError::Kind::Invalid,
                     "json patch operation " + std::to_string(i) + " (" + kind + where + "): " + f.message,
                     std::string(kRejected));
      err.op_index = i;
      err.path = path.value_or("");
      throw err;
    }
  }
  return out;
}

Value apply_json_patch(const Value& doc, std::string_view patch_text) {
  std::string error;
  auto patch = try_parse(patch_text, &error);
  if (!patch) throw PatchError(PatchError::Kind::BadRequest, "invalid JSON patch: " + error);
  return apply_json_patch(doc, *patch);
}

// ---- RFC 7386 -------------------------------------------------------------------------------------

namespace {

// Drops null members from every object inside `v` (arrays keep their null elements).
Value without_null_members(const Value& v) {
  if (const auto* obj = v.if_object()) {
    Object out;
    out.reserve(obj->size());
    for (const auto& kv : *obj) {
      if (!kv.value().is_null()) out.emplace(kv.key(), without_null_members(kv.value()));
    }
    return out;
  }
  if (const auto* arr = v.if_array()) {
    Array out;
    out.reserve(arr->size());
    for (const auto& e : *arr) out.push_back(without_null_members(e));
    return out;
  }
  return v;
}

void merge_into(Value& target, const Value& patch) {
  if (!patch.is_object()) {
    target = without_null_members(patch);
    return;
  }
  if (!target.is_object()) target = Object{};
  auto& obj = target.get_object();
  for (const auto& kv : patch.get_object()) {
    if (kv.value().is_null()) {
      obj.erase(kv.key());
      continue;
    }
    auto it = obj.find(kv.key());
    if (it == obj.end()) {
      obj.emplace(kv.key(), without_null_members(kv.value()));
    } else {
      merge_into(it->value(), kv.value());
    }
  }
}

}  // namespace

Value apply_merge_patch(const Value& target, const Value& patch) {
  Value out = target;
  merge_into(out, patch);
  return out;
}

// ---- diffs ----------------------------------------------------------------------------------------

Value create_merge_patch(const Value& original, const Value& modified) {
  const auto* o = original.if_object();
  const auto* m = modified.if_object();
  if (!o || !m) return modified;
  Object patch;
  for (const auto& kv : *o) {
    if (!m->contains(kv.key())) patch.emplace(kv.key(), nullptr);
  }
  for (const auto& kv : *m) {
    const Value* before = o->if_contains(kv.key());
    if (!before) {
      patch.emplace(kv.key(), kv.value());
    } else if (!deep_equal(*before, kv.value())) {
      if (before->is_object() && kv.value().is_object()) {
        patch.emplace(kv.key(), create_merge_patch(*before, kv.value()));
      } else {
        patch.emplace(kv.key(), kv.value());
      }
    }
  }
  return patch;
}

namespace {

Value make_op(std::string_view op, const std::string& path, const Value* value = nullptr) {
  Object o;
  o.emplace("op", op);
  o.emplace("path", path);
  if (value) o.emplace("value", *value);
  return o;
}

void diff_into(Array& ops, const std::string& path, const Value& original, const Value& modified);

void diff_arrays(Array& ops, const std::string& path, const Array& o, const Array& m) {
  Array local;
  std::size_t prefix = 0;
  while (prefix < o.size() && prefix < m.size() && deep_equal(o[prefix], m[prefix])) ++prefix;
  std::size_t suffix = 0;
  while (suffix < o.size() - prefix && suffix < m.size() - prefix &&
         deep_equal(o[o.size() - 1 - suffix], m[m.size() - 1 - suffix])) {
    ++suffix;
  }
  std::size_t a = o.size() - prefix - suffix;  // middle of original
  std::size_t b = m.size() - prefix - suffix;  // middle of modified
  std::size_t common = a < b ? a : b;
  for (std::size_t k = 0; k < common; ++k) {
    diff_into(local, path + "/" + std::to_string(prefix + k), o[prefix + k], m[prefix + k]);
  }
  if (a > b) {
    for (std::size_t k = a; k > b; --k) local.push_back(make_op("remove", path + "/" + std::to_string(prefix + k - 1)));
  } else {
    for (std::size_t k = a; k < b; ++k) local.push_back(make_op("add", path + "/" + std::to_string(prefix + k), &m[prefix + k]));
  }
  // Replace the whole array when the element-wise operations are bulkier than the new value.
  Value whole = make_op("replace", path, nullptr);
  whole.get_object().emplace("value", Value(m));
  if (local.size() > 1 && boost::json::serialize(local).size() > boost::json::serialize(whole).size()) {
    ops.push_back(std::move(whole));
    return;
  }
  for (auto& op : local) ops.push_back(std::move(op));
}

void diff_into(Array& ops, const std::string& path, const Value& original, const Value& modified) {
  if (deep_equal(original, modified)) return;
  const auto* o = original.if_object();
  const auto* m = modified.if_object();
  if (o && m) {
    for (const auto& kv : *o) {
      if (!m->contains(kv.key())) ops.push_back(make_op("remove", path + "/" + pointer_escape(kv.key())));
    }
    for (const auto& kv : *m) {
      std::string child = path + "/" + pointer_escape(kv.key());
      const Value* before = o->if_contains(kv.key());
      if (!before) ops.push_back(make_op("add", child, &kv.value()));
      else diff_into(ops, child, *before, kv.value());
    }
    return;
  }
  const auto* oa = original.if_array();
  const auto* ma = modified.if_array();
  if (oa && ma) {
    diff_arrays(ops, path, *oa, *ma);
    return;
  }
  ops.push_back(make_op("replace", path, &modified));
}

}  // namespace

Value create_json_patch(const Value& original, const Value& modified) {
  Array ops;
  diff_into(ops, "", original, modified);
  return ops;
}

}  // namespace capstan::json
