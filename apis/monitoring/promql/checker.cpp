#include "apis/monitoring/promql/checker.h"

#include "apis/monitoring/promql/functions.h"
#include "apis/monitoring/promql/regex.h"
#include "apis/monitoring/promql/strings.h"

namespace capstan::promql {
namespace {

class Checker {
 public:
  explicit Checker(std::vector<ParseError>& errors) : errors_(errors) {}

  ValueType check(const Node& n) {
    switch (n.kind) {
      case NodeKind::kAggregate: aggregate(n); break;
      case NodeKind::kBinary: binary(n); break;
      case NodeKind::kCall: call(n); break;
      case NodeKind::kParen:
      case NodeKind::kMatrixSelector: check(*n.children[0]); break;
      case NodeKind::kUnary:
        if (ValueType t = check(*n.children[0]); t != ValueType::kScalar && t != ValueType::kVector)
          error(n.pos, "unary expression only allowed on expressions of type scalar or instant vector, got " +
                           go_quote(documented_type(t)));
        break;
      case NodeKind::kSubquery:
        if (ValueType t = check(*n.children[0]); t != ValueType::kVector)
          error(n.pos, "subquery is only allowed on instant vector, got " + std::string(type_name(t)) + " instead");
        break;
      case NodeKind::kVectorSelector: selector(n); break;
      case NodeKind::kNumber:
      case NodeKind::kString: break;
    }
    return n.type();
  }

 private:
  std::vector<ParseError>& errors_;

  void error(std::size_t pos, std::string message) { errors_.push_back(ParseError{pos, std::move(message)}); }

  void expect(const Node& n, ValueType want, std::string_view context) {
    if (ValueType t = check(n); t != want)
      error(n.pos, "expected type " + std::string(documented_type(want)) + " in " + std::string(context) + ", got " +
                       std::string(documented_type(t)));
  }

  void aggregate(const Node& n) {
    expect(*n.children.back(), ValueType::kVector, "aggregation expression");
    if (n.op == Tok::kTopk || n.op == Tok::kBottomk || n.op == Tok::kQuantile)
      expect(*n.children[0], ValueType::kScalar, "aggregation parameter");
    if (n.op == Tok::kCountValues) expect(*n.children[0], ValueType::kString, "aggregation parameter");
  }

  void binary(const Node& n) {
    ValueType lt = check(*n.children[0]);
    ValueType rt = check(*n.children[1]);
    bool comparison = is_comparison(n.op), set = is_set_operator(n.op);
    if (n.return_bool && !comparison) error(n.op_pos, "bool modifier can only be used on comparison operators");
    if (comparison && !n.return_bool && lt == ValueType::kScalar && rt == ValueType::kScalar)
      error(n.op_pos, "comparisons between scalars must use BOOL modifier");
    Cardinality card = set && n.card == Cardinality::kOneToOne ? Cardinality::kManyToMany : n.card;
    if (n.on)
      for (const auto& l1 : n.matching_labels)
        for (const auto& l2 : n.include)
          if (l1 == l2) error(n.op_pos, "label " + go_quote(l1) + " must not occur in ON and GROUP clause at once");
    auto operand_ok = [](ValueType t) { return t == ValueType::kScalar || t == ValueType::kVector; };
    if (!operand_ok(lt)) error(n.children[0]->pos, "binary expression must contain only scalar and instant vector types");
    if (!operand_ok(rt)) error(n.children[1]->pos, "binary expression must contain only scalar and instant vector types");
    std::string quoted_op = go_quote(operator_text(n.op));
    if (lt != ValueType::kVector || rt != ValueType::kVector) {
      if (!n.matching_labels.empty()) error(n.pos, "vector matching only allowed between instant vectors");
    } else if (set) {
      if (card == Cardinality::kOneToMany || card == Cardinality::kManyToOne)
        error(n.pos, "no grouping allowed for " + quoted_op + " operation");
      if (card != Cardinality::kManyToMany) error(n.pos, "set operations must always be many-to-many");
    }
    if ((lt == ValueType::kScalar || rt == ValueType::kScalar) && set)
      error(n.pos, "set operator " + quoted_op + " not allowed in binary scalar expression");
  }

  void call(const Node& n) {
    const Function& f = *n.func;
    std::size_t nargs = f.args.size(), got = n.children.size();
    std::string name = go_quote(f.name);
    if (f.variadic == 0) {
      if (nargs != got)
        error(n.pos, "expected " + std::to_string(nargs) + " argument(s) in call to " + name + ", got " + std::to_string(got));
    } else {
      std::size_t at_least = nargs - 1;
      if (at_least > got)
        error(n.pos, "expected at least " + std::to_string(at_least) + " argument(s) in call to " + name + ", got " +
                         std::to_string(got));
      else if (f.variadic > 0 && at_least + static_cast<std::size_t>(f.variadic) < got)
        error(n.pos, "expected at most " + std::to_string(at_least + static_cast<std::size_t>(f.variadic)) +
                         " argument(s) in call to " + name + ", got " + std::to_string(got));
    }
    for (std::size_t i = 0; i < got; ++i) {
      std::size_t k = i;
      if (k >= nargs) {
        if (f.variadic == 0) break;
        k = nargs - 1;
      }
      expect(*n.children[i], f.args[k], "call to function " + name);
    }
  }

  void selector(const Node& n) {
    if (!n.text.empty()) {
      for (const auto& m : n.matchers)
        if (m.name == "__name__")
          error(n.pos, "metric name must not be set twice: " + go_quote(n.text) + " or " + go_quote(m.value));
      return;
    }
    for (const auto& m : n.matchers)
      if (!matches_empty(m)) return;
    error(n.pos, "vector selector must contain at least one non-empty matcher");
  }

  static bool matches_empty(const Matcher& m) {
    switch (m.op) {
      case MatchOp::kEqual: return m.value.empty();
      case MatchOp::kNotEqual: return !m.value.empty();
      case MatchOp::kRegex:
      case MatchOp::kNotRegex: {
        auto re = Regex::compile(m.value, nullptr);
        bool match = re && re->full_match("");
        return m.op == MatchOp::kRegex ? match : !match;
      }
    }
    return true;
  }
};

}  // namespace

ValueType check_tree(const Node& n, std::vector<ParseError>& errors) { return Checker(errors).check(n); }

}  // namespace capstan::promql
