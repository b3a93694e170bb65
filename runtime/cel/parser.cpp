#include "runtime/cel/parser.h"

#include "runtime/cel/lexer.h"

#include <stdexcept>

namespace capstan::cel {
namespace {

// Thrown inside the parser only; parse() turns it into ParseResult::error.
struct SyntaxError {
  int offset;
  std::string message;
};

class Parser {
 public:
  Parser(std::string_view src, const ParseLimits& limits) : src_(src), lex_(src), limits_(limits) { advance(); }

  ExprPtr parse_all() {
    ExprPtr e = expr();
    if (tok_.kind != Tok::End) fail(tok_.offset, "unexpected " + describe(tok_));
    return e;
  }

 private:
  [[noreturn]] void fail(int offset, std::string msg) { throw SyntaxError{offset, std::move(msg)}; }

  static std::string describe(const Token& t) {
    switch (t.kind) {
      case Tok::End: return "end of input";
      case Tok::Ident: return "'" + t.text + "'";
      case Tok::Punct: return "'" + t.text + "'";
      case Tok::Literal: return "literal";
      case Tok::Error: return t.text;
    }
    return "token";
  }

  void advance() {
    tok_ = lex_.next();
    if (tok_.kind == Tok::Error) fail(tok_.offset, tok_.text);
  }
  bool is(std::string_view punct) const { return tok_.kind == Tok::Punct && tok_.text == punct; }
  void expect(std::string_view punct) {
    if (!is(punct)) fail(tok_.offset, "expected '" + std::string(punct) + "', found " + describe(tok_));
    advance();
  }

  std::shared_ptr<Expr> node(ExprKind k, int offset) {
    auto e = std::make_shared<Expr>();
    e->kind = k;
    e->offset = offset;
    return e;
  }
  // Sets the depth from the children and enforces the bound.
  ExprPtr done(std::shared_ptr<Expr> e) {
    int d = 0;
    if (e->target) d = e->target->depth;
    for (const auto& a : e->args) d = std::max(d, a->depth);
    e->depth = d + 1;
    if (e->depth > limits_.max_depth)
      fail(e->offset, "expression nested too deeply (more than " + std::to_string(limits_.max_depth) + " levels)");
    return e;
  }

  struct Nest {
    Parser& p;
    explicit Nest(Parser& parser, int offset) : p(parser) {
      if (++p.nesting_ > p.limits_.max_depth)
        p.fail(offset, "expression nested too deeply (more than " + std::to_string(p.limits_.max_depth) + " levels)");
    }
    ~Nest() { --p.nesting_; }
  };

  ExprPtr expr() {
    Nest n(*this, tok_.offset);
    ExprPtr c = logical(ExprKind::Or);
    if (!is("?")) return c;
    int at = tok_.offset;
    advance();
    ExprPtr a = logical(ExprKind::Or);
    expect(":");
    ExprPtr b = expr();
    auto e = node(ExprKind::Cond, at);
    e->args = {c, a, b};
    return done(e);
  }

  // A chain of || (or &&) operands, built as a balanced tree.
  ExprPtr logical(ExprKind k) {
    std::string_view op = k == ExprKind::Or ? "||" : "&&";
    std::vector<ExprPtr> terms;
    std::vector<int> ops;
    terms.push_back(k == ExprKind::Or ? logical(ExprKind::And) : relation());
    while (is(op)) {
      ops.push_back(tok_.offset);
      advance();
      terms.push_back(k == ExprKind::Or ? logical(ExprKind::And) : relation());
    }
    return balance(k, terms, ops, 0, terms.size());
  }

  ExprPtr balance(ExprKind k, const std::vector<ExprPtr>& terms, const std::vector<int>& ops, std::size_t lo, std::size_t hi) {
    if (hi - lo == 1) return terms[lo];
    std::size_t mid = lo + (hi - lo) / 2;
    auto e = node(k, ops[mid - 1]);
    e->args = {balance(k, terms, ops, lo, mid), balance(k, terms, ops, mid, hi)};
    return done(e);
  }

  std::optional<BinaryOp> relop() const {
    if (tok_.kind == Tok::Ident && tok_.text == "in") return BinaryOp::In;
    if (tok_.kind != Tok::Punct) return std::nullopt;
    const auto& t = tok_.text;
    if (t == "==") return BinaryOp::Eq;
    if (t == "!=") return BinaryOp::Ne;
    if (t == "<") return BinaryOp::Lt;
    if (t == "<=") return BinaryOp::Le;
    if (t == ">") return BinaryOp::Gt;
    if (t == ">=") return BinaryOp::Ge;
    return std::nullopt;
  }

