// A precedence-climbing parser with the grammar, precedences and semantic actions of Prometheus
// 2.42's yacc grammar (promql/parser/generated_parser.y): operators from `or` (lowest) to `^`
// (highest, right-associative); unary +/- binds like `*` over `^`; `[...]`, `offset` and `@`
// bind tighter than any operator; keywords may name metrics where an expression starts.
#include "apis/monitoring/promql/promql.h"

#include "apis/monitoring/promql/checker.h"
#include "apis/monitoring/promql/functions.h"
#include "apis/monitoring/promql/lexer.h"
#include "apis/monitoring/promql/number.h"
#include "apis/monitoring/promql/regex.h"
#include "apis/monitoring/promql/strings.h"

#include <cmath>
#include <limits>

namespace capstan::promql {
namespace {

// Thrown at the first syntax error (or bound exceeded): parsing stops there.
struct Stop {};

int precedence(Tok t) {
  switch (t) {
    case Tok::kLor: return 1;
    case Tok::kLand:
    case Tok::kLunless: return 2;
    case Tok::kEqlc:
    case Tok::kNeq:
    case Tok::kLss:
    case Tok::kLte:
    case Tok::kGtr:
    case Tok::kGte: return 3;
    case Tok::kAdd:
    case Tok::kSub: return 4;
    case Tok::kMul:
    case Tok::kDiv:
    case Tok::kMod:
    case Tok::kAtan2: return 5;
    case Tok::kPow: return 6;
    default: return 0;
  }
}
constexpr int kUnaryOperandPrecedence = 6;  // `unary_op expr %prec MUL`: only ^ binds tighter

// Tokens that may name a metric where an expression starts (metric_identifier).
bool is_metric_identifier(Tok t) {
  switch (t) {
    case Tok::kIdentifier:
    case Tok::kMetricIdentifier:
    case Tok::kBy:
    case Tok::kWithout:
    case Tok::kLand:
    case Tok::kLor:
    case Tok::kLunless:
    case Tok::kOffset:
    case Tok::kStart:
    case Tok::kEnd: return true;
    default: return is_aggregator(t);
  }
}

// Tokens that may name a label in by(...), on(...), group_left(...) (maybe_label).
bool is_maybe_label(Tok t) {
  switch (t) {
    case Tok::kIdentifier:
    case Tok::kMetricIdentifier:
    case Tok::kBool:
    case Tok::kBy:
    case Tok::kGroupLeft:
    case Tok::kGroupRight:
    case Tok::kIgnoring:
    case Tok::kLand:
    case Tok::kLor:
    case Tok::kLunless:
    case Tok::kOffset:
    case Tok::kOn:
    case Tok::kStart:
    case Tok::kEnd:
    case Tok::kAtan2: return true;
    default: return is_aggregator(t);
  }
}

class Parser {
 public:
  Parser(std::string_view input, const Limits& limits) : input_(input), limits_(limits), tokens_(lex(input)) {}

  std::unique_ptr<Node> run() {
    try {
      if (peek().type == Tok::kEof) {
        error(0, "no expression found in input");
        return nullptr;
      }
      auto e = expr(0);
      if (peek().type != Tok::kEof) unexpected("", "");
      return e;
    } catch (const Stop&) {
      return nullptr;
    }
  }

  std::vector<ParseError>& errors() { return errors_; }

 private:
  std::string_view input_;
  const Limits& limits_;
  std::vector<Token> tokens_;
  std::size_t next_ = 0;
  std::size_t depth_ = 0;
  std::size_t nodes_ = 0;
  int in_aggregation_ = 0;  // yacc's `aggregate_op error` rule names errors inside an aggregation
  std::vector<ParseError> errors_;

  const Token& peek(std::size_t ahead = 0) const {
    std::size_t i = std::min(next_ + ahead, tokens_.size() - 1);
    return tokens_[i];
  }
  Token take() {
    Token t = peek();
    if (next_ < tokens_.size() - 1) ++next_;
    return t;
  }

  void error(std::size_t pos, std::string message) { errors_.push_back(ParseError{pos, std::move(message)}); }

