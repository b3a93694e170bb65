#include "runtime/cel/lexer.h"

#include "runtime/json/utf8.h"

#include <array>
#include <cerrno>
#include <cstdlib>
#include <limits>

namespace capstan::cel {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool ident_char(char c) { return ident_start(c) || is_digit(c); }
int hex_val(char c) { return is_digit(c) ? c - '0' : (c >= 'a' ? c - 'a' + 10 : c - 'A' + 10); }


}  // namespace

bool is_reserved_word(std::string_view s) {
  static constexpr std::array<std::string_view, 17> kWords = {
      "as", "break", "const", "continue", "else", "for", "function", "if", "import",
      "let", "loop", "package", "namespace", "return", "var", "void", "while"};
  for (auto w : kWords)
    if (w == s) return true;
  return false;
}

Token Lexer::error(int at, std::string msg) {
  Token t;
  t.kind = Tok::Error;
  t.offset = at;
  t.text = std::move(msg);
  pos_ = src_.size();
  return t;
}

Token Lexer::next() {
  // Whitespace and // comments.
  while (pos_ < src_.size()) {
    char c = src_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '/') {
      while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
    } else {
      break;
    }
  }
  Token t;
  t.offset = static_cast<int>(pos_);
  if (pos_ >= src_.size()) return t;
  char c = src_[pos_];
  if (is_digit(c) || (c == '.' && pos_ + 1 < src_.size() && is_digit(src_[pos_ + 1]))) return number();
  if (ident_start(c)) {
    // String prefixes: r, b, rb, br (any case) directly followed by a quote.
    std::size_t p = pos_;
    bool raw = false, bytes = false;
    for (int i = 0; i < 2 && p < src_.size(); ++i) {
      char d = src_[p];
      if ((d == 'r' || d == 'R') && !raw) raw = true;
      else if ((d == 'b' || d == 'B') && !bytes) bytes = true;
      else break;
      ++p;
      if (p < src_.size() && (src_[p] == '"' || src_[p] == '\'')) {
        pos_ = p;
        return quoted(raw, bytes);
      }
    }
    std::size_t b = pos_;
    while (pos_ < src_.size() && ident_char(src_[pos_])) ++pos_;
    t.kind = Tok::Ident;
    t.text = std::string(src_.substr(b, pos_ - b));
    return t;
  }
  if (c == '"' || c == '\'') return quoted(false, false);
  static constexpr std::array<std::string_view, 8> kTwo = {"==", "!=", "<=", ">=", "&&", "||", ".?", "[?"};
  for (auto op : kTwo) {
    if (src_.substr(pos_, 2) == op) {
      pos_ += 2;
      t.kind = Tok::Punct;
      t.text = std::string(op);
      return t;
    }
  }
  static constexpr std::string_view kOne = "<>!+-*/%?:.,[](){}";
  if (kOne.find(c) != std::string_view::npos) {
    ++pos_;
    t.kind = Tok::Punct;
    t.text = std::string(1, c);
    return t;
  }
  return error(t.offset, std::string("unexpected character '") + c + "'");
}

