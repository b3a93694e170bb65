// Parser and evaluator for client-go's JSONPath dialect. The grammar is whatever client-go's
// hand-written scanner accepts, so this follows its algorithm rather than a formal grammar;
// quirks kept on purpose because kube-apiserver has them too:
//  * `['a.b']` is `.a.b` (the quoted key is re-parsed as a field path); escape dots to avoid it;
//  * union members are split on every ',' (even inside quotes);
//  * `[i]` past the end, `[0]` on an empty array, indexing a non-array, comparing values of
//    different types (1 == 1.0, "a" < 1) or a null are evaluation errors, not empty matches;
//  * a filter comparison skips elements where either side matches nothing;
//  * `$` and `@` are no-ops (they refer to the current value, also inside {range});
//  * `..` yields every non-empty object, array and string below (and including) the current
//    value, so `..name` finds `name` at any depth.
#include "apiserver/table/jsonpath.h"

#include "runtime/gofmt/gofmt.h"
#include "runtime/json/utf8.h"

#include <cctype>
#include <charconv>
#include <cstdlib>
#include <cstdio>

namespace capstan::apiserver::table {

using jsonpath_detail::Node;
using jsonpath_detail::Segment;
using jsonpath_detail::SliceParam;

namespace {

struct SyntaxError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
using Values = std::vector<const json::Value*>;

// An evaluation failure. `partial` is what the failing step returned alongside its error in
// client-go, which existence filters look at: [?(@.a[9])] keeps elements whose index fails.
struct EvalError : std::runtime_error {
  explicit EvalError(const std::string& msg, Values partial_values = {})
      : std::runtime_error(msg), partial(std::move(partial_values)) {}
  Values partial;
};

constexpr int kEof = -1;

bool is_space(int r) { return r == ' ' || r == '\t'; }
bool is_end_of_line(int r) { return r == '\r' || r == '\n'; }
bool is_digit(int r) { return r >= '0' && r <= '9'; }
// Bytes of multi-byte UTF-8 sequences count as letters (client-go asks unicode.IsLetter).
bool is_alphanumeric(int r) { return r == '_' || (r >= 0 && (std::isalnum(r) || r >= 0x80)); }
bool is_terminator(int r) {
  if (is_space(r) || is_end_of_line(r)) return true;
  switch (r) {
    case kEof: case '.': case ',': case '[': case ']': case '$': case '@': case '{': case '}': return true;
    default: return false;
  }
}
bool is_filter_op(char c) { return c == '!' || c == '<' || c == '>' || c == '='; }

// Go's %#U: "U+0021 '!'" for printable characters, "U+0009" otherwise.
std::string format_rune(int r) {
  char buf[32];
  if (r > 0x20 && r < 0x7f) {
    std::snprintf(buf, sizeof buf, "U+%04X '%c'", r, r);
  } else {
    std::snprintf(buf, sizeof buf, "U+%04X", r < 0 ? 0xFFFD : r);
  }
  return buf;
}

Node make(Node::Kind kind) {
  Node n;
  n.kind = kind;
  return n;
}

Node text_node(std::string s) {
  Node n = make(Node::Kind::Text);
  n.name = s;
  n.literal = json::String(s);
  return n;
}


int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// strconv.Unquote extended to single-quoted strings (client-go's UnquoteExtend).
std::optional<std::string> unquote_extend(std::string_view s) {
  if (s.size() < 2) return std::nullopt;
  char quote = s.front();
  if (quote != s.back() || (quote != '"' && quote != '\'')) return std::nullopt;
  s = s.substr(1, s.size() - 2);
  if (s.find('\\') == std::string_view::npos && s.find(quote) == std::string_view::npos) return std::string(s);
  std::string out;
  std::size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (c == quote) return std::nullopt;
    if (c != '\\') {
      out += c;
      ++i;
      continue;
    }
    if (i + 1 >= s.size()) return std::nullopt;
    char e = s[i + 1];
    i += 2;
    switch (e) {
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case '\\': out += '\\'; break;
      case '\'':
      case '"':
        if (e != quote) return std::nullopt;
        out += e;
        break;
      case 'x':
      case 'u':
      case 'U': {
        std::size_t n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
        if (i + n > s.size()) return std::nullopt;
        char32_t v = 0;
        for (std::size_t k = 0; k < n; ++k) {
          int h = hex_value(s[i + k]);
          if (h < 0) return std::nullopt;
          v = (v << 4) | static_cast<char32_t>(h);
        }
        i += n;
        if (e == 'x') {
          out += static_cast<char>(v);
        } else {
          if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return std::nullopt;
          json::append_utf8(out, v);
        }
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          if (i + 2 > s.size()) return std::nullopt;
          int v = e - '0';
          for (int k = 0; k < 2; ++k) {
            char d = s[i + static_cast<std::size_t>(k)];
            if (d < '0' || d > '7') return std::nullopt;
            v = v * 8 + (d - '0');
          }
          if (v > 255) return std::nullopt;
          i += 2;
          out += static_cast<char>(v);
          break;
        }
        return std::nullopt;
    }
  }
  return out;
}

std::optional<int> parse_go_int(std::string_view s) {
  bool neg = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  long long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  // Out-of-range indexes fail at evaluation anyway; clamp so index arithmetic cannot overflow.
  v = std::clamp(neg ? -v : v, -(1LL << 30), 1LL << 30);
  return static_cast<int>(v);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Parser

namespace {
std::vector<Segment> build_segments(const Node& root);
}  // namespace

class JsonPathParser {
 public:
  explicit JsonPathParser(std::string_view input) : in_(input) {}

  // Parses `text` into a JsonPath; syntax errors name `shown`.
  static JsonPath build(std::string text, std::string_view shown);

  Node parse_template() {
    Node root = make(Node::Kind::List);
    while (true) {
      auto brace = in_.find('{', pos_);
      if (brace == std::string_view::npos) {
        if (start_ < in_.size()) root.children.push_back(text_node(std::string(in_.substr(start_))));
        return root;
      }
      pos_ = brace;
      if (pos_ > start_) root.children.push_back(text_node(std::string(consume())));
      pos_ += 1;
      consume();
      Node action = make(Node::Kind::List);
      parse_action(action);
      root.children.push_back(std::move(action));
    }
  }

  // client-go's parseAction: parses `text` as the inside of one action.
  static Node parse_sub(std::string_view text) {
    std::string wrapped = "{" + std::string(text) + "}";
    JsonPathParser p(wrapped);
    Node root = p.parse_template();
    return std::move(root.children.front());
  }

 private:
  bool at(std::string_view prefix) const { return in_.substr(pos_).starts_with(prefix); }

  int next() {
    if (pos_ >= in_.size()) {
      width_ = 0;
      return kEof;
    }
    width_ = 1;
    return static_cast<unsigned char>(in_[pos_++]);
  }
  int peek() {
    int r = next();
    backup();
    return r;
  }
  void backup() { pos_ -= width_; }
  std::string_view consume() {
    auto v = in_.substr(start_, pos_ - start_);
    start_ = pos_;
    return v;
  }

  void parse_action(Node& cur) {
    while (true) {
      if (at("}")) {
        pos_ += 1;
        consume();
        return;
      }
      if (at("[?(")) {
        parse_filter(cur);
        continue;
      }
      if (at("..")) {
        parse_recursive(cur);
        continue;
      }
      int r = next();
      if (r == kEof || is_end_of_line(r)) throw SyntaxError("unclosed action");
      if (r == ' ' || r == '@' || r == '$') {
        consume();
      } else if (r == '[') {
        parse_array(cur);
      } else if (r == '"' || r == '\'') {
        parse_quote(cur, r);
      } else if (r == '.') {
        parse_field(cur);
      } else if (r == '+' || r == '-' || is_digit(r)) {
        backup();
        parse_number(cur);
      } else if (is_alphanumeric(r)) {
        backup();
        parse_identifier(cur);
      } else {
        throw SyntaxError("unrecognized character in action: " + format_rune(r));
      }
    }
  }

  void parse_identifier(Node& cur) {
    while (true) {
      int r = next();
      if (is_terminator(r)) {
        backup();
        break;
      }
    }
    std::string value(consume());
    if (value == "true" || value == "false") {
      Node n = make(Node::Kind::Bool);
      n.literal = value == "true";
      cur.children.push_back(std::move(n));
    } else {
      Node n = make(Node::Kind::Identifier);
      n.name = value;
      cur.children.push_back(std::move(n));
    }
  }

  void parse_recursive(Node& cur) {
    if (!cur.children.empty() && cur.children.back().kind == Node::Kind::Recursive)
      throw SyntaxError("invalid multiple recursive descent");
    pos_ += 2;
    consume();
    cur.children.push_back(make(Node::Kind::Recursive));
    if (is_alphanumeric(peek())) parse_field(cur);
  }

  void parse_number(Node& cur) {
    int r = peek();
    if (r == '+' || r == '-') next();
    while (true) {
      r = next();
      if (r != '.' && !is_digit(r)) {
        backup();
        break;
      }
    }
    std::string value(consume());
    std::string_view digits = value;
    bool neg = false;
    if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) {
      neg = digits[0] == '-';
      digits.remove_prefix(1);
    }
    std::int64_t iv = 0;
    auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), iv);
    if (!digits.empty() && ec == std::errc() && p == digits.data() + digits.size()) {
      Node n = make(Node::Kind::Int);
      n.literal = neg ? -iv : iv;
      cur.children.push_back(std::move(n));
      return;
    }
    char* end = nullptr;
    double d = std::strtod(value.c_str(), &end);
    bool has_digit = digits.find_first_of("0123456789") != std::string_view::npos;
    if (has_digit && end == value.c_str() + value.size()) {
      Node n = make(Node::Kind::Float);
      n.literal = d;
      cur.children.push_back(std::move(n));
      return;
    }
    throw SyntaxError("cannot parse number " + value);
  }

  void parse_array(Node& cur) {
    while (true) {
      int r = next();
      if (r == kEof || r == '\n') throw SyntaxError("unterminated array");
      if (r == ']') break;
    }
    std::string_view whole = consume();
    std::string text(whole.substr(1, whole.size() - 2));
    if (text == "*") text = ":";

    // Union: split on every ','.
    if (text.find(',') != std::string::npos) {
      Node u = make(Node::Kind::Union);
      std::size_t b = 0;
      while (true) {
        auto e = text.find(',', b);
        std::string part = text.substr(b, e == std::string::npos ? std::string::npos : e - b);
        auto f = part.find_first_not_of(' ');
        auto l = part.find_last_not_of(' ');
        part = f == std::string::npos ? std::string() : part.substr(f, l - f + 1);
        u.children.push_back(parse_sub("[" + part + "]"));
        if (e == std::string::npos) break;
        b = e + 1;
      }
      cur.children.push_back(std::move(u));
      return;
    }

    // Dict key: ['key'] is parsed as the field path .key
    if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'' &&
        text.find('\'', 1) == text.size() - 1) {
      Node sub = parse_sub("." + text.substr(1, text.size() - 2));
      for (auto& n : sub.children) cur.children.push_back(std::move(n));
      return;
    }

    // Slice: ^(-?\d*)(:-?\d*)?(:-?\d*)?$
    std::array<std::string, 3> groups;
    std::size_t i = 0;
    auto scan_number = [&](std::string& g) {
      if (i < text.size() && text[i] == '-') g += text[i++];
      while (i < text.size() && is_digit(text[i])) g += text[i++];
    };
    scan_number(groups[0]);
    for (int k = 1; k < 3 && i < text.size() && text[i] == ':'; ++k) {
      groups[k] += text[i++];
      scan_number(groups[k]);
    }
    if (i != text.size()) throw SyntaxError("invalid array index " + text);
    Node a = make(Node::Kind::Array);
    for (int k = 0; k < 3; ++k) {
      std::string v = groups[k];
      SliceParam& p = a.slice[k];
      if (!v.empty()) {
        if (k > 0) v = v.substr(1);
        if (k > 0 && v.empty()) {
          p.known = false;
        } else {
          auto n = parse_go_int(v);
          if (!n) throw SyntaxError("array index " + v + " is not a number");
          p.known = true;
          p.value = *n;
        }
      } else if (k == 1) {
        p.known = true;
        p.value = a.slice[0].value + 1;
        p.derived = true;
      }
    }
    cur.children.push_back(std::move(a));
  }

  void parse_filter(Node& cur) {
    pos_ += 3;
    consume();
    bool begin = false, end = false;
    int pair = 0;
    while (true) {
      int r = next();
      if (r == kEof || r == '\n') throw SyntaxError("unterminated filter");
      if (r == '"' || r == '\'') {
        if (!begin) {
          begin = true;
          pair = r;
          continue;
        }
        if (in_[pos_ - 2] != '\\' && r == pair) end = true;
      } else if (r == ')') {
        if (begin == end) break;
      }
    }
    if (next() != ']') throw SyntaxError("unclosed array expect ]");
    std::string_view whole = consume();
    std::string text(whole.substr(0, whole.size() - 2));

    // ^([^!<>=]+)([!<>=]+)(.+?)$
    std::size_t i = 0;
    while (i < text.size() && !is_filter_op(text[i])) ++i;
    std::size_t j = i;
    while (j < text.size() && is_filter_op(text[j])) ++j;
    std::size_t op_end = j;
    if (j == text.size() && j - i >= 2) op_end = j - 1;  // the lazy group needs one character
    bool matched = i > 0 && op_end > i && op_end < text.size();

    Node f = make(Node::Kind::Filter);
    if (!matched) {
      f.name = "exists";
      f.children.push_back(parse_sub(text));
      f.children.push_back(make(Node::Kind::List));
    } else {
      f.name = text.substr(i, op_end - i);
      f.children.push_back(parse_sub(text.substr(0, i)));
      f.children.push_back(parse_sub(text.substr(op_end)));
    }
    cur.children.push_back(std::move(f));
  }

  void parse_quote(Node& cur, int quote) {
    while (true) {
      int r = next();
      if (r == kEof || r == '\n') throw SyntaxError("unterminated quoted string");
      if (r == quote && in_[pos_ - 2] != '\\') break;
    }
    std::string value(consume());
    auto s = unquote_extend(value);
    if (!s) throw SyntaxError("unquote string " + value + " error invalid syntax");
    cur.children.push_back(text_node(*s));
  }

  void parse_field(Node& cur) {
    consume();
    while (true) {
      int r = next();
      if (r == '\\') {
        next();
      } else if (is_terminator(r)) {
        backup();
        break;
      }
    }
    std::string value(consume());
    if (value == "*") {
      cur.children.push_back(make(Node::Kind::Wildcard));
      return;
    }
    std::string unescaped;
    for (char c : value)
      if (c != '\\') unescaped += c;
    Node n = make(Node::Kind::Field);
    n.name = std::move(unescaped);
    cur.children.push_back(std::move(n));
  }

  std::string_view in_;
  std::size_t pos_ = 0;
  std::size_t start_ = 0;
  std::size_t width_ = 0;
};