  // p.unexpected(context, expected): names the token in the way, or the lexer's error.
  [[noreturn]] void unexpected(std::string_view context, std::string_view expected) {
    const Token& t = peek();
    if (t.type == Tok::kError) {
      error(t.pos, t.text);
    } else {
      std::string m = "unexpected " + describe(t);
      if (context.empty() && in_aggregation_ > 0) context = "aggregation";
      if (!context.empty()) m += " in " + std::string(context);
      if (!expected.empty()) m += ", expected " + std::string(expected);
      error(t.pos, std::move(m));
    }
    throw Stop{};
  }

  std::unique_ptr<Node> make(NodeKind kind, std::size_t pos) {
    if (++nodes_ > limits_.max_nodes) {
      error(pos, "expression has more than " + std::to_string(limits_.max_nodes) + " nodes");
      throw Stop{};
    }
    auto n = std::make_unique<Node>();
    n->kind = kind;
    n->pos = pos;
    return n;
  }
  void adopt(Node& parent, std::unique_ptr<Node> child) {
    parent.depth = std::max(parent.depth, child->depth + 1);
    if (parent.depth > limits_.max_depth) too_deep(parent.pos);
    parent.children.push_back(std::move(child));
  }
  [[noreturn]] void too_deep(std::size_t pos) {
    error(pos, "expression nests more than " + std::to_string(limits_.max_depth) + " levels deep");
    throw Stop{};
  }
  struct Nest {
    Parser& p;
    explicit Nest(Parser& parser) : p(parser) {
      if (++p.depth_ > p.limits_.max_depth) p.too_deep(p.peek().pos);
    }
    ~Nest() { --p.depth_; }
  };

  // expr with every binary operator of at least `min_prec`.
  std::unique_ptr<Node> expr(int min_prec) {
    Nest nest(*this);
    auto lhs = unary();
    while (true) {
      Tok op = peek().type;
      int prec = precedence(op);
      if (prec == 0 || prec < min_prec) break;
      std::size_t op_pos = take().pos;
      auto bin = make(NodeKind::kBinary, lhs->pos);
      bin->op = op;
      bin->op_pos = op_pos;
      bin_modifiers(*bin);
      auto rhs = expr(op == Tok::kPow ? prec : prec + 1);
      adopt(*bin, std::move(lhs));
      adopt(*bin, std::move(rhs));
      lhs = std::move(bin);
    }
    return lhs;
  }

  // bool, on(...)/ignoring(...), group_left(...)/group_right(...).
  void bin_modifiers(Node& bin) {
    if (peek().type == Tok::kBool) {
      take();
      bin.return_bool = true;
    }
    Tok t = peek().type;
    if (t != Tok::kOn && t != Tok::kIgnoring) return;
    take();
    bin.on = t == Tok::kOn;
    bin.matching_labels = grouping_labels();
    t = peek().type;
    if (t != Tok::kGroupLeft && t != Tok::kGroupRight) return;
    take();
    bin.card = t == Tok::kGroupLeft ? Cardinality::kManyToOne : Cardinality::kOneToMany;
    if (peek().type == Tok::kLeftParen) bin.include = grouping_labels();
  }

  // After an item of a comma-separated list closed by `close` (a trailing comma allowed): true
  // when another item follows, false at the closing token (left for the caller to take).
  bool list_continues(Tok close, std::string_view context, std::string_view expected) {
    if (peek().type == Tok::kComma) {
      take();
      return peek().type != close;
    }
    if (peek().type == close) return false;
    unexpected(context, expected);
  }

  std::vector<std::string> grouping_labels() {
    if (peek().type != Tok::kLeftParen) unexpected("grouping opts", "\"(\"");
    take();
    std::vector<std::string> labels;
    if (peek().type == Tok::kRightParen) {
      take();
      return labels;
    }
    while (true) {
      const Token& t = peek();
      if (!is_maybe_label(t.type) || t.type == Tok::kMetricIdentifier) unexpected("grouping opts", "label");
      labels.push_back(take().text);
      if (!list_continues(Tok::kRightParen, "grouping opts", "\",\" or \")\"")) break;
    }
    take();
    return labels;
  }

