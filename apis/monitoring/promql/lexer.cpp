#include "apis/monitoring/promql/lexer.h"

#include "apis/monitoring/promql/strings.h"

#include <string>

namespace capstan::promql {
namespace {

constexpr int kEofRune = -1;

bool is_alpha(int r) { return r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'); }
bool is_digit(int r) { return r >= '0' && r <= '9'; }
bool is_alnum(int r) { return is_alpha(r) || is_digit(r); }
bool is_space(int r) { return r == ' ' || r == '\t' || r == '\n' || r == '\r'; }
bool contains(std::string_view set, int r) { return r >= 0 && r < 128 && set.find(static_cast<char>(r)) != std::string_view::npos; }

Tok keyword(std::string_view word) {
  std::string w(word);
  for (auto& c : w) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  static const std::pair<std::string_view, Tok> kKeys[] = {
      {"and", Tok::kLand},         {"or", Tok::kLor},         {"unless", Tok::kLunless},     {"atan2", Tok::kAtan2},
      {"sum", Tok::kSum},          {"avg", Tok::kAvg},        {"count", Tok::kCount},        {"min", Tok::kMin},
      {"max", Tok::kMax},          {"group", Tok::kGroup},    {"stddev", Tok::kStddev},      {"stdvar", Tok::kStdvar},
      {"topk", Tok::kTopk},        {"bottomk", Tok::kBottomk}, {"count_values", Tok::kCountValues},
      {"quantile", Tok::kQuantile}, {"offset", Tok::kOffset}, {"by", Tok::kBy},              {"without", Tok::kWithout},
      {"on", Tok::kOn},            {"ignoring", Tok::kIgnoring}, {"group_left", Tok::kGroupLeft},
      {"group_right", Tok::kGroupRight}, {"bool", Tok::kBool}, {"start", Tok::kStart},       {"end", Tok::kEnd},
      {"inf", Tok::kNumber},       {"nan", Tok::kNumber},
  };
  for (const auto& [k, t] : kKeys)
    if (w == k) return t;
  return Tok::kEof;  // not a keyword
}

// One pass over the input with lex.go's state: positions are byte offsets, runes are decoded as
// UTF-8 (an invalid byte reads as U+FFFD, as Go's DecodeRuneInString does).
class Lexer {
 public:
  explicit Lexer(std::string_view in) : in_(in) {}

  std::vector<Token> run() {
    while (true) {
      if (!step()) break;
    }
    return std::move(out_);
  }

 private:
  std::string_view in_;
  std::size_t pos_ = 0, start_ = 0, width_ = 0;
  int paren_depth_ = 0;
  bool brace_open_ = false, bracket_open_ = false, got_colon_ = false;
  int string_open_ = 0;
  std::vector<Token> out_;

  int next() {
    if (pos_ >= in_.size()) {
      width_ = 0;
      return kEofRune;
    }
    std::size_t i = pos_;
    long r = decode_utf8(in_, i);
    width_ = i - pos_;
    pos_ = i;
    return r < 0 ? 0xFFFD : static_cast<int>(r);
  }
  void backup() { pos_ -= width_; }
  int peek() {
    int r = next();
    backup();
    return r;
  }
  bool accept(std::string_view valid) {
    if (contains(valid, next())) return true;
    backup();
    return false;
  }
  void accept_run(std::string_view valid) {
    while (contains(valid, next())) {
    }
    backup();
  }
  void emit(Tok t) {
    out_.push_back(Token{t, start_, std::string(in_.substr(start_, pos_ - start_))});
    start_ = pos_;
  }
  // Ends the stream with an error at the current token start.
  bool error(std::string message) {
    out_.push_back(Token{Tok::kError, start_, std::move(message)});
    return false;
  }
  void skip_spaces() {
    while (is_space(peek())) next();
    start_ = pos_;
  }
  bool at_comment() const { return pos_ < in_.size() && in_[pos_] == '#'; }
  void skip_comment() {
    ++pos_;
    for (int r = next(); r != '\n' && r != '\r' && r != kEofRune; r = next()) {
    }
    backup();
    start_ = pos_;
  }

  // Returns false once the stream has ended (kEof or kError emitted).
  bool step() {
    if (brace_open_) return inside_braces();
    if (at_comment()) {
      skip_comment();
      return true;
    }
    int r = next();
    if (r == kEofRune) {
      if (paren_depth_ != 0) return error("unclosed left parenthesis");
      if (bracket_open_) return error("unclosed left bracket");
      emit(Tok::kEof);
      return false;
    }
    if (is_space(r)) {
      skip_spaces();
      return true;
    }
    switch (r) {
      case ',': emit(Tok::kComma); return true;
      case '*': emit(Tok::kMul); return true;
      case '/': emit(Tok::kDiv); return true;
      case '%': emit(Tok::kMod); return true;
      case '+': emit(Tok::kAdd); return true;
      case '-': emit(Tok::kSub); return true;
      case '^': emit(Tok::kPow); return true;
      case '@': emit(Tok::kAt); return true;
      case '=': {
        int t = peek();
        if (t == '=') {
          next();
          emit(Tok::kEqlc);
        } else if (t == '~') {
          return error("unexpected character after '=': " + go_quote_rune(t));
        } else {
          emit(Tok::kEql);
        }
        return true;
      }
      case '!': {
        int t = next();
        if (t != '=') return error("unexpected character after '!': " + go_quote_rune(t));
        emit(Tok::kNeq);
        return true;
      }
      case '<':
      case '>': {
        bool eq = peek() == '=';
        if (eq) next();
        emit(r == '<' ? (eq ? Tok::kLte : Tok::kLss) : (eq ? Tok::kGte : Tok::kGtr));
        return true;
      }
      case '"':
      case '\'':
      case '`': return string(r);
      case '(':
        emit(Tok::kLeftParen);
        ++paren_depth_;
        return true;
      case ')':
        emit(Tok::kRightParen);
        if (--paren_depth_ < 0) {
          out_.pop_back();  // lex.go overwrites the emitted item with the error
          return error("unexpected right parenthesis " + go_quote_rune(r));
        }
        return true;
      case '{':
        emit(Tok::kLeftBrace);
        brace_open_ = true;
        return true;
      case '[':
        if (bracket_open_) return error("unexpected left bracket " + go_quote_rune(r));
        got_colon_ = false;
        emit(Tok::kLeftBracket);
        if (is_space(peek())) skip_spaces();
        bracket_open_ = true;
        return duration_in_brackets();
      case ']':
        if (!bracket_open_) return error("unexpected right bracket " + go_quote_rune(r));
        emit(Tok::kRightBracket);
        bracket_open_ = false;
        return true;
      default: break;
    }
    if (is_digit(r) || (r == '.' && is_digit(peek()))) {
      backup();
      return number_or_duration();
    }
    if (is_alpha(r) || r == ':') {
      if (!bracket_open_) {
        backup();
        return keyword_or_identifier();
      }
      // Inside brackets lex.go takes any letter or colon for the subquery's colon.
      if (got_colon_) return error("unexpected colon " + go_quote_rune(r));
      emit(Tok::kColon);
      got_colon_ = true;
      return true;
    }
    return error("unexpected character: " + go_quote_rune(r));
  }

  bool inside_braces() {
    if (at_comment()) {
      skip_comment();
      return true;
    }
    int r = next();
    if (r == kEofRune) return error("unexpected end of input inside braces");
    if (is_space(r)) {
      skip_spaces();
      return true;
    }
    if (is_alpha(r)) {
      while (is_alnum(next())) {
      }
      backup();
      emit(Tok::kIdentifier);
      return true;
    }
    switch (r) {
      case ',': emit(Tok::kComma); return true;
      case '"':
      case '\'':
      case '`': return string(r);
      case '=':
        if (next() == '~') {
          emit(Tok::kEqlRegex);
        } else {
          backup();
          emit(Tok::kEql);
        }
        return true;
      case '!': {
        int nr = next();
        if (nr == '~') {
          emit(Tok::kNeqRegex);
        } else if (nr == '=') {
          emit(Tok::kNeq);
        } else {
          return error("unexpected character after '!' inside braces: " + go_quote_rune(nr));
        }
        return true;
      }
      case '{': return error("unexpected left brace " + go_quote_rune(r));
      case '}':
        emit(Tok::kRightBrace);
        brace_open_ = false;
        return true;
      default: return error("unexpected character inside braces: " + go_quote_rune(r));
    }
  }

  // lex.go's scanNumber: true when a complete number (no unit) was scanned.
  bool scan_number() {
    std::string_view digits = "0123456789";
    if (accept("0") && accept("xX")) digits = "0123456789abcdefABCDEF";
    accept_run(digits);
    if (accept(".")) accept_run(digits);
    if (accept("eE")) {
      accept("+-");
      accept_run("0123456789");
    }
    return !is_alnum(peek());
  }

  // acceptRemainingDuration: the units after the first number of a duration.
  bool accept_remaining_duration() {
    if (!accept("smhdwy")) return false;
    accept("s");
    while (accept("0123456789")) {
      while (accept("0123456789")) {
      }
      if (!accept("smhdw")) return false;
      accept("s");
    }
    return !is_alnum(next());
  }

  bool number_or_duration() {
    if (scan_number()) {
      emit(Tok::kNumber);
      return true;
    }
    if (accept_remaining_duration()) {
      backup();
      emit(Tok::kDuration);
      return true;
    }
    return error("bad number or duration syntax: " + go_quote(in_.substr(start_, pos_ - start_)));
  }

  bool duration_in_brackets() {
    if (scan_number()) return error("missing unit character in duration");
    if (!accept_remaining_duration()) return error("bad duration syntax: " + go_quote(in_.substr(start_, pos_ - start_)));
    backup();
    emit(Tok::kDuration);
    return true;
  }

  bool keyword_or_identifier() {
    while (true) {
      int r = next();
      if (is_alnum(r) || r == ':') continue;
      backup();
      break;
    }
    std::string_view word = in_.substr(start_, pos_ - start_);
    Tok kw = keyword(word);
    if (kw != Tok::kEof)
      emit(kw);
    else if (word.find(':') == std::string_view::npos)
      emit(Tok::kIdentifier);
    else
      emit(Tok::kMetricIdentifier);
    return true;
  }

  // lexEscape: validates one escape sequence after a backslash; "" when it is fine.
  std::string escape() {
    int ch = next();
    int n = 0;
    unsigned base = 0, max = 0;
    switch (ch) {
      case '\\': return "";
      case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': n = 3, base = 8, max = 255; break;
      case 'x': ch = next(), n = 2, base = 16, max = 255; break;
      case 'u': ch = next(), n = 4, base = 16, max = 0x10FFFF; break;
      case 'U': ch = next(), n = 8, base = 16, max = 0x10FFFF; break;
      case kEofRune: return "escape sequence not terminated";
      default:
        if (ch == string_open_ || is_simple_escape(ch)) return "";
        return "unknown escape sequence " + go_sharp_u(ch);
    }
    unsigned long x = 0;
    while (n > 0) {
      unsigned d = 16;
      if (ch >= '0' && ch <= '9') d = static_cast<unsigned>(ch - '0');
      else if (ch >= 'a' && ch <= 'f') d = static_cast<unsigned>(ch - 'a' + 10);
      else if (ch >= 'A' && ch <= 'F') d = static_cast<unsigned>(ch - 'A' + 10);
      if (d >= base) {
        if (ch == kEofRune) return "escape sequence not terminated";
        return "illegal character " + go_sharp_u(ch) + " in escape sequence";
      }
      x = x * base + d;
      if (--n > 0) ch = next();
    }
    if (x > max || (x >= 0xD800 && x < 0xE000)) return "escape sequence is an invalid Unicode code point";
    return "";
  }

  bool string(int quote) {
    string_open_ = quote;
    return quote == '`' ? raw_string() : quoted_string();
  }

  bool quoted_string() {
    while (true) {
      int r = next();
      if (r == '\\') {
        std::string why = escape();
        if (!why.empty()) return error(std::move(why));
        continue;
      }
      if (r == 0xFFFD) return error("invalid UTF-8 rune");
      if (r == kEofRune || r == '\n') return error("unterminated quoted string");
      if (r == string_open_) break;
    }
    emit(Tok::kString);
    return true;
  }

  bool raw_string() {
    while (true) {
      int r = next();
      if (r == 0xFFFD) return error("invalid UTF-8 rune");
      if (r == kEofRune) return error("unterminated raw string");
      if (r == string_open_) break;
    }
    emit(Tok::kString);
    return true;
  }
};

}  // namespace

std::vector<Token> lex(std::string_view input) { return Lexer(input).run(); }

}  // namespace capstan::promql
