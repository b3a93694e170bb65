#include "runtime/cel/checker.h"

#include "runtime/cel/functions.h"

#include <re2/re2.h>

#include <algorithm>

namespace capstan::cel {
namespace {

// Functions of cel-go's extensions and Kubernetes' libraries that exist in kube-apiserver but
// not here: named explicitly so the error says "not supported" rather than "undeclared".
bool known_elsewhere(std::string_view n) {
  static constexpr std::string_view kNames[] = {
      "quantity", "isQuantity", "url", "isURL", "ip", "isIP", "cidr", "isCIDR", "format", "semver", "isSemver",
      "authorizer", "optional", "hasValue", "value", "orValue", "or", "getHours", "getMinutes", "getSeconds",
      "getMilliseconds", "getFullYear", "getMonth", "getDate", "getDayOfMonth", "getDayOfWeek", "getDayOfYear",
      "quote", "base64", "encode", "decode", "sets", "compareTo", "isGreaterThan", "isLessThan", "add", "sub",
      "asInteger", "asApproximateFloat", "sign", "isInteger", "lists", "math", "strings", "transformMap",
      "transformList", "sortBy", "distinct", "flatten", "slice", "range", "first", "last", "bind", "cel", "ceil",
      "floor", "round", "abs", "greatest", "least"};
  return std::find(std::begin(kNames), std::end(kNames), n) != std::end(kNames);
}

bool is_type_name(std::string_view n) {
  static constexpr std::string_view kTypes[] = {"int", "uint", "double", "string", "bool", "bytes", "list", "map",
                                                "null_type", "type"};
  return std::find(std::begin(kTypes), std::end(kTypes), n) != std::end(kTypes);
}

std::string arities(const std::vector<int>& a) {
  std::string out;
  for (std::size_t i = 0; i < a.size(); ++i) out += (i ? " or " : "") + std::to_string(a[i]);
  return out;
}

class Checker {
 public:
  explicit Checker(const std::vector<std::string>& vars) : vars_(vars) {}

  void walk(const Expr& e) {
    if (!result.error.empty()) return;
    switch (e.kind) {
      case ExprKind::Ident: ident(e); break;
      case ExprKind::Call: call(e); break;
      case ExprKind::Macro: {
        walk(*e.target);
        bound_.push_back(e.name);
        for (const auto& a : e.args) walk(*a);
        bound_.pop_back();
        return;
      }
      default: break;
    }
    if (e.kind != ExprKind::Macro) {
      if (e.target) walk(*e.target);
      for (const auto& a : e.args) walk(*a);
    }
  }

  CheckResult result;

 private:
  void ident(const Expr& e) {
    if (std::find(bound_.begin(), bound_.end(), e.name) != bound_.end()) return;
    if (std::find(vars_.begin(), vars_.end(), e.name) != vars_.end()) {
      result.free_variables.insert(e.name);
      return;
    }
    if (is_type_name(e.name)) return;
    result.error = "undeclared reference to '" + e.name + "'";
  }

  void call(const Expr& e) {
    const FunctionInfo* f = find_function(e.name);
    if (!f) {
      result.error = known_elsewhere(e.name)
                         ? "function '" + e.name + "' is not supported by this CEL implementation"
                         : "undeclared reference to '" + e.name + "' (no such function)";
      return;
    }
    const auto& ok = e.target ? f->member_arities : f->global_arities;
    int n = static_cast<int>(e.args.size());
    if (ok.empty()) {
      result.error = "function '" + e.name + "' cannot be called " + (e.target ? "as a method" : "without a receiver");
      return;
    }
    if (std::find(ok.begin(), ok.end(), n) == ok.end()) {
      result.error = "function '" + e.name + "' takes " + arities(ok) + " argument(s), not " + std::to_string(n);
      return;
    }
    if (e.name == "matches") {
      const Expr& pat = e.target ? *e.args[0] : *e.args[1];
      if (pat.kind == ExprKind::Literal && pat.literal.kind() == Kind::String) {
        re2::RE2::Options opts;
        opts.set_log_errors(false);
        opts.set_max_mem(8 << 20);
        auto re = std::make_shared<const re2::RE2>(pat.literal.as_string(), opts);
        if (!re->ok()) {
          result.error = "invalid regular expression '" + pat.literal.as_string() + "': " + re->error();
          return;
        }
        // The tree is still private to compile(); attaching the compiled pattern here saves
        // recompiling it on every evaluation.
        const_cast<Expr&>(e).regex = std::move(re);
      }
    }
  }

  const std::vector<std::string>& vars_;
  std::vector<std::string> bound_;
};

}  // namespace

CheckResult check(const ExprPtr& root, const std::vector<std::string>& variables) {
  Checker c(variables);
  c.walk(*root);
  return std::move(c.result);
}

}  // namespace capstan::cel