  ExprPtr binary(BinaryOp op, int at, ExprPtr l, ExprPtr r) {
    auto e = node(ExprKind::Binary, at);
    e->op = op;
    e->args = {std::move(l), std::move(r)};
    return done(e);
  }

  ExprPtr relation() {
    ExprPtr l = addition();
    while (auto op = relop()) {
      int at = tok_.offset;
      advance();
      l = binary(*op, at, l, addition());
    }
    return l;
  }

  ExprPtr addition() {
    ExprPtr l = multiplication();
    while (is("+") || is("-")) {
      BinaryOp op = is("+") ? BinaryOp::Add : BinaryOp::Sub;
      int at = tok_.offset;
      advance();
      l = binary(op, at, l, multiplication());
    }
    return l;
  }

  ExprPtr multiplication() {
    ExprPtr l = unary();
    while (is("*") || is("/") || is("%")) {
      BinaryOp op = is("*") ? BinaryOp::Mul : (is("/") ? BinaryOp::Div : BinaryOp::Mod);
      int at = tok_.offset;
      advance();
      l = binary(op, at, l, unary());
    }
    return l;
  }

  ExprPtr unary() {
    if (is("!") || is("-")) {
      std::string op = tok_.text;
      int at = tok_.offset;
      int count = 0;
      while (is(op)) {
        ++count;
        advance();
        if (count > limits_.max_depth) fail(at, "expression nested too deeply");
      }
      ExprPtr inner;
      // -<int literal> is folded so that -9223372036854775808 is representable.
      if (op == "-" && tok_.kind == Tok::Literal && tok_.value.kind() == Kind::Int && count % 2 == 1) {
        Token lit = tok_;
        advance();
        auto e = node(ExprKind::Literal, at);
        e->literal = lit.int_magnitude_overflow ? lit.value : Value::integer(-lit.value.as_int());
        inner = member_suffix(done(e));
        count -= 1;
      } else {
        inner = member();
      }
      for (int i = 0; i < count; ++i) {
        auto e = node(op == "!" ? ExprKind::Not : ExprKind::Neg, at);
        e->args = {inner};
        inner = done(e);
      }
      return inner;
    }
    return member();
  }

  ExprPtr member() { return member_suffix(primary()); }

  std::vector<ExprPtr> call_args(std::string_view close) {
    std::vector<ExprPtr> args;
    if (is(close)) {
      advance();
      return args;
    }
    for (;;) {
      args.push_back(expr());
      if (is(",")) {
        advance();
        if (is(close) && close != ")") break;  // trailing comma in list/map literals
        continue;
      }
      break;
    }
    expect(close);
    return args;
  }

  ExprPtr member_suffix(ExprPtr e) {
    for (;;) {
      if (is(".?") || is("[?")) fail(tok_.offset, "optional field selection (" + tok_.text + ") is not supported");
      if (is(".")) {
        int at = tok_.offset;
        advance();
        if (tok_.kind != Tok::Ident) fail(tok_.offset, "expected a field name after '.', found " + describe(tok_));
        std::string name = tok_.text;
        if (is_reserved_word(name) || name == "in" || name == "true" || name == "false" || name == "null")
          fail(tok_.offset, "reserved identifier '" + name + "'");
        advance();
        if (is("(")) {
          advance();
          auto args = call_args(")");
          e = member_call(at, e, name, std::move(args));
        } else {
          auto s = node(ExprKind::Select, at);
          s->target = e;
          s->name = name;
          e = done(s);
        }
      } else if (is("[")) {
        int at = tok_.offset;
        advance();
        auto idx = expr();
        expect("]");
        auto s = node(ExprKind::Index, at);
        s->target = e;
        s->args = {idx};
        e = done(s);
      } else {
        return e;
      }
    }
  }