Token Lexer::number() {
  Token t;
  t.offset = static_cast<int>(pos_);
  t.kind = Tok::Literal;
  std::size_t b = pos_;
  if (src_[pos_] == '0' && pos_ + 1 < src_.size() && (src_[pos_ + 1] == 'x' || src_[pos_ + 1] == 'X')) {
    pos_ += 2;
    std::size_t d = pos_;
    while (pos_ < src_.size() && is_hex(src_[pos_])) ++pos_;
    if (pos_ == d) return error(t.offset, "invalid hex literal");
    std::uint64_t v = 0;
    for (std::size_t i = d; i < pos_; ++i) {
      if (v > (std::numeric_limits<std::uint64_t>::max() >> 4)) return error(t.offset, "hex literal out of range");
      v = (v << 4) | static_cast<std::uint64_t>(hex_val(src_[i]));
    }
    if (pos_ < src_.size() && (src_[pos_] == 'u' || src_[pos_] == 'U')) {
      ++pos_;
      t.value = Value::uinteger(v);
    } else {
      if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        return error(t.offset, "int literal out of range");
      t.value = Value::integer(static_cast<std::int64_t>(v));
    }
    return t;
  }
  while (pos_ < src_.size() && is_digit(src_[pos_])) ++pos_;
  bool is_double = false;
  if (pos_ + 1 < src_.size() && src_[pos_] == '.' && is_digit(src_[pos_ + 1])) {
    is_double = true;
    ++pos_;
    while (pos_ < src_.size() && is_digit(src_[pos_])) ++pos_;
  }
  if (pos_ < src_.size() && (src_[pos_] == 'e' || src_[pos_] == 'E')) {
    std::size_t e = pos_ + 1;
    if (e < src_.size() && (src_[e] == '+' || src_[e] == '-')) ++e;
    if (e < src_.size() && is_digit(src_[e])) {
      is_double = true;
      pos_ = e;
      while (pos_ < src_.size() && is_digit(src_[pos_])) ++pos_;
    }
  }
  std::string text(src_.substr(b, pos_ - b));
  if (is_double) {
    errno = 0;
    double d = std::strtod(text.c_str(), nullptr);
    if (errno == ERANGE && (d > 1 || d < -1)) return error(t.offset, "double literal out of range");
    t.value = Value::dbl(d);
    return t;
  }
  // Decimal integers: leading zeros are not allowed beyond a single 0 (as in cel-go's grammar).
  if (text.size() > 1 && text[0] == '0') return error(t.offset, "invalid int literal '" + text + "'");
  std::uint64_t v = 0;
  bool overflow = false;
  for (char ch : text) {
    if (v > (std::numeric_limits<std::uint64_t>::max() - static_cast<std::uint64_t>(ch - '0')) / 10) {
      overflow = true;
      break;
    }
    v = v * 10 + static_cast<std::uint64_t>(ch - '0');
  }
  if (pos_ < src_.size() && (src_[pos_] == 'u' || src_[pos_] == 'U')) {
    ++pos_;
    if (overflow) return error(t.offset, "uint literal out of range");
    t.value = Value::uinteger(v);
    return t;
  }
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (overflow || v > kMax + 1) return error(t.offset, "int literal out of range");
  if (v == kMax + 1) {
    t.int_magnitude_overflow = true;  // only valid as the operand of unary minus
    t.value = Value::integer(std::numeric_limits<std::int64_t>::min());
  } else {
    t.value = Value::integer(static_cast<std::int64_t>(v));
  }
  return t;
}

Token Lexer::quoted(bool raw, bool bytes) {
  Token t;
  t.offset = static_cast<int>(pos_);
  t.kind = Tok::Literal;
  char q = src_[pos_];
  bool triple = src_.substr(pos_, 3) == std::string(3, q);
  pos_ += triple ? 3 : 1;
  std::string out;
  for (;;) {
    if (pos_ >= src_.size()) return error(t.offset, "unterminated string literal");
    char c = src_[pos_];
    if (triple ? src_.substr(pos_, 3) == std::string(3, q) : c == q) {
      pos_ += triple ? 3 : 1;
      break;
    }
    if (!triple && (c == '\n' || c == '\r')) return error(t.offset, "newline in string literal");
    if (c != '\\' || raw) {
      out += c;
      ++pos_;
      continue;
    }
    if (pos_ + 1 >= src_.size()) return error(t.offset, "unterminated string literal");
    char e = src_[pos_ + 1];
    pos_ += 2;
    switch (e) {
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case '\\': out += '\\'; break;
      case '\'': out += '\''; break;
      case '"': out += '"'; break;
      case '`': out += '`'; break;
      case '?': out += '?'; break;
      case 'x': case 'X': case 'u': case 'U': {
        int n = (e == 'x' || e == 'X') ? 2 : (e == 'u' ? 4 : 8);
        if (bytes && n != 2) return error(t.offset, "\\u escapes are not allowed in bytes literals");
        std::uint32_t cp = 0;
        for (int i = 0; i < n; ++i) {
          if (pos_ >= src_.size() || !is_hex(src_[pos_])) return error(t.offset, "invalid escape sequence in string literal");
          cp = (cp << 4) | static_cast<std::uint32_t>(hex_val(src_[pos_++]));
        }
        if (bytes) out += static_cast<char>(cp);
        else if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return error(t.offset, "invalid unicode code point in string literal");
        else json::append_utf8(out, cp);
        break;
      }
      default:
        if (e >= '0' && e <= '3') {
          std::uint32_t cp = static_cast<std::uint32_t>(e - '0');
          for (int i = 0; i < 2; ++i) {
            if (pos_ >= src_.size() || src_[pos_] < '0' || src_[pos_] > '7') return error(t.offset, "invalid octal escape in string literal");
            cp = cp * 8 + static_cast<std::uint32_t>(src_[pos_++] - '0');
          }
          if (bytes) out += static_cast<char>(cp);
          else json::append_utf8(out, cp);
          break;
        }
        return error(t.offset, std::string("invalid escape sequence '\\") + e + "' in string literal");
    }
  }
  t.value = bytes ? Value::bytes(std::move(out)) : Value::string(std::move(out));
  return t;
}

}  // namespace capstan::cel