namespace {

bool list_has_identifier(const Node& n, std::string_view word) {
  if (n.kind != Node::Kind::List) return false;
  for (const auto& c : n.children)
    if (c.kind == Node::Kind::Identifier && c.name == word) return true;
  return false;
}

std::vector<Segment> build_segments(const Node& root) {
  std::vector<Segment> top;
  std::vector<std::vector<Segment>*> stack{&top};
  for (std::size_t i = 0; i < root.children.size(); ++i) {
    const Node& n = root.children[i];
    Segment s;
    s.index = i;
    if (list_has_identifier(n, "range")) {
      s.kind = Segment::Kind::Range;
      stack.back()->push_back(std::move(s));
      stack.push_back(&stack.back()->back().body);
    } else if (list_has_identifier(n, "end")) {
      if (stack.size() > 1) {
        stack.pop_back();
      } else {
        s.kind = Segment::Kind::StrayEnd;
        stack.back()->push_back(std::move(s));
      }
    } else {
      stack.back()->push_back(std::move(s));
    }
  }
  return top;
}

}  // namespace

JsonPath JsonPathParser::build(std::string text, std::string_view shown) {
  JsonPath p;
  p.text_ = std::move(text);
  try {
    JsonPathParser parser(p.text_);
    p.root_ = parser.parse_template();
  } catch (const SyntaxError& e) {
    throw JsonPathError("invalid JSONPath \"" + std::string(shown) + "\": " + e.what());
  }
  p.segments_ = build_segments(p.root_);
  return p;
}

