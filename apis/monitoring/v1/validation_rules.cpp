#include "apis/monitoring/promql/number.h"
#include "apis/monitoring/promql/promql.h"
#include "apis/monitoring/v1/validation.h"

#include <set>

namespace capstan::apis::monitoring::v1 {
namespace {

using validation::Cause;
using validation::FieldPath;

const json::Object* member_object(const json::Object& o, std::string_view key) {
  auto it = o.find(key);
  return it != o.end() && it->value().is_object() ? &it->value().get_object() : nullptr;
}
const json::Array* member_array(const json::Object& o, std::string_view key) {
  auto it = o.find(key);
  return it != o.end() && it->value().is_array() ? &it->value().get_array() : nullptr;
}
std::optional<std::string> member_string(const json::Object& o, std::string_view key) {
  auto it = o.find(key);
  if (it == o.end() || !it->value().is_string()) return std::nullopt;
  return std::string(it->value().get_string());
}

// model.LabelName.IsValid and model.IsValidMetricName (the legacy character sets of 2.x).
bool valid_name(std::string_view s, bool colons) {
  if (s.empty()) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    bool ok = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (colons && c == ':') || (i > 0 && c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return true;
}

// A model.Duration field: present and not parsable is an error; returns whether it is non-zero.
bool duration(const json::Object& o, std::string_view key, const FieldPath& path, std::vector<Cause>& out) {
  auto v = member_string(o, key);
  if (!v) return false;
  std::string why;
  auto ms = promql::parse_duration(*v, &why);
  if (!ms) out.push_back(validation::field_invalid(path.child(key), json::Value(*v), why));
  return ms && *ms != 0;
}

// The expression as Prometheus reads it from YAML: a string, or an integer's digits.
std::optional<std::string> expression(const json::Object& rule) {
  auto it = rule.find("expr");
  if (it == rule.end()) return std::nullopt;
  if (it->value().is_string()) return std::string(it->value().get_string());
  if (it->value().is_int64()) return std::to_string(it->value().get_int64());
  if (it->value().is_uint64()) return std::to_string(it->value().get_uint64());
  return std::nullopt;
}

void validate_rule(const json::Object& rule, const FieldPath& path, std::vector<Cause>& out) {
  auto record = member_string(rule, "record").value_or("");
  auto alert = member_string(rule, "alert").value_or("");
  if (!record.empty() && !alert.empty())
    out.push_back(validation::field_forbidden(path.child("alert"), "only one of 'record' and 'alert' must be set"));
  if (record.empty() && alert.empty()) out.push_back(validation::field_required(path, "one of 'record' or 'alert' must be set"));

  // The parser knows Prometheus 2.42's functions (what the tests can check against promtool);
  // the Prometheus a user runs is usually newer (v3 by default) and knows more of them
  // (histogram_avg, sort_by_label, ...). An expression whose first fault is a function the
  // parser does not know is let through: refusing it would leave a valid rule out of Prometheus.
  auto expr = expression(rule).value_or("");
  if (expr.empty()) {
    out.push_back(validation::field_required(path.child("expr"), "field 'expr' must be set in rule"));
  } else if (auto parsed = promql::parse(expr); parsed.error && !parsed.error->unknown_function) {
    out.push_back(validation::field_invalid(path.child("expr"), json::Value(expr), parsed.error->str(expr)));
  }

  bool has_for = duration(rule, "for", path, out);
  bool has_keep_firing = duration(rule, "keep_firing_for", path, out);
  const json::Object* annotations = member_object(rule, "annotations");
  if (!record.empty()) {
    if (annotations && !annotations->empty())
      out.push_back(validation::field_forbidden(path.child("annotations"), "invalid field 'annotations' in recording rule"));
    if (has_for) out.push_back(validation::field_forbidden(path.child("for"), "invalid field 'for' in recording rule"));
    if (has_keep_firing)
      out.push_back(validation::field_forbidden(path.child("keep_firing_for"), "invalid field 'keep_firing_for' in recording rule"));
    if (!valid_name(record, true)) out.push_back(validation::field_invalid(path.child("record"), json::Value(record), "invalid recording rule name"));
  }
  if (const json::Object* labels = member_object(rule, "labels"))
    for (const auto& kv : *labels)
      if (!valid_name(kv.key(), false) || kv.key() == "__name__")
        out.push_back(validation::field_invalid(path.child("labels"), json::Value(kv.key()), "invalid label name"));
  if (annotations)
    for (const auto& kv : *annotations)
      if (!valid_name(kv.key(), false))
        out.push_back(validation::field_invalid(path.child("annotations"), json::Value(kv.key()), "invalid annotation name"));
}

}  // namespace

std::vector<Cause> validate_prometheus_rule(const json::Value& obj) {
  std::vector<Cause> out;
  const json::Array* groups = nullptr;
  if (const json::Value* spec = json::find(obj, {"spec"}); spec && spec->is_object()) groups = member_array(spec->get_object(), "groups");
  if (!groups) return out;
  FieldPath groups_path = FieldPath("spec").child("groups");
  std::set<std::string> names;
  for (std::size_t g = 0; g < groups->size(); ++g) {
    if (!(*groups)[g].is_object()) continue;
    const json::Object& group = (*groups)[g].get_object();
    FieldPath gp = groups_path.index(g);
    auto name = member_string(group, "name").value_or("");
    if (name.empty()) out.push_back(validation::field_required(gp.child("name"), "Groupname must not be empty"));
    else if (!names.insert(name).second) out.push_back(validation::field_duplicate(gp.child("name"), json::Value(name)));
    duration(group, "interval", gp, out);
    const json::Array* rules = member_array(group, "rules");
    for (std::size_t r = 0; rules && r < rules->size(); ++r)
      if ((*rules)[r].is_object()) validate_rule((*rules)[r].get_object(), gp.child("rules").index(r), out);
  }
  return out;
}

}  // namespace capstan::apis::monitoring::v1
