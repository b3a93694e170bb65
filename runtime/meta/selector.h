// Label and field selectors: the string syntax of ?labelSelector= / ?fieldSelector= and the
// structured metav1.LabelSelector {matchLabels, matchExpressions}.
#pragma once

#include "runtime/json/json.h"

#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::meta {

using Labels = std::map<std::string, std::string, std::less<>>;

class SelectorError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

struct Requirement {
  enum class Op { Equals, NotEquals, In, NotIn, Exists, DoesNotExist, GreaterThan, LessThan };
  std::string key;
  Op op = Op::Exists;
  std::vector<std::string> values;
};

class LabelSelector {
 public:
  LabelSelector() = default;  // matches everything
  // Parses "a=b,c!=d,e in (x,y),f notin (z),g,!h,i>5" with the grammar and the error messages
  // of k8s.io/apimachinery/pkg/labels.Parse; throws SelectorError.
  static LabelSelector parse(std::string_view text);
  // Builds from a metav1.LabelSelector JSON object; throws SelectorError on unknown operators.
  // An absent selector or an empty object {} matches everything.
  static LabelSelector from_json(const json::Value* v);

  bool matches(const Labels& labels) const;
  bool matches(const json::Value& object) const;  // reads metadata.labels
  bool empty() const { return reqs_.empty(); }
  std::string str() const;
  const std::vector<Requirement>& requirements() const { return reqs_; }

 private:
  std::vector<Requirement> reqs_;
};

// Labels of an object (metadata.labels); an absent map is empty.
Labels labels_of(const json::Value& object);

// "a=b,c=d" (as `kubectl label` and --labels flags take them) as a map; throws SelectorError
// naming what is not key=value (the keys and values checked as a selector's are).
Labels parse_labels(std::string_view text);

class FieldSelector {
 public:
  struct Term {
    std::string field;
    bool equal = true;
    std::string value;
  };
  FieldSelector() = default;
  static FieldSelector parse(std::string_view text);
  // `get` returns the value of a field path for the object, or nullopt when unsupported.
  bool matches(const std::function<std::optional<std::string>(std::string_view field)>& get) const;
  bool empty() const { return terms_.empty(); }
  const std::vector<Term>& terms() const { return terms_; }
  std::string str() const;

 private:
  std::vector<Term> terms_;
};

}  // namespace capstan::meta