  std::unique_ptr<Node> unary() {
    Tok t = peek().type;
    if (t != Tok::kAdd && t != Tok::kSub) return postfix(primary());
    std::size_t pos = take().pos;
    auto operand = expr(kUnaryOperandPrecedence);
    if (operand->kind == NodeKind::kNumber) {  // -1 is a number literal, not an operation
      if (t == Tok::kSub) operand->number = -operand->number;
      operand->pos = pos;
      return operand;
    }
    auto n = make(NodeKind::kUnary, pos);
    n->op = t;
    adopt(*n, std::move(operand));
    return n;
  }

  std::unique_ptr<Node> primary() {
    const Token& t = peek();
    switch (t.type) {
      case Tok::kNumber: {
        Token tok = take();
        auto n = make(NodeKind::kNumber, tok.pos);
        std::string why;
        if (auto v = parse_number(tok.text, &why)) n->number = *v;
        else error(tok.pos, "error parsing number: " + why);
        return n;
      }
      case Tok::kString: {
        Token tok = take();
        auto n = make(NodeKind::kString, tok.pos);
        n->text = unquote(tok.text);
        return n;
      }
      case Tok::kLeftParen: {
        std::size_t pos = take().pos;
        auto n = make(NodeKind::kParen, pos);
        adopt(*n, expr(0));
        if (peek().type != Tok::kRightParen) unexpected("", "");
        take();
        return n;
      }
      case Tok::kLeftBrace: return selector("", t.pos);
      case Tok::kIdentifier:
        if (peek(1).type == Tok::kLeftParen) return call();
        break;
      default: break;
    }
    if (is_aggregator(t.type)) {
      Tok after = peek(1).type;
      if (after == Tok::kLeftParen || after == Tok::kBy || after == Tok::kWithout) return aggregation();
    }
    if (is_metric_identifier(t.type)) {
      Token name = take();
      return selector(name.text, name.pos);
    }
    unexpected("", "");
  }

  std::unique_ptr<Node> call() {
    Token name = take();
    auto n = make(NodeKind::kCall, name.pos);
    for (auto& arg : call_body()) adopt(*n, std::move(arg));
    n->func = find_function(name.text);
    if (!n->func) errors_.push_back(ParseError{name.pos, "unknown function with name " + go_quote(name.text), true});
    return n;
  }

  // ( args ) of a function or an aggregation.
  std::vector<std::unique_ptr<Node>> call_body() {
    Nest nest(*this);
    take();  // (
    std::vector<std::unique_ptr<Node>> args;
    if (peek().type == Tok::kRightParen) {
      take();
      return args;
    }
    while (true) {
      args.push_back(expr(0));
      if (peek().type == Tok::kComma) {
        std::size_t comma = take().pos;
        if (peek().type == Tok::kRightParen) {
          error(comma, "trailing commas not allowed in function call args");
          break;
        }
        continue;
      }
      if (peek().type == Tok::kRightParen) break;
      unexpected("", "");
    }
    take();
    return args;
  }

  std::unique_ptr<Node> aggregation() {
    Token op = take();
    auto n = make(NodeKind::kAggregate, op.pos);
    n->op = op.type;
    auto modifier = [&] {
      n->without = take().type == Tok::kWithout;
      n->grouping = grouping_labels();
    };
    bool before = peek().type == Tok::kBy || peek().type == Tok::kWithout;
    if (before) modifier();
    if (peek().type != Tok::kLeftParen) unexpected("aggregation", "");
    ++in_aggregation_;
    auto args = call_body();
    --in_aggregation_;
    if (!before && (peek().type == Tok::kBy || peek().type == Tok::kWithout)) modifier();
    if (args.empty()) {
      error(op.pos, "no arguments for aggregate expression provided");
      return n;
    }
    std::size_t want = is_aggregator_with_param(op.type) ? 2 : 1;
    if (args.size() != want) {
      error(op.pos, "wrong number of arguments for aggregate expression provided, expected " + std::to_string(want) +
                        ", got " + std::to_string(args.size()));
      return n;
    }
    n->has_param = want == 2;
    for (auto& a : args) adopt(*n, std::move(a));
    return n;
  }

