#include "runtime/gofmt/json_syntax.h"

#include <cctype>
#include <deque>
#include <set>
#include <string_view>
#include <vector>

namespace capstan::gofmt {
namespace {

// encoding/json's quoteChar.
std::string quote_char(unsigned char c) {
  if (c == '\'') return "'\\''";
  if (c == '"') return "'\"'";
  static const char* hex = "0123456789abcdef";
  std::string inner;
  switch (c) {
    case '\a': inner = "\\a"; break;
    case '\b': inner = "\\b"; break;
    case '\f': inner = "\\f"; break;
    case '\n': inner = "\\n"; break;
    case '\r': inner = "\\r"; break;
    case '\t': inner = "\\t"; break;
    case '\v': inner = "\\v"; break;
    case '\\': inner = "\\\\"; break;
    default:
      if (c < 0x20 || c == 0x7f) {
        inner = std::string("\\x") + hex[c >> 4] + hex[c & 15];
      } else if (c < 0x80) {
        inner = std::string(1, static_cast<char>(c));
      } else if (c < 0xa0) {
        // string(byte) is the rune U+0080..U+009F: not printable, quoted as \u00XX.
        inner = std::string("\\u00") + hex[c >> 4] + hex[c & 15];
      } else {
        inner += static_cast<char>(0xc0 | (c >> 6));  // the rune's UTF-8
        inner += static_cast<char>(0x80 | (c & 0x3f));
      }
  }
  return "'" + inner + "'";
}

class Scanner {
 public:
  explicit Scanner(std::string_view s) : s_(s) {}

  JsonScan run() {
    JsonScan out;
    try {
      value();
      skip_space();
      if (i_ < s_.size()) fail("after top-level value");
    } catch (const std::string& e) {
      out.syntax_error = e;
    }
    out.duplicates = std::move(duplicates_);
    return out;
  }

 private:
  [[noreturn]] void fail(std::string_view context) {
    if (i_ >= s_.size()) throw std::string("unexpected end of JSON input");
    throw "invalid character " + quote_char(static_cast<unsigned char>(s_[i_])) + " " + std::string(context);
  }
  bool at_end() const { return i_ >= s_.size(); }
  char peek() const { return s_[i_]; }
  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\r' || s_[i_] == '\n')) ++i_;
  }

  // Where a value sits, as a chain of the open containers: rendered ("spec.c[0].x") only for a
  // duplicate key (building every level's path eagerly cost O(depth^2): 150 MB for 10,000
  // nested arrays).
  struct Path {
    const Path* parent;
    std::string_view key;  // an object member's key, or empty for an array element
    std::size_t index;     // an array element's index
    bool is_key;
  };

  static std::string render(const Path* p) {
    std::vector<const Path*> chain;
    for (; p; p = p->parent) chain.push_back(p);
    std::string out;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      if ((*it)->is_key) {
        if (!out.empty()) out += '.';
        out += (*it)->key;
      } else {
        out += "[" + std::to_string((*it)->index) + "]";
      }
    }
    return out;
  }

  // An open object or array. The scanner keeps them on its own stack, not the C++ one: Go
  // allows 10,000 levels, and recursive frames of that depth overflow an 8 MB stack under ASan.
  struct Container {
    bool object;
    const Path* path;           // where the container itself sits (null at the top)
    std::set<std::string> keys; // an object's members so far
    std::string key;            // the member being read
    Path child;                 // where the value being read sits
  };

  // An object's next member name, up to and including the ':' after it.
  void member_key(Container& c) {
    skip_space();
    if (at_end() || peek() != '"') fail("looking for beginning of object key string");
    c.key = string();
    c.child = Path{c.path, c.key, 0, true};
    if (!c.keys.insert(c.key).second) duplicates_.push_back(render(&c.child));
    skip_space();
    if (at_end() || peek() != ':') fail("after object key");
    ++i_;
  }