JsonPath JsonPath::parse(std::string_view text) { return JsonPathParser::build(std::string(text), text); }

JsonPath JsonPath::parse_column(std::string_view path) {
  return JsonPathParser::build("{" + std::string(path) + "}", path);
}

// ---------------------------------------------------------------------------------------------
// Evaluator

namespace {

enum class BasicKind { Bool, Int, Uint, Float, String };

BasicKind basic_kind(const json::Value& v) {
  switch (v.kind()) {
    case boost::json::kind::bool_: return BasicKind::Bool;
    case boost::json::kind::int64: return BasicKind::Int;
    case boost::json::kind::uint64: return BasicKind::Uint;
    case boost::json::kind::double_: return BasicKind::Float;
    case boost::json::kind::string: return BasicKind::String;
    default: throw EvalError("invalid type for comparison");
  }
}

// text/template's eq and lt as client-go's fork has them.
bool go_equal(const json::Value& a, const json::Value& b) {
  BasicKind ka = basic_kind(a), kb = basic_kind(b);
  if (ka != kb) {
    if (ka == BasicKind::Int && kb == BasicKind::Uint)
      return a.get_int64() >= 0 && static_cast<std::uint64_t>(a.get_int64()) == b.get_uint64();
    if (ka == BasicKind::Uint && kb == BasicKind::Int)
      return b.get_int64() >= 0 && a.get_uint64() == static_cast<std::uint64_t>(b.get_int64());
    throw EvalError("incompatible types for comparison");
  }
  switch (ka) {
    case BasicKind::Bool: return a.get_bool() == b.get_bool();
    case BasicKind::Int: return a.get_int64() == b.get_int64();
    case BasicKind::Uint: return a.get_uint64() == b.get_uint64();
    case BasicKind::Float: return a.get_double() == b.get_double();
    case BasicKind::String: return a.get_string() == b.get_string();
  }
  return false;
}

bool go_less(const json::Value& a, const json::Value& b) {
  BasicKind ka = basic_kind(a), kb = basic_kind(b);
  if (ka != kb) {
    if (ka == BasicKind::Int && kb == BasicKind::Uint)
      return a.get_int64() < 0 || static_cast<std::uint64_t>(a.get_int64()) < b.get_uint64();
    if (ka == BasicKind::Uint && kb == BasicKind::Int)
      return b.get_int64() >= 0 && a.get_uint64() < static_cast<std::uint64_t>(b.get_int64());
    throw EvalError("incompatible types for comparison");
  }
  switch (ka) {
    case BasicKind::Bool: throw EvalError("invalid type for comparison");
    case BasicKind::Int: return a.get_int64() < b.get_int64();
    case BasicKind::Uint: return a.get_uint64() < b.get_uint64();
    case BasicKind::Float: return a.get_double() < b.get_double();
    case BasicKind::String: return std::string_view(a.get_string()) < std::string_view(b.get_string());
  }
  return false;
}

bool compare(const std::string& op, const json::Value& l, const json::Value& r) {
  if (op == "<") return go_less(l, r);
  if (op == ">") return !(go_less(l, r) || go_equal(l, r));
  if (op == "==") return go_equal(l, r);
  if (op == "!=") return !go_equal(l, r);
  if (op == "<=") return go_less(l, r) || go_equal(l, r);
  if (op == ">=") return !go_less(l, r);
  throw EvalError("unrecognized filter operator " + op);
}

class Evaluator {
 public:
  Evaluator(bool allow_missing, JsonPathResults& res) : allow_missing_(allow_missing), res_(res) {}