  // A vector selector: `name`, `name{...}` or `{...}`.
  std::unique_ptr<Node> selector(std::string name, std::size_t pos) {
    auto n = make(NodeKind::kVectorSelector, pos);
    n->text = std::move(name);
    if (peek().type != Tok::kLeftBrace) return n;
    take();
    if (peek().type == Tok::kRightBrace) {
      take();
      return n;
    }
    while (true) {
      if (peek().type != Tok::kIdentifier) unexpected("label matching", "identifier or \"}\"");
      Token label = take();
      MatchOp op;
      switch (peek().type) {
        case Tok::kEql: op = MatchOp::kEqual; break;
        case Tok::kNeq: op = MatchOp::kNotEqual; break;
        case Tok::kEqlRegex: op = MatchOp::kRegex; break;
        case Tok::kNeqRegex: op = MatchOp::kNotRegex; break;
        default: unexpected("label matching", "label matching operator");
      }
      take();
      if (peek().type != Tok::kString) unexpected("label matching", "string");
      std::string value = unquote(take().text);
      if (op == MatchOp::kRegex || op == MatchOp::kNotRegex) {
        if (auto why = regex_error(value)) error(label.pos, *why);
      }
      n->matchers.push_back(Matcher{label.text, op, std::move(value)});
      if (!list_continues(Tok::kRightBrace, "label matching", "\",\" or \"}\"")) break;
    }
    take();
    return n;
  }

  // [range], [range:step], offset d, @ t after an expression.
  std::unique_ptr<Node> postfix(std::unique_ptr<Node> e) {
    while (true) {
      switch (peek().type) {
        case Tok::kLeftBracket: e = range_or_subquery(std::move(e)); break;
        case Tok::kOffset: offset(*e); break;
        case Tok::kAt: at(*e); break;
        default: return e;
      }
    }
  }

  // The duration token at the cursor (the grammar's `duration`); errors are recorded, not fatal.
  std::int64_t duration() {
    Token t = take();
    std::string why;
    auto d = parse_duration(t.text, &why);
    if (!d) {
      error(t.pos, why);
      return 0;
    }
    if (*d == 0) error(t.pos, "duration must be greater than 0");
    return *d;
  }

  std::unique_ptr<Node> range_or_subquery(std::unique_ptr<Node> e) {
    std::size_t bracket = take().pos;
    if (peek().type != Tok::kDuration) unexpected("subquery selector", "duration");
    std::int64_t range = duration();
    if (peek().type == Tok::kRightBracket) {
      take();
      const char* why = nullptr;
      if (e->kind != NodeKind::kVectorSelector) why = "ranges only allowed for vector selectors";
      else if (e->offset_ms != 0) why = "no offset modifiers allowed before range";
      else if (e->at == AtKind::kTimestamp) why = "no @ modifiers allowed before range";
      if (why) error(bracket, why);
      auto m = make(NodeKind::kMatrixSelector, e->pos);
      m->range_ms = range;
      adopt(*m, std::move(e));
      return m;
    }
    if (peek().type != Tok::kColon) unexpected("subquery or range", "\":\" or \"]\"");
    take();
    std::int64_t step = 0;
    bool has_step = peek().type == Tok::kDuration;
    if (has_step) step = duration();
    if (peek().type != Tok::kRightBracket)
      unexpected("subquery selector", has_step ? "\"]\"" : "duration or \"]\"");
    take();
    auto s = make(NodeKind::kSubquery, e->pos);
    s->range_ms = range;
    s->step_ms = step;
    adopt(*s, std::move(e));
    return s;
  }