  void value() {
    std::deque<Container> open;  // a deque: the Paths point into its elements
    for (;;) {
      // A value starts here.
      skip_space();
      if (at_end()) fail("");
      char c = peek();
      if (c == '{' || c == '[') {
        if (++depth_ > kMaxDepth) fail("exceeded max depth");
        ++i_;
        const Path* where = open.empty() ? nullptr : &open.back().child;
        open.push_back(Container{c == '{', where, {}, {}, Path{where, {}, 0, false}});
        Container& top = open.back();
        skip_space();
        if (!at_end() && peek() == (top.object ? '}' : ']')) {
          ++i_;
          open.pop_back();
          --depth_;
        } else {
          if (top.object) member_key(top);
          continue;  // the first member's or element's value
        }
      } else {
        scalar();
      }
      // A value ended: close what ends with it, up to the container that goes on.
      for (;;) {
        if (open.empty()) return;
        Container& top = open.back();
        skip_space();
        if (at_end()) fail("");
        if (peek() == ',') {
          ++i_;
          if (top.object) member_key(top);
          else top.child.index++;
          break;
        }
        if (peek() == (top.object ? '}' : ']')) {
          ++i_;
          open.pop_back();
          --depth_;
          continue;
        }
        fail(top.object ? "after object key:value pair" : "after array element");
      }
    }
  }

  void scalar() {
    switch (peek()) {
      case '"': string(); return;
      case 't': literal("true"); return;
      case 'f': literal("false"); return;
      case 'n': literal("null"); return;
      default:
        if (peek() == '-' || (peek() >= '0' && peek() <= '9')) return number();
        fail("looking for beginning of value");
    }
  }

  // A string literal; returns its (unescaped enough for member names) text.
  std::string string() {
    ++i_;  // "
    std::string out;
    for (;;) {
      if (at_end()) fail("");
      unsigned char c = static_cast<unsigned char>(peek());
      if (c == '"') {
        ++i_;
        return out;
      }
      if (c < 0x20) fail("in string literal");
      if (c != '\\') {
        out += static_cast<char>(c);
        ++i_;
        continue;
      }
      ++i_;
      if (at_end()) fail("");
      char e = peek();
      switch (e) {
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case '"': out += '"'; break;
        case 'u': {
          for (int k = 0; k < 4; ++k) {
            ++i_;
            if (at_end()) fail("");
            if (!std::isxdigit(static_cast<unsigned char>(peek()))) fail("in \\u hexadecimal character escape");
          }
          out += "?";  // the code point does not matter for member names' identity checks here
          break;
        }
        default: fail("in string escape code");
      }
      ++i_;
    }
  }

  void digits() {
    while (!at_end() && peek() >= '0' && peek() <= '9') ++i_;
  }

  void number() {
    if (peek() == '-') {
      ++i_;
      if (at_end() || peek() < '0' || peek() > '9') fail("in numeric literal");
    }
    if (peek() == '0') ++i_;
    else digits();
    if (!at_end() && peek() == '.') {
      ++i_;
      if (at_end() || peek() < '0' || peek() > '9') fail("after decimal point in numeric literal");
      digits();
    }
    if (!at_end() && (peek() == 'e' || peek() == 'E')) {
      ++i_;
      if (!at_end() && (peek() == '+' || peek() == '-')) ++i_;
      if (at_end() || peek() < '0' || peek() > '9') fail("in exponent of numeric literal");
      digits();
    }
  }

  void literal(std::string_view word) {
    ++i_;
    for (std::size_t k = 1; k < word.size(); ++k) {
      if (at_end()) fail("");
      if (peek() != word[k])
        fail("in literal " + std::string(word) + " (expecting " + quote_char(static_cast<unsigned char>(word[k])) + ")");
      ++i_;
    }
  }

  static constexpr int kMaxDepth = 10000;  // encoding/json's maxNestingDepth
  std::string_view s_;
  std::size_t i_ = 0;
  int depth_ = 0;
  std::vector<std::string> duplicates_;
};

}  // namespace

JsonScan scan_json(std::string_view text) { return Scanner(text).run(); }

}  // namespace capstan::gofmt
