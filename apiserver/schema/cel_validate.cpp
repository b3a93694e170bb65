#include "apiserver/schema/cel_validate.h"

#include "apiserver/schema/cel_rules.h"
#include "apiserver/schema/cel_value.h"
#include "runtime/json/patch.h"

#include <optional>

namespace capstan::apiserver::schema {
namespace {

std::string trim(std::string_view x) {
  auto b = x.find_first_not_of(" \t\n\r\f\v");
  auto e = x.find_last_not_of(" \t\n\r\f\v");
  return b == std::string_view::npos ? std::string() : std::string(x.substr(b, e - b + 1));
}

// ruleErrorString: the message if any, else the rule.
std::string rule_error_string(const CelRule& r) { return trim(r.message).empty() ? trim(r.rule) : trim(r.message); }

// The old/new pair at a node for ratcheting (common.CorrelatedObject): `old` is null where the
// node cannot be correlated; `parent` is the nearest correlatable ancestor then.
struct Correlation {
  const json::Value* now = nullptr;
  const json::Value* old = nullptr;
  const json::Value* parent_now = nullptr;
  const json::Value* parent_old = nullptr;

  bool ratchets() const {
    if (old) return json::deep_equal(*now, *old);
    if (parent_old) return json::deep_equal(*parent_now, *parent_old);
    return false;
  }
  Correlation descend(const json::Value& child_now, const json::Value* child_old) const {
    if (!old) return *this;
    return Correlation{&child_now, child_old, now, old};
  }
};

class RuleWalker {
 public:
  RuleWalker(const CelBudget& b, CelOutcome& out) : remaining_(b.total), per_call_(b.per_call), out_(out) {}

  // Returns false once no further rules may run (budget exhausted).
  bool node(const Schema& s, const std::string& node_type, const json::Value& obj, const json::Value* old,
            const validation::FieldPath& path, const Correlation& corr, bool is_resource_root) {
    if (obj.is_null()) return true;
    if (old && old->is_null()) old = nullptr;
    if (!rules(s, node_type, obj, old, path, corr, is_resource_root)) return false;
    for (const auto& a : s.all_of) {
      if (!a) continue;
      Correlation no_current{nullptr, nullptr, corr.parent_now, corr.parent_old};
      if (!node(*a, node_type, obj, old, path, no_current, is_resource_root)) return false;
    }
    if (obj.is_object()) {
      const auto& o = obj.get_object();
      const json::Object* oo = old && old->is_object() ? &old->get_object() : nullptr;
      auto old_member = [&](std::string_view k) -> const json::Value* {
        if (!oo) return nullptr;
        auto it = oo->find(k);
        return it == oo->end() ? nullptr : &it->value();
      };
      if (const Schema* ap = s.additional_properties.schema.get()) {
        for (const auto& kv : o) {
          const json::Value* ov = old_member(kv.key());
          if (!node(*ap, ap->type, kv.value(), ov, path.key(kv.key()), corr.descend(kv.value(), ov), ap->x_embedded_resource))
            return false;
        }
      }
      if (!s.properties.empty()) {
        for (const auto& kv : o) {
          const Schema* p = s.property(kv.key());
          if (!p) continue;
          const json::Value* ov = old_member(kv.key());
          Correlation c = corr.descend(kv.value(), ov);
          // apiVersion and kind of the root are not correlatable (both objects are converted to one version).
          if (is_resource_root && !corr.parent_now && (kv.key() == "apiVersion" || kv.key() == "kind")) c = Correlation{};
          if (!node(*p, p->type, kv.value(), ov, path.child(kv.key()), c, p->x_embedded_resource)) return false;
        }
      }
    } else if (obj.is_array() && s.items) {
      const auto& a = obj.get_array();
      const json::Array* oa = old && old->is_array() ? &old->get_array() : nullptr;
      for (std::size_t i = 0; i < a.size(); ++i) {
        const json::Value* ov = oa ? map_list_match(s, a[i], *oa) : nullptr;
        if (!node(*s.items, s.items->type, a[i], ov, path.index(i), corr.descend(a[i], ov), s.items->x_embedded_resource))
          return false;
      }
    }
    return true;
  }

 private:
  // Only x-kubernetes-list-type=map lists correlate items (by their key fields).
  static const json::Value* map_list_match(const Schema& s, const json::Value& item, const json::Array& old) {
    if (!s.x_list_type || *s.x_list_type != "map" || s.x_list_map_keys.empty() || !item.is_object()) return nullptr;
    for (const auto& o : old) {
      if (!o.is_object()) continue;
      bool same = true;
      for (const auto& k : s.x_list_map_keys) {
        const auto* a = item.get_object().if_contains(k);
        const auto* b = o.get_object().if_contains(k);
        if ((a == nullptr) != (b == nullptr) || (a && !json::deep_equal(*a, *b))) {
          same = false;
          break;
        }
      }
      if (same) return &o;
    }
    return nullptr;
  }

  validation::Cause invalid_typed(const validation::FieldPath& p, const std::string& node_type, const std::string& detail) {
    return validation::field_invalid(p, json::Value(json::String(node_type)), detail);
  }