  // The node an offset or @ modifier lands on (a matrix selector's lives in its vector
  // selector), or nullptr after recording why there is none.
  Node* modifier_target(Node& e, const char* what) {
    switch (e.kind) {
      case NodeKind::kVectorSelector:
      case NodeKind::kSubquery: return &e;
      case NodeKind::kMatrixSelector:
        if (e.children[0]->kind == NodeKind::kVectorSelector) return e.children[0].get();
        error(e.pos, "ranges only allowed for vector selectors");
        return nullptr;
      default:
        error(e.pos, std::string(what) + " modifier must be preceded by an instant vector selector or range vector selector or a subquery");
        return nullptr;
    }
  }

  void offset(Node& e) {
    take();
    bool negative = peek().type == Tok::kSub;
    if (negative) take();
    if (peek().type != Tok::kDuration) unexpected("offset", "duration");
    std::int64_t d = duration();
    Node* target = modifier_target(e, "offset");
    if (!target) return;
    if (target->offset_ms != 0) error(e.pos, "offset may not be set multiple times");
    else target->offset_ms = negative ? -d : d;
  }

  void at(Node& e) {
    take();
    Tok t = peek().type;
    if (t == Tok::kStart || t == Tok::kEnd) {
      if (peek(1).type != Tok::kLeftParen) {
        take();
        unexpected("@", "timestamp");
      }
      if (peek(2).type != Tok::kRightParen) {
        take(), take();
        unexpected("@", "timestamp");
      }
      take(), take(), take();
      if (Node* target = at_target(e)) target->at = t == Tok::kStart ? AtKind::kStart : AtKind::kEnd;
      return;
    }
    bool negative = false;
    if (t == Tok::kAdd || t == Tok::kSub) {
      negative = t == Tok::kSub;
      take();
    }
    if (peek().type != Tok::kNumber) unexpected("@", "timestamp");
    Token num = take();
    std::string why;
    double ts = 0;
    if (auto v = parse_number(num.text, &why)) ts = negative ? -*v : *v;
    else error(num.pos, "error parsing number: " + why);
    constexpr double kMax = static_cast<double>(std::numeric_limits<std::int64_t>::max());
    constexpr double kMin = static_cast<double>(std::numeric_limits<std::int64_t>::min());
    if (std::isinf(ts) || std::isnan(ts) || ts >= kMax || ts <= kMin)
      error(e.pos, "timestamp out of bounds for @ modifier: " + go_format_f(ts));
    if (Node* target = at_target(e)) {
      target->at = AtKind::kTimestamp;
      target->at_seconds = ts;
    }
  }

  Node* at_target(Node& e) {
    Node* target = modifier_target(e, "@");
    if (target && target->at != AtKind::kNone) {
      error(e.pos, "@ <timestamp> may not be set multiple times");
      return nullptr;
    }
    return target;
  }
};

std::string position(std::string_view input, std::size_t pos) {
  if (pos > input.size()) return "invalid position:";
  std::size_t line = 1;
  long last_break = -1;
  for (std::size_t i = 0; i < pos; ++i)
    if (input[i] == '\n') {
      ++line;
      last_break = static_cast<long>(i);
    }
  return std::to_string(line) + ":" + std::to_string(static_cast<long>(pos) - last_break) + ":";
}

}  // namespace

std::string ParseError::str(std::string_view input) const { return position(input, pos) + " parse error: " + message; }

ParseResult parse(std::string_view input, const Limits& limits) {
  ParseResult result;
  if (input.size() > limits.max_bytes) {
    result.error = ParseError{0, "expression is " + std::to_string(input.size()) + " bytes, more than " +
                                     std::to_string(limits.max_bytes)};
    return result;
  }
  Parser parser(input, limits);
  auto expr = parser.run();
  auto& errors = parser.errors();
  if (errors.empty() && expr) check_tree(*expr, errors);  // types are checked only without syntax errors
  if (!errors.empty()) {
    result.error = std::move(errors.front());
    return result;
  }
  result.expr = std::move(expr);
  return result;
}

std::string check(std::string_view input, const Limits& limits) {
  auto r = parse(input, limits);
  return r.error ? r.error->str(input) : "";
}

}  // namespace capstan::promql