  Values walk(const Values& input, const Node& node) {
    switch (node.kind) {
      case Node::Kind::List: {
        Values cur = input;
        for (const auto& c : node.children) cur = walk(cur, c);
        return cur;
      }
      case Node::Kind::Text: return Values{&node.literal};
      case Node::Kind::Int:
      case Node::Kind::Float:
      case Node::Kind::Bool: return Values(input.size(), &node.literal);
      case Node::Kind::Field: return field(input, node);
      case Node::Kind::Array: return array(input, node);
      case Node::Kind::Filter: return filter(input, node);
      case Node::Kind::Wildcard: return wildcard(input);
      case Node::Kind::Recursive: return recursive(input);
      case Node::Kind::Union: {
        Values out;
        for (const auto& branch : node.children) {
          Values part;
          try {
            part = walk(input, branch);
          } catch (const EvalError& e) {
            throw EvalError(e.what(), input);
          }
          out.insert(out.end(), part.begin(), part.end());
        }
        return out;
      }
      case Node::Kind::Identifier:
        if (node.name == "range") return input;
        if (node.name == "end") return {};
        throw EvalError("unrecognized identifier " + node.name, input);
    }
    return {};
  }

 private:
  Values field(const Values& input, const Node& node) {
    Values out;
    if (input.empty()) return out;
    for (const auto* v : input) {
      if (!v->is_object()) continue;
      if (const auto* m = v->get_object().if_contains(node.name)) out.push_back(m);
    }
    if (out.empty() && !allow_missing_) throw EvalError(node.name + " is not found");
    return out;
  }

