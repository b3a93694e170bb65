#include "apiserver/patch/fieldset.h"

#include "runtime/gofmt/gofmt.h"
#include "runtime/json/patch.h"

#include <algorithm>
#include <charconv>

namespace capstan::apiserver::patch {

namespace {

using json::PatchError;

// structured-merge-diff value.Compare: numbers, then strings, booleans, lists, maps, null.
int rank(const json::Value& v) {
  switch (v.kind()) {
    case boost::json::kind::int64:
    case boost::json::kind::uint64:
    case boost::json::kind::double_: return 0;
    case boost::json::kind::string: return 1;
    case boost::json::kind::bool_: return 2;
    case boost::json::kind::array: return 3;
    case boost::json::kind::object: return 4;
    case boost::json::kind::null: return 5;
  }
  return 6;
}

int compare_values(const json::Value& a, const json::Value& b) {
  int ra = rank(a), rb = rank(b);
  if (ra != rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0: {
      if (a.is_int64() && b.is_int64()) {
        auto x = a.get_int64(), y = b.get_int64();
        return x < y ? -1 : (x > y ? 1 : 0);
      }
      double x = *json::as_number(a), y = *json::as_number(b);
      return x < y ? -1 : (x > y ? 1 : 0);
    }
    case 1: {
      std::string_view x = a.get_string(), y = b.get_string();
      int c = x.compare(y);
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case 2: return a.get_bool() == b.get_bool() ? 0 : (a.get_bool() ? 1 : -1);
    case 3: {
      const auto& x = a.get_array();
      const auto& y = b.get_array();
      for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
        if (int c = compare_values(x[i], y[i])) return c;
      }
      return x.size() < y.size() ? -1 : (x.size() > y.size() ? 1 : 0);
    }
    case 4: {
      std::string x = gofmt::json_marshal(a), y = gofmt::json_marshal(b);
      int c = x.compare(y);
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    default: return 0;
  }
}

// structured-merge-diff value.ToString.
std::string value_to_string(const json::Value& v) {
  switch (v.kind()) {
    case boost::json::kind::null: return "null";
    case boost::json::kind::int64:
    case boost::json::kind::uint64:
    case boost::json::kind::double_: return gofmt::format_v(v);  // %v of the int64 or float64
    case boost::json::kind::string: return gofmt::quote(v.get_string());
    case boost::json::kind::bool_: return v.get_bool() ? "true" : "false";
    case boost::json::kind::array: {
      std::string out = "[";
      bool first = true;
      for (const auto& e : v.get_array()) {
        if (!first) out += ",";
        first = false;
        out += value_to_string(e);
      }
      return out + "]";
    }
    case boost::json::kind::object: {
      std::string out;
      for (const auto& kv : v.get_object()) out += std::string(kv.key()) + "=" + value_to_string(kv.value());
      return out;
    }
  }
  return {};
}

[[noreturn]] void malformed(std::string message) {
  throw PatchError(PatchError::Kind::BadRequest, "invalid managedFields: " + message);
}

}  // namespace

// ---- PathElement ----------------------------------------------------------------------------------

PathElement PathElement::field(std::string name) {
  PathElement pe;
  pe.kind = Kind::Field;
  pe.name = std::move(name);
  return pe;
}

PathElement PathElement::make_key(std::vector<std::pair<std::string, json::Value>> fields) {
  PathElement pe;
  pe.kind = Kind::Key;
  std::stable_sort(fields.begin(), fields.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  pe.key = std::move(fields);
  return pe;
}

PathElement PathElement::make_value(json::Value v) {
  PathElement pe;
  pe.kind = Kind::Value;
  pe.value = std::move(v);
  return pe;
}

PathElement PathElement::make_index(long long i) {
  PathElement pe;
  pe.kind = Kind::Index;
  pe.index = i;
  return pe;
}

std::string PathElement::to_string() const {
  switch (kind) {
    case Kind::Field: return "." + name;
    case Kind::Key: {
      std::string out = "[";
      for (std::size_t i = 0; i < key.size(); ++i) {
        if (i) out += ",";
        out += key[i].first + "=" + value_to_string(key[i].second);
      }
      return out + "]";
    }
    case Kind::Value: return "[=" + value_to_string(value) + "]";
    case Kind::Index: return "[" + std::to_string(index) + "]";
  }
  return "{{invalid path element}}";
}

std::string PathElement::serialize() const {
  switch (kind) {
    case Kind::Field: return "f:" + name;
    case Kind::Key: {
      std::string out = "k:{";
      for (std::size_t i = 0; i < key.size(); ++i) {
        if (i) out += ",";
        out += gofmt::json_marshal(json::Value(key[i].first)) + ":" + gofmt::json_marshal(key[i].second);
      }
      return out + "}";
    }
    case Kind::Value: return "v:" + gofmt::json_marshal(value);
    case Kind::Index: return "i:" + std::to_string(index);
  }
  return {};
}

std::optional<PathElement> PathElement::parse(std::string_view text) {
  if (text.size() < 2) malformed("key must be 2 characters long: " + std::string(text));
  if (text[1] != ':') malformed("missing colon: " + std::string(text));
  std::string_view rest = text.substr(2);
  switch (text[0]) {
    case 'f': return field(std::string(rest));
    case 'v': {
      auto v = json::try_parse(rest);
      if (!v) malformed("invalid value element: " + std::string(text));
      return make_value(std::move(*v));
    }
    case 'k': {
      auto v = json::try_parse(rest);
      if (!v || !v->is_object()) malformed("invalid key element: " + std::string(text));
      std::vector<std::pair<std::string, json::Value>> fields;
      for (const auto& kv : v->get_object()) fields.emplace_back(std::string(kv.key()), kv.value());
      return make_key(std::move(fields));
    }
    case 'i': {
      long long i = 0;
      auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), i);
      if (ec != std::errc() || ptr != rest.data() + rest.size()) malformed("invalid index element: " + std::string(text));
      return make_index(i);
    }
    default: return std::nullopt;
  }
}

int compare(const PathElement& a, const PathElement& b) {
  if (a.kind != b.kind) return a.kind < b.kind ? -1 : 1;
  switch (a.kind) {
    case PathElement::Kind::Field: {
      int c = a.name.compare(b.name);
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case PathElement::Kind::Key: {
      for (std::size_t i = 0;; ++i) {
        if (i >= a.key.size() && i >= b.key.size()) return 0;
        if (i >= a.key.size()) return -1;
        if (i >= b.key.size()) return 1;
        int c = a.key[i].first.compare(b.key[i].first);
        if (c) return c < 0 ? -1 : 1;
        if (int v = compare_values(a.key[i].second, b.key[i].second)) return v;
      }
    }
    case PathElement::Kind::Value: return compare_values(a.value, b.value);
    case PathElement::Kind::Index: return a.index < b.index ? -1 : (a.index > b.index ? 1 : 0);
  }
  return 0;
}

std::string to_string(const Path& path) {
  std::string out;
  for (const auto& pe : path) out += pe.to_string();
  return out;
}

// ---- FieldSet -------------------------------------------------------------------------------------

void FieldSet::insert(const Path& path) {
  if (path.empty()) return;
  FieldSet* cur = this;
  for (std::size_t i = 0; i + 1 < path.size(); ++i) cur = &cur->children_[path[i]];
  cur->members_.insert(path.back());
}

bool FieldSet::has(const Path& path) const {
  if (path.empty()) return false;
  const FieldSet* cur = this;
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    cur = cur->child(path[i]);
    if (!cur) return false;
  }
  return cur->members_.count(path.back()) > 0;
}

const FieldSet* FieldSet::child(const PathElement& pe) const {
  auto it = children_.find(pe);
  return it == children_.end() ? nullptr : &it->second;
}

std::size_t FieldSet::size() const {
  std::size_t n = members_.size();
  for (const auto& [pe, set] : children_) n += set.size();
  return n;
}

FieldSet FieldSet::unite(const FieldSet& other) const {
  FieldSet out = *this;
  out.members_.insert(other.members_.begin(), other.members_.end());
  for (const auto& [pe, set] : other.children_) {
    auto it = out.children_.find(pe);
    if (it == out.children_.end()) out.children_.emplace(pe, set);
    else it->second = it->second.unite(set);
  }
  return out;
}

FieldSet FieldSet::intersect(const FieldSet& other) const {
  FieldSet out;
  for (const auto& pe : members_) {
    if (other.members_.count(pe)) out.members_.insert(pe);
  }
  for (const auto& [pe, set] : children_) {
    if (const FieldSet* o = other.child(pe)) {
      FieldSet i = set.intersect(*o);
      if (!i.empty()) out.children_.emplace(pe, std::move(i));
    }
  }
  return out;
}

FieldSet FieldSet::difference(const FieldSet& other) const {
  FieldSet out;
  for (const auto& pe : members_) {
    if (!other.members_.count(pe)) out.members_.insert(pe);
  }
  for (const auto& [pe, set] : children_) {
    if (const FieldSet* o = other.child(pe)) {
      FieldSet d = set.difference(*o);
      if (!d.empty()) out.children_.emplace(pe, std::move(d));
    } else {
      out.children_.emplace(pe, set);
    }
  }
  return out;
}

FieldSet FieldSet::recursive_difference(const FieldSet& other) const {
  FieldSet out;
  for (const auto& pe : members_) {
    if (!other.members_.count(pe)) out.members_.insert(pe);
  }
  for (const auto& [pe, set] : children_) {
    if (other.members_.count(pe)) continue;
    if (const FieldSet* o = other.child(pe)) {
      FieldSet d = set.recursive_difference(*o);
      if (!d.empty()) out.children_.emplace(pe, std::move(d));
    } else {
      out.children_.emplace(pe, set);
    }
  }
  return out;
}

void FieldSet::collect(Path& prefix, std::vector<Path>& out) const {
  for (const auto& pe : members_) {
    prefix.push_back(pe);
    out.push_back(prefix);
    prefix.pop_back();
  }
  for (const auto& [pe, set] : children_) {
    prefix.push_back(pe);
    set.collect(prefix, out);
    prefix.pop_back();
  }
}

std::vector<Path> FieldSet::paths() const {
  std::vector<Path> out;
  Path prefix;
  collect(prefix, out);
  return out;
}

json::Object FieldSet::emit(bool include_self) const {
  json::Object out;
  if (include_self && !empty()) out.emplace(".", json::Object{});
  auto mi = members_.begin();
  auto ci = children_.begin();
  while (mi != members_.end() || ci != children_.end()) {
    int c = mi == members_.end() ? 1 : (ci == children_.end() ? -1 : compare(*mi, ci->first));
    if (c < 0) {
      out.emplace(mi->serialize(), json::Object{});
      ++mi;
    } else if (c > 0) {
      out.emplace(ci->first.serialize(), ci->second.emit(false));
      ++ci;
    } else {
      out.emplace(ci->first.serialize(), ci->second.emit(true));
      ++mi;
      ++ci;
    }
  }
  return out;
}

json::Value FieldSet::to_fields_v1() const { return emit(false); }

namespace {

// Returns the subtree's children (empty when it only marks membership) and whether it is a member.
FieldSet read_v1(const json::Value& node, bool& is_member) {
  const auto* obj = node.if_object();
  if (!obj) malformed("expected an object, got " + json::serialize(node));
  FieldSet children;
  is_member = false;
  bool any_child = false;
  for (const auto& kv : *obj) {
    std::string_view key(kv.key().data(), kv.key().size());
    if (key == ".") {
      is_member = true;
      continue;
    }
    auto pe = PathElement::parse(key);
    if (!pe) continue;
    bool child_member = false;
    FieldSet grandchildren = read_v1(kv.value(), child_member);
    if (child_member) {
      children.members().insert(*pe);
      any_child = true;
    }
    if (!grandchildren.empty()) {
      children.children()[*pe] = std::move(grandchildren);
      any_child = true;
    }
  }
  if (!any_child) is_member = true;
  return children;
}

}  // namespace

FieldSet FieldSet::from_fields_v1(const json::Value& fields_v1) {
  bool member = false;
  if (fields_v1.is_null()) return {};
  return read_v1(fields_v1, member);
}

}  // namespace capstan::apiserver::patch
