// Field sets as structured-merge-diff models them, and their FieldsV1 wire format:
//   {"f:data":{"f:k":{}},"f:spec":{"f:containers":{"k:{\"name\":\"a\"}":{".":{},"f:image":{}}}}}
// A path element is a field name ("f:"), a map-list key ("k:" + compact JSON object, fields sorted by
// name), a set value ("v:" + JSON) or a list index ("i:"). "." marks that the element itself is owned
// as well as some of its children.
#pragma once

#include "runtime/json/json.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace capstan::apiserver::patch {

struct PathElement {
  enum class Kind { Field, Key, Value, Index };  // also the order between kinds

  Kind kind = Kind::Field;
  std::string name;                                       // Field
  std::vector<std::pair<std::string, json::Value>> key;   // Key, sorted by field name
  json::Value value;                                      // Value
  long long index = 0;                                    // Index

  static PathElement field(std::string name);
  static PathElement make_key(std::vector<std::pair<std::string, json::Value>> fields);
  static PathElement make_value(json::Value v);
  static PathElement make_index(long long i);

  // As in conflict messages: ".name", "[name=\"a\"]", "[containerPort=80,protocol=\"TCP\"]", "[=\"x\"]", "[0]".
  std::string to_string() const;
  // As a FieldsV1 key: "f:name", "k:{\"name\":\"a\"}", "v:\"x\"", "i:0".
  std::string serialize() const;
  // nullopt for an unknown element type (ignored, as structured-merge-diff does); throws
  // json::PatchError for malformed content.
  static std::optional<PathElement> parse(std::string_view text);
};

// Total order of path elements (structured-merge-diff's PathElement.Compare).
int compare(const PathElement& a, const PathElement& b);
inline bool operator<(const PathElement& a, const PathElement& b) { return compare(a, b) < 0; }
inline bool operator==(const PathElement& a, const PathElement& b) { return compare(a, b) == 0; }

using Path = std::vector<PathElement>;

// ".spec.containers[name=\"a\"].image"
std::string to_string(const Path& path);

class FieldSet {
 public:
  FieldSet() = default;

  void insert(const Path& path);
  bool has(const Path& path) const;
  bool empty() const { return members_.empty() && children_.empty(); }
  // Number of paths in the set.
  std::size_t size() const;

  FieldSet unite(const FieldSet& other) const;
  FieldSet intersect(const FieldSet& other) const;
  FieldSet difference(const FieldSet& other) const;
  // Like difference, and also drops every path below a member of `other`.
  FieldSet recursive_difference(const FieldSet& other) const;

  // Every path, in structured-merge-diff's iteration order (a node's members, then its children).
  std::vector<Path> paths() const;

  // The FieldsV1 object.
  json::Value to_fields_v1() const;
  // Parses a FieldsV1 object; throws json::PatchError (BadRequest) when malformed.
  static FieldSet from_fields_v1(const json::Value& fields_v1);

  friend bool operator==(const FieldSet& a, const FieldSet& b) {
    return a.members_ == b.members_ && a.children_ == b.children_;
  }

  const std::set<PathElement>& members() const { return members_; }
  const std::map<PathElement, FieldSet>& children() const { return children_; }
  std::set<PathElement>& members() { return members_; }
  std::map<PathElement, FieldSet>& children() { return children_; }
  // The subset below `pe`, or nullptr.
  const FieldSet* child(const PathElement& pe) const;

 private:
  void collect(Path& prefix, std::vector<Path>& out) const;
  json::Object emit(bool include_self) const;

  std::set<PathElement> members_;
  std::map<PathElement, FieldSet> children_;
};

}  // namespace capstan::apiserver::patch