  Values array(const Values& input, const Node& node) {
    Values out;
    for (const auto* v : input) {
      if (v->is_null()) continue;
      if (!v->is_array()) throw EvalError(gofmt::type_name(*v) + " is not array or slice", input);
      const auto& a = v->get_array();
      const int len = static_cast<int>(a.size());
      auto p = node.slice;
      if (!p[0].known) p[0].value = 0;
      if (p[0].value < 0) p[0].value += len;
      if (!p[1].known) p[1].value = len;
      if (p[1].value < 0 || (p[1].value == 0 && p[1].derived)) p[1].value += len;
      if (p[1].value != p[0].value) {
        if (p[0].value >= len || p[0].value < 0)
          throw EvalError("array index out of bounds: index " + std::to_string(p[0].value) + ", length " +
                          std::to_string(len), input);
        if (p[1].value > len || p[1].value < 0)
          throw EvalError("array index out of bounds: index " + std::to_string(p[1].value - 1) + ", length " +
                          std::to_string(len), input);
        if (p[0].value > p[1].value)
          throw EvalError("starting index " + std::to_string(p[0].value) + " is greater than ending index " +
                          std::to_string(p[1].value), input);
      } else {
        return out;  // client-go stops at the first empty slice
      }
      int step = 1;
      if (p[2].known) {
        if (p[2].value <= 0) throw EvalError("step must be > 0", input);
        step = p[2].value;
      }
      for (int i = p[0].value; i < p[1].value; i += step) out.push_back(&a[static_cast<std::size_t>(i)]);
    }
    return out;
  }