  validation::Cause failure(const CelRule& r, const validation::FieldPath& p, const json::Value& obj, const std::string& node_type, const std::string& detail) {
    validation::BadValue value{obj};
    if (node_type == "object" || node_type == "array") value = validation::BadValue::omitted();
    std::string_view reason = r.reason.empty() ? validation::reason::kInvalid : std::string_view(r.reason);
    if (reason == validation::reason::kForbidden) return validation::field_forbidden(p, detail);
    if (reason == validation::reason::kRequired) return validation::field_required(p, detail);
    if (reason == validation::reason::kDuplicate) return validation::Cause{std::string(validation::reason::kDuplicate), p.str(), validation::error_body(validation::reason::kDuplicate, value, {})};
    return validation::Cause{std::string(validation::reason::kInvalid), p.str(), validation::error_body(validation::reason::kInvalid, value, detail)};
  }

  bool rules(const Schema& s, const std::string& node_type, const json::Value& obj, const json::Value* old,
             const validation::FieldPath& path, const Correlation& corr, bool is_resource_root) {
    bool any = false;
    for (const auto& r : s.x_rules) any = any || r.program;
    if (!any) return true;
    if (remaining_ <= 0) {
      out_.errors.push_back(invalid_typed(path, node_type, "validation failed due to running out of cost budget, no further validation rules will be run"));
      return false;
    }
    std::optional<cel::Activation> vars;
    for (const auto& r : s.x_rules) {
      if (!r.program) continue;  // not in the supported subset: warned about when the CRD was written
      if (r.uses_old_self && !old) continue;
      if (!vars) {
        vars.emplace();
        vars->emplace(std::string(kSelf), to_cel_value(obj, &s, is_resource_root));
        if (old) vars->emplace(std::string(kOldSelf), to_cel_value(*old, &s, is_resource_root));
      }
      auto res = r.program->eval(*vars, std::min(per_call_, remaining_ + 1));
      if (res.cost > remaining_) {
        out_.errors.push_back(invalid_typed(path, node_type, "validation failed due to running out of cost budget, no further validation rules will be run"));
        remaining_ = -1;
        return false;
      }
      remaining_ -= res.cost;
      if (res.cost_exceeded) {
        out_.errors.push_back(invalid_typed(path, node_type, "'" + res.error + "': no further validation rules will be run due to call cost exceeds limit for rule: " + rule_error_string(r)));
        remaining_ = -1;
        return false;
      }
      if (!res.ok()) {
        if (res.error.rfind("no such overload", 0) == 0) {
          out_.errors.push_back(invalid_typed(path, node_type, "'" + res.error + "': call arguments did not match a supported operator, function or macro signature for rule: " + rule_error_string(r)));
        } else {
          out_.errors.push_back(invalid_typed(path, node_type, res.error + " evaluating rule: " + rule_error_string(r)));
        }
        continue;
      }
      if (res.value.kind() == cel::Kind::Bool && res.value.as_bool()) continue;
      if (res.value.kind() != cel::Kind::Bool) {
        out_.errors.push_back(invalid_typed(path, node_type, "rule did not evaluate to a bool evaluating rule: " + rule_error_string(r)));
        continue;
      }
      validation::FieldPath at = r.field_path.empty() ? path : path.child(r.field_path);
      std::string detail = message_for(r, *vars);
      validation::Cause c = failure(r, at, obj, node_type, detail);
      if (!r.uses_old_self && corr.ratchets()) out_.warnings.push_back(c.error());
      else out_.errors.push_back(std::move(c));
    }
    return true;
  }

  // messageExpression's result when it evaluates to a usable string, else message or the default.
  std::string message_for(const CelRule& r, const cel::Activation& vars) {
    if (r.message_program) {
      auto res = r.message_program->eval(vars, std::min(per_call_, remaining_ + 1));
      remaining_ -= res.cost;
      if (res.ok() && res.value.kind() == cel::Kind::String) {
        std::string m = trim(res.value.as_string());
        if (!m.empty() && m.size() <= 5 * 1024 && m.find('\n') == std::string::npos) return m;
      }
    }
    if (trim(r.message).empty()) return "failed rule: " + rule_error_string(r);
    return trim(r.message);
  }

  std::int64_t remaining_;
  std::int64_t per_call_;
  CelOutcome& out_;
};

}  // namespace

CelOutcome validate_rules(const json::Value& obj, const json::Value* old, const Schema& schema, const CelBudget& budget) {
  CelOutcome out;
  RuleWalker w(budget, out);
  Correlation corr;
  if (old) corr = Correlation{&obj, old, nullptr, nullptr};
  w.node(schema, schema.type, obj, old, validation::FieldPath(), corr, true);
  return out;
}

bool has_blocking_error(const std::vector<validation::Cause>& causes) {
  for (const auto& c : causes) {
    if (c.reason == validation::reason::kNotSupported || c.reason == validation::reason::kRequired || c.reason == validation::reason::kTooLong ||
        c.reason == validation::reason::kTooMany || c.reason == validation::reason::kTypeInvalid)
      return true;
  }
  return false;
}

}  // namespace capstan::apiserver::schema