  ExprPtr member_call(int at, ExprPtr target, const std::string& name, std::vector<ExprPtr> args) {
    static const std::pair<std::string_view, MacroKind> kMacros[] = {
        {"all", MacroKind::All}, {"exists", MacroKind::Exists}, {"exists_one", MacroKind::ExistsOne},
        {"map", MacroKind::Map}, {"filter", MacroKind::Filter}};
    for (auto [mname, kind] : kMacros) {
      if (name != mname) continue;
      bool arity_ok = args.size() == 2 || (kind == MacroKind::Map && args.size() == 3);
      if (!arity_ok) {
        if (args.size() == 3 && kind != MacroKind::Map)
          fail(at, "two-variable comprehension " + name + "(k, v, ...) is not supported");
        fail(at, "wrong number of arguments to the " + name + "() macro");
      }
      if (args[0]->kind != ExprKind::Ident) fail(args[0]->offset, "the first argument of " + name + "() must be a simple identifier");
      auto m = node(ExprKind::Macro, at);
      m->macro = (kind == MacroKind::Map && args.size() == 3) ? MacroKind::MapFilter : kind;
      m->name = args[0]->name;
      m->target = std::move(target);
      m->args.assign(args.begin() + 1, args.end());
      return done(m);
    }
    auto c = node(ExprKind::Call, at);
    c->name = name;
    c->target = std::move(target);
    c->args = std::move(args);
    return done(c);
  }

  ExprPtr primary() {
    int at = tok_.offset;
    if (tok_.kind == Tok::Literal) {
      if (tok_.int_magnitude_overflow) fail(at, "int literal out of range");
      auto e = node(ExprKind::Literal, at);
      e->literal = tok_.value;
      advance();
      return done(e);
    }
    if (tok_.kind == Tok::Ident) {
      std::string name = tok_.text;
      advance();
      if (name == "true" || name == "false") {
        auto e = node(ExprKind::Literal, at);
        e->literal = Value::boolean(name == "true");
        return done(e);
      }
      if (name == "null") return done(node(ExprKind::Literal, at));
      if (name == "in" || is_reserved_word(name)) fail(at, "reserved identifier '" + name + "'");
      if (is("(")) {
        advance();
        auto args = call_args(")");
        if (name == "has") {
          if (args.size() != 1 || args[0]->kind != ExprKind::Select)
            fail(at, "invalid argument to has() macro: it takes one field selection (has(a.b))");
          auto sel = std::make_shared<Expr>(*args[0]);
          sel->test_only = true;
          return sel;
        }
        auto c = node(ExprKind::Call, at);
        c->name = name;
        c->args = std::move(args);
        return done(c);
      }
      if (is("{")) fail(at, "message construction (" + name + "{...}) is not supported");
      auto e = node(ExprKind::Ident, at);
      e->name = name;
      return done(e);
    }
    if (is(".")) fail(at, "leading-dot identifiers are not supported");
    if (is("(")) {
      advance();
      auto e = expr();
      expect(")");
      return e;
    }
    if (is("[")) {
      advance();
      auto e = node(ExprKind::CreateList, at);
      e->args = call_args("]");
      return done(e);
    }
    if (is("{")) {
      advance();
      auto e = node(ExprKind::CreateMap, at);
      if (is("}")) {
        advance();
        return done(e);
      }
      for (;;) {
        e->args.push_back(expr());
        expect(":");
        e->args.push_back(expr());
        if (!is(",")) break;
        advance();
        if (is("}")) break;
      }
      expect("}");
      return done(e);
    }
    fail(at, "unexpected " + describe(tok_));
  }

  std::string_view src_;
  Lexer lex_;
  ParseLimits limits_;
  Token tok_;
  int nesting_ = 0;
};

// "line:column" of a byte offset, 1-based as cel-go reports positions.
std::string position(std::string_view src, int offset) {
  int line = 1, col = 1;
  for (int i = 0; i < offset && i < static_cast<int>(src.size()); ++i) {
    if (src[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return std::to_string(line) + ":" + std::to_string(col);
}

}  // namespace

ParseResult parse(std::string_view source, const ParseLimits& limits) {
  ParseResult r;
  if (source.size() > limits.max_length) {
    r.error = "expression is " + std::to_string(source.size()) + " bytes long, more than the limit of " +
              std::to_string(limits.max_length);
    return r;
  }
  try {
    Parser p(source, limits);
    r.expr = p.parse_all();
  } catch (const SyntaxError& e) {
    r.error = "syntax error at " + position(source, e.offset) + ": " + e.message;
  }
  return r;
}

}  // namespace capstan::cel