  Values filter(const Values& input, const Node& node) {
    Values out;
    const Node& left = node.children[0];
    const Node& right = node.children[1];
    for (const auto* v : input) {
      if (!v->is_array())
        throw EvalError(gofmt::format_v(*v) + " is not array or slice and cannot be filtered", input);  // %v
      for (const auto& elem : v->get_array()) {
        Values one{&elem};
        if (node.name == "exists") {
          Values lefts;
          try {
            lefts = walk(one, left);
          } catch (const EvalError& e) {
            lefts = e.partial;
          }
          if (!lefts.empty()) out.push_back(&elem);
          continue;
        }
        Values lefts, rights;
        try {
          lefts = walk(one, left);
        } catch (const EvalError& e) {
          throw EvalError(e.what(), input);
        }
        if (lefts.empty()) continue;
        if (lefts.size() > 1) throw EvalError("can only compare one element at a time", input);
        try {
          rights = walk(one, right);
        } catch (const EvalError& e) {
          throw EvalError(e.what(), input);
        }
        if (rights.empty()) continue;
        if (rights.size() > 1) throw EvalError("can only compare one element at a time", input);
        bool pass = false;
        try {
          pass = compare(node.name, *lefts[0], *rights[0]);
        } catch (const EvalError& e) {
          throw EvalError(e.what(), out);
        }
        if (pass) out.push_back(&elem);
      }
    }
    return out;
  }

