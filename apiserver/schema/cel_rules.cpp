#include "apiserver/schema/cel_rules.h"

#include "runtime/gofmt/gofmt.h"

namespace capstan::apiserver::schema {
namespace {

std::string trim(std::string_view x) {
  auto b = x.find_first_not_of(" \t\n\r\f\v");
  auto e = x.find_last_not_of(" \t\n\r\f\v");
  return b == std::string_view::npos ? std::string() : std::string(x.substr(b, e - b + 1));
}

std::string string_field(const json::Value& rv, std::string_view k) {
  const auto* x = rv.get_object().if_contains(k);
  return x && x->is_string() ? std::string(x->get_string()) : std::string();
}

cel::Env rule_env() {
  cel::Env env;
  env.variables = {std::string(kSelf), std::string(kOldSelf)};
  return env;
}

// unescapeSingleQuote: the escapes a quoted fieldPath segment may use.
std::optional<std::string> unescape_single_quote(std::string_view s, std::string* error) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 >= s.size()) {
      out += s[i];
      continue;
    }
    char d = s[++i];
    switch (d) {
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case '\'': out += '\''; break;
      case '\\': out += '\\'; break;
      default:
        if (error) *error = std::string("invalid string literal: invalid escape char \\") + d;
        return std::nullopt;
    }
  }
  return out;
}

}  // namespace

std::optional<std::string> normalize_field_path(std::string_view path, const Schema& root, std::string* error) {
  auto fail = [&](std::string msg) -> std::optional<std::string> {
    if (error) *error = std::move(msg);
    return std::nullopt;
  };
  // Tokens: '.', '[', ']' and the text between them; a quoted segment ignores delimiters.
  std::vector<std::string> toks;
  for (std::size_t i = 0; i < path.size();) {
    char c = path[i];
    if (c == '.' || c == '[' || c == ']') {
      toks.emplace_back(1, c);
      ++i;
    } else if (c == '\'') {
      std::size_t j = i + 1;
      while (j < path.size() && !(path[j] == '\'' && path[j - 1] != '\\')) ++j;
      if (j >= path.size()) {
        toks.emplace_back(path.substr(i));
        break;
      }
      toks.emplace_back(path.substr(i, j - i + 1));
      i = j + 1;
    } else {
      std::size_t j = i;
      while (j < path.size() && path[j] != '.' && path[j] != '[' && path[j] != ']') ++j;
      toks.emplace_back(path.substr(i, j - i));
      i = j;
    }
  }
  validation::FieldPath out;
  const Schema* s = &root;
  auto append = [&](const std::string& name) -> bool {
    if (!s->properties.empty()) {
      out = out.child(name);
      s = s->property(name);
      return s != nullptr;
    }
    if (s->additional_properties.schema) {
      out = out.key(name);
      s = s->additional_properties.schema.get();
      return true;
    }
    return false;
  };
  for (std::size_t i = 0; i < toks.size(); ++i) {
    const std::string& t = toks[i];
    if (t == "[") {
      if (++i >= toks.size()) return fail("unexpected end of JSON path");
      const std::string& q = toks[i];
      if (q.size() < 2 || q.front() != '\'' || q.back() != '\'') return fail("expected single quoted string but got " + q);
      auto name = unescape_single_quote(std::string_view(q).substr(1, q.size() - 2), error);
      if (!name) return std::nullopt;
      if (!append(*name)) return fail("does not refer to a valid field");
      if (++i >= toks.size()) return fail("unexpected end of JSON path");
      if (toks[i] != "]") return fail("expected ] but got " + toks[i]);
    } else if (t == ".") {
      if (++i >= toks.size()) return fail("unexpected end of JSON path");
      if (!append(toks[i])) return fail("does not refer to a valid field");
    } else {
      return fail("expected [ or . but got: " + t);
    }
  }
  return out.is_nil() ? std::string() : out.str();
}

void compile_rules(Schema& s, const validation::FieldPath& p, std::vector<std::string>& not_evaluated) {
  s.x_rules.clear();
  for (std::size_t i = 0; i < s.x_validations.size(); ++i) {
    const auto& rv = s.x_validations[i];
    if (!rv.is_object()) continue;
    CelRule r;
    r.schema_path = p.child("x-kubernetes-validations").index(i).str();
    r.rule = string_field(rv, "rule");
    r.message = string_field(rv, "message");
    r.message_expression = string_field(rv, "messageExpression");
    r.reason = string_field(rv, "reason");
    const auto* optional_old_self = rv.get_object().if_contains("optionalOldSelf");
    if (trim(r.rule).empty()) continue;  // parse() reports "rule is not specified"

    std::string fp = string_field(rv, "fieldPath");
    if (!fp.empty()) {
      std::string err;
      if (auto n = normalize_field_path(fp, s, &err)) r.field_path = *n;
      else r.unsupported = "fieldPath " + gofmt::quote(fp) + " is not valid: " + err;
    }
    if (r.unsupported.empty()) {
      auto compiled = cel::compile(r.rule, rule_env());
      if (!compiled.ok()) {
        r.unsupported = compiled.error;
      } else {
        r.program = compiled.program;
        r.uses_old_self = r.program->references(kOldSelf);
        if (optional_old_self && optional_old_self->is_bool() && optional_old_self->get_bool()) {
          r.program.reset();
          r.unsupported = "optionalOldSelf is not supported";
        }
      }
    }
    if (r.program && !trim(r.message_expression).empty()) {
      auto compiled = cel::compile(r.message_expression, rule_env());
      if (compiled.ok()) {
        r.message_program = compiled.program;
      } else {
        // The rule still runs; its failure uses `message` (as when a messageExpression fails).
        not_evaluated.push_back(r.schema_path + ": messageExpression " + gofmt::quote(r.message_expression) +
                                " is not evaluated by the embedded API server: " + compiled.error);
      }
    }
    if (!r.program) {
      not_evaluated.push_back(r.schema_path + ": rule " + gofmt::quote(r.rule) +
                              " is not evaluated by the embedded API server: " + r.unsupported);
    }
    s.x_rules.push_back(std::move(r));
  }
}

void collect_unevaluated(const Schema& s, std::vector<const CelRule*>& out) {
  for (const auto& r : s.x_rules)
    if (!r.program) out.push_back(&r);
  for (const auto& [_, sub] : s.properties)
    if (sub) collect_unevaluated(*sub, out);
  if (s.items) collect_unevaluated(*s.items, out);
  if (s.additional_properties.schema) collect_unevaluated(*s.additional_properties.schema, out);
  for (const auto& a : s.all_of)
    if (a) collect_unevaluated(*a, out);
}

}  // namespace capstan::apiserver::schema
