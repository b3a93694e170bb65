#include "controllers/gitops/substitute.h"

#include "apis/gitops/v1/variable_name.h"
#include "controllers/gitops/manifests.h"
#include "runtime/json/yaml.h"

#include <cctype>
#include <functional>
#include <vector>

namespace capstan::gitops {
namespace {

// Starts a quoted scalar that held "${" (a byte no Kubernetes string carries).
constexpr char kQuoted = '\x1f';

constexpr std::size_t kMaxResult = 1 << 20;

struct Expansion {
  std::string text;
  bool whole = false;  // the string was one ${...} and nothing else
};

using Where = std::function<std::string()>;

std::string expand_one(std::string_view expr, const Variables& vars, const Where& where) {
  std::size_t n = 0;
  while (n < expr.size() && (std::isalnum(static_cast<unsigned char>(expr[n])) || expr[n] == '_')) ++n;
  const std::string name(expr.substr(0, n));
  if (!apis::gitops::v1::valid_variable_name(name))
    throw BuildError(where() + ": ${" + std::string(expr) + "}: not a variable name ([_a-zA-Z][_a-zA-Z0-9]*)");
  std::string_view op = expr.substr(n);
  auto it = vars.find(name);
  if (op.empty()) return it == vars.end() ? "" : it->second;
  for (std::string_view prefix : {":=", ":-"})
    if (op.starts_with(prefix)) return it == vars.end() || it->second.empty() ? std::string(op.substr(2)) : it->second;
  for (std::string_view prefix : {"=", "-"})
    if (op.starts_with(prefix)) return it == vars.end() ? std::string(op.substr(1)) : it->second;
  throw BuildError(where() + ": ${" + std::string(expr) + "}: this form of substitution is not supported (${VAR}, ${VAR:=default}, ${VAR:-default})");
}

Expansion expand(std::string_view s, const Variables& vars, const Where& where) {
  Expansion out;
  std::size_t expressions = 0;
  bool other_text = false;
  for (std::size_t i = 0; i < s.size();) {
    if (s.compare(i, 3, "$${") == 0) {  // escaped: a literal ${
      out.text += "${";
      other_text = true;
      i += 3;
      continue;
    }
    if (s.compare(i, 2, "${") == 0) {
      auto close = s.find('}', i + 2);
      if (close == std::string_view::npos) throw BuildError(where() + ": \"" + std::string(s.substr(i, 40)) + "\": ${ without its }");
      out.text += expand_one(s.substr(i + 2, close - i - 2), vars, where);
      ++expressions;
      i = close + 1;
    } else {
      out.text += s[i++];
      other_text = true;
    }
    if (out.text.size() > kMaxResult) throw BuildError(where() + ": a substituted value exceeds 1 MiB");
  }
  out.whole = expressions == 1 && !other_text;
  return out;
}

// A plain YAML scalar that was only ${VAR} reads back as what VAR holds: null, a boolean or a
// number; anything else stays a string.
json::Value reread(const std::string& text) {
  if (text.find_first_of("\n:#[]{},&*!|>'\"%@`") != std::string::npos) return json::Value(text);
  try {
    json::Value v = json::from_yaml(text, "substituted value");
    if (v.is_null() || v.is_bool() || v.is_number()) return v;
  } catch (const std::exception&) {
  }
  return json::Value(text);
}

// `path`: the field names and indexes down to `v`, for messages (built only when one is needed).
void walk(json::Value& v, const Variables* vars, std::vector<std::string>& path, const std::string& what) {
  if (v.is_object()) {
    for (auto& kv : v.as_object()) {
      path.emplace_back("." + std::string(kv.key()));
      walk(kv.value(), vars, path, what);
      path.pop_back();
    }
  } else if (v.is_array()) {
    std::size_t i = 0;
    for (auto& e : v.as_array()) {
      path.emplace_back("[" + std::to_string(i++) + "]");
      walk(e, vars, path, what);
      path.pop_back();
    }
  } else if (v.is_string()) {
    std::string_view s = v.get_string();
    const bool quoted = !s.empty() && s.front() == kQuoted;
    if (quoted) s.remove_prefix(1);
    if (!vars || s.find('$') == std::string_view::npos) {
      if (quoted) v = std::string(s);
      return;
    }
    Expansion e = expand(s, *vars, [&] {
      std::string out = what + " ";
      for (const auto& p : path) out += p;
      return out;
    });
    v = quoted || !e.whole ? json::Value(e.text) : reread(e.text);
  }
}

std::string describe(const json::Value& o) {
  std::string ns(json::get_string(o, {"metadata", "namespace"}));
  return std::string(json::get_string(o, {"kind"})) + "/" + (ns.empty() ? "" : ns + "/") + std::string(json::get_string(o, {"metadata", "name"}));
}

}  // namespace

void mark_quoted(std::string& s) {
  if (s.find("${") != std::string::npos) s.insert(s.begin(), kQuoted);
}

void substitute_variables(json::Value& obj, const Variables& variables, const std::string& what) {
  if (json::get_string(obj, {"metadata", "annotations", kSubstituteAnnotation}) == "disabled") return drop_quote_marks(obj);
  std::vector<std::string> path;
  walk(obj, &variables, path, what + ": " + describe(obj));
}

void drop_quote_marks(json::Value& obj) {
  std::vector<std::string> path;
  walk(obj, nullptr, path, "");
}

}  // namespace capstan::gitops