  // Children as client-go's wildcard and recursive descent see them: object values, array
  // elements, and the bytes of a string.
  void children_of(const json::Value& v, Values& out) {
    if (v.is_object()) {
      for (const auto& kv : v.get_object()) out.push_back(&kv.value());
    } else if (v.is_array()) {
      for (const auto& e : v.get_array()) out.push_back(&e);
    } else if (v.is_string()) {
      for (unsigned char c : v.get_string()) out.push_back(&res_.owned.emplace_back(static_cast<std::int64_t>(c)));
    }
  }

  Values wildcard(const Values& input) {
    Values out;
    for (const auto* v : input) children_of(*v, out);
    return out;
  }

  Values recursive(const Values& input) {
    Values out;
    for (const auto* v : input) {
      if (v->is_null()) continue;
      Values kids;
      if (v->is_string()) {
        if (!v->get_string().empty()) out.push_back(v);  // its bytes have no children
        continue;
      }
      children_of(*v, kids);
      if (!kids.empty()) {
        out.push_back(v);
        Values deeper = recursive(kids);
        out.insert(out.end(), deeper.begin(), deeper.end());
      }
    }
    return out;
  }

  bool allow_missing_;
  JsonPathResults& res_;
};

void run(const std::vector<Segment>& segments, const Node& root, const json::Value& data, Evaluator& ev,
         JsonPathResults& res) {
  Values cur{&data};
  for (const auto& s : segments) {
    const Node& node = root.children[s.index];
    switch (s.kind) {
      case Segment::Kind::Plain: res.groups.push_back(ev.walk(cur, node)); break;
      case Segment::Kind::StrayEnd: throw EvalError("not in range, nothing to end");
      case Segment::Kind::Range: {
        Values items = ev.walk(cur, node);
        for (const auto* item : items) run(s.body, root, *item, ev, res);
        break;
      }
    }
  }
}

}  // namespace

std::vector<const json::Value*> JsonPathResults::flatten() const {
  std::vector<const json::Value*> out;
  for (const auto& g : groups) out.insert(out.end(), g.begin(), g.end());
  return out;
}

JsonPathResults JsonPath::find_results(const json::Value& data) const {
  JsonPathResults res;
  Evaluator ev(allow_missing_keys_, res);
  try {
    run(segments_, root_, data, ev, res);
  } catch (const EvalError& e) {
    throw JsonPathError("JSONPath \"" + text_ + "\": " + e.what());
  }
  return res;
}

std::vector<json::Value> JsonPath::find(const json::Value& data) const {
  auto res = find_results(data);
  std::vector<json::Value> out;
  for (const auto* v : res.flatten()) out.push_back(*v);
  return out;
}

std::string print_value(const json::Value& v) {
  if (v.is_object() || v.is_array()) return gofmt::json_marshal(v);
  return gofmt::format_v(v);
}

std::string print_results(const std::vector<const json::Value*>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) out += ' ';
    out += print_value(*values[i]);
  }
  return out;
}

std::string JsonPath::execute(const json::Value& data) const {
  auto res = find_results(data);
  std::string out;
  for (const auto& g : res.groups) out += print_results(g);
  return out;
}

}  // namespace capstan::apiserver::table
