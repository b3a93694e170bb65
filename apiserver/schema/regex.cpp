#include "apiserver/schema/regex.h"

#include "runtime/json/utf8.h"

#include <algorithm>
#include <utility>

namespace capstan::apiserver::schema {

using Ranges = std::vector<std::pair<char32_t, char32_t>>;

struct Pattern::Program {
  enum Op : std::uint8_t { kChar, kSplit, kJmp, kAssert, kMatch };
  struct Inst {
    Op op;
    int x = 0;
    int y = 0;
  };
  std::vector<Inst> insts;
  std::vector<Ranges> classes;
};

namespace {

constexpr char32_t kMaxRune = 0x10FFFF;
constexpr char32_t kReplacement = 0xFFFD;
constexpr std::size_t kMaxInsts = 200000;

enum AssertKind { kBeginText, kEndText, kBeginLine, kEndLine, kWordBoundary, kNoWordBoundary };

// ---- character classes

Ranges normalize(Ranges r) {
  std::sort(r.begin(), r.end());
  Ranges out;
  for (const auto& [lo, hi] : r) {
    if (!out.empty() && lo <= out.back().second + 1) {
      out.back().second = std::max(out.back().second, hi);
    } else {
      out.emplace_back(lo, hi);
    }
  }
  return out;
}

Ranges negate(const Ranges& in) {
  Ranges r = normalize(in), out;
  char32_t next = 0;
  for (const auto& [lo, hi] : r) {
    if (lo > next) out.emplace_back(next, lo - 1);
    next = hi + 1;
  }
  if (next <= kMaxRune) out.emplace_back(next, kMaxRune);
  return out;
}

// Adds the other ASCII case of every letter in r.
void fold(Ranges& r) {
  Ranges extra;
  for (const auto& [lo, hi] : r) {
    char32_t a = std::max<char32_t>(lo, 'a'), b = std::min<char32_t>(hi, 'z');
    if (a <= b) extra.emplace_back(a - 'a' + 'A', b - 'a' + 'A');
    a = std::max<char32_t>(lo, 'A');
    b = std::min<char32_t>(hi, 'Z');
    if (a <= b) extra.emplace_back(a - 'A' + 'a', b - 'A' + 'a');
  }
  r.insert(r.end(), extra.begin(), extra.end());
}

bool perl_class(char32_t c, Ranges& out) {
  switch (c) {
    case 'd': out = {{'0', '9'}}; return true;
    case 'w': out = {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}; return true;
    case 's': out = {{'\t', '\n'}, {'\f', '\r'}, {' ', ' '}}; return true;
    case 'D': out = negate({{'0', '9'}}); return true;
    case 'W': out = negate({{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}); return true;
    case 'S': out = negate({{'\t', '\n'}, {'\f', '\r'}, {' ', ' '}}); return true;
    default: return false;
  }
}

bool posix_class(std::u32string_view name, Ranges& out) {
  if (name == U"alnum") out = {{'0', '9'}, {'A', 'Z'}, {'a', 'z'}};
  else if (name == U"alpha") out = {{'A', 'Z'}, {'a', 'z'}};
  else if (name == U"ascii") out = {{0, 0x7F}};
  else if (name == U"blank") out = {{'\t', '\t'}, {' ', ' '}};
  else if (name == U"cntrl") out = {{0, 0x1F}, {0x7F, 0x7F}};
  else if (name == U"digit") out = {{'0', '9'}};
  else if (name == U"graph") out = {{'!', '~'}};
  else if (name == U"lower") out = {{'a', 'z'}};
  else if (name == U"print") out = {{' ', '~'}};
  else if (name == U"punct") out = {{'!', '/'}, {':', '@'}, {'[', '`'}, {'{', '~'}};
  else if (name == U"space") out = {{'\t', '\r'}, {' ', ' '}};
  else if (name == U"upper") out = {{'A', 'Z'}};
  else if (name == U"word") out = {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}};
  else if (name == U"xdigit") out = {{'0', '9'}, {'A', 'F'}, {'a', 'f'}};
  else return false;
  return true;
}

// Approximations of Unicode general categories.
bool unicode_class(std::u32string_view name, Ranges& out) {
  if (name == U"L") {
    out = {{'A', 'Z'}, {'a', 'z'}, {0xAA, 0xAA}, {0xB5, 0xB5}, {0xBA, 0xBA}, {0xC0, 0xD6}, {0xD8, 0xF6},
           {0xF8, 0x2FF}, {0x370, 0x3FF}, {0x400, 0x52F}, {0x531, 0x587}, {0x5D0, 0x5EA}, {0x620, 0x64A},
           {0x904, 0x939}, {0x3041, 0x30FF}, {0x3400, 0x9FFF}, {0xAC00, 0xD7A3}};
  } else if (name == U"Lu") {
    out = {{'A', 'Z'}, {0xC0, 0xD6}, {0xD8, 0xDE}};
  } else if (name == U"Ll") {
    out = {{'a', 'z'}, {0xB5, 0xB5}, {0xDF, 0xF6}, {0xF8, 0xFF}};
  } else if (name == U"N" || name == U"Nd") {
    out = {{'0', '9'}};
  } else if (name == U"S") {
    out = {{'$', '$'}, {'+', '+'}, {'<', '>'}, {'^', '^'}, {'`', '`'}, {'|', '|'}, {'~', '~'},
           {0xA2, 0xA6}, {0xA8, 0xA9}, {0xAC, 0xAC}, {0xAE, 0xB1}, {0xB4, 0xB4}, {0xD7, 0xD7}, {0xF7, 0xF7},
           {0x2100, 0x214F}, {0x2190, 0x23FF}, {0x2500, 0x27BF}, {0x1F300, 0x1FAFF}};
  } else if (name == U"P") {
    out = {{'!', '#'}, {'%', '*'}, {',', '/'}, {':', ';'}, {'?', '@'}, {'[', ']'}, {'_', '_'}, {'{', '{'},
           {'}', '}'}, {0xA1, 0xA1}, {0xA7, 0xA7}, {0xAB, 0xAB}, {0xB6, 0xB7}, {0xBB, 0xBB}, {0xBF, 0xBF},
           {0x2010, 0x2027}, {0x2030, 0x205E}};
  } else if (name == U"Z") {
    out = {{' ', ' '}, {0xA0, 0xA0}, {0x1680, 0x1680}, {0x2000, 0x200A}, {0x2028, 0x2029}, {0x202F, 0x202F},
           {0x205F, 0x205F}, {0x3000, 0x3000}};
  } else {
    return false;
  }
  return true;
}

// ---- syntax tree

struct Node {
  enum Kind { kEmpty, kClass, kConcat, kAlt, kRepeat, kAssert } kind = kEmpty;
  Ranges cls;
  std::vector<Node> kids;
  int min = 0, max = -1;  // kRepeat; max -1 = unbounded
  int assert_kind = 0;

  static Node cls_of(Ranges r) {
    Node n;
    n.kind = kClass;
    n.cls = normalize(std::move(r));
    return n;
  }
  static Node assertion(int k) {
    Node n;
    n.kind = kAssert;
    n.assert_kind = k;
    return n;
  }
};

struct Flags {
  bool icase = false, dotall = false, multiline = false;
};

class Parser {
 public:
  explicit Parser(std::u32string p) : p_(std::move(p)) {}

  bool run(Node& out, std::string& err) {
    Flags f;
    if (!parse_alternation(out, f)) {
      err = err_;
      return false;
    }
    if (i_ < p_.size()) {  // a stray ')'
      err = message("unexpected )", whole());
      return false;
    }
    return true;
  }

 private:
  std::u32string p_;
  std::size_t i_ = 0;
  std::string err_;

  std::string whole() const { return u32_to_utf8(p_); }
  std::string from(std::size_t a, std::size_t b) const { return u32_to_utf8(p_.substr(a, b - a)); }
  static std::string message(std::string_view code, std::string_view expr) {
    return "error parsing regexp: " + std::string(code) + ": `" + std::string(expr) + "`";
  }
  bool fail(std::string_view code, std::string_view expr) {
    if (err_.empty()) err_ = message(code, expr);
    return false;
  }

  Node literal(char32_t c, const Flags& f) const {
    Ranges r{{c, c}};
    if (f.icase) fold(r);
    return Node::cls_of(std::move(r));
  }

  // alternation := concat ('|' concat)*; stops at ')' or end. Flags set by (?i) persist to the
  // end of the enclosing group, across '|'.
  bool parse_alternation(Node& out, Flags& f) {
    std::vector<Node> alts;
    while (true) {
      Node c;
      if (!parse_concat(c, f)) return false;
      alts.push_back(std::move(c));
      if (i_ < p_.size() && p_[i_] == '|') {
        ++i_;
        continue;
      }
      break;
    }
    if (alts.size() == 1) {
      out = std::move(alts[0]);
    } else {
      out.kind = Node::kAlt;
      out.kids = std::move(alts);
    }
    return true;
  }

  bool parse_concat(Node& out, Flags& f) {
    std::vector<Node> items;
    std::size_t last_repeat_start = std::u32string::npos;
    while (i_ < p_.size()) {
      char32_t c = p_[i_];
      if (c == '|' || c == ')') break;
      std::size_t rlen = c == '{' ? repeat_len(i_) : (c == '*' || c == '+' || c == '?') ? 1 : 0;
      if (rlen > 0) {
        std::size_t start = i_;
        int min = 0, max = -1;
        if (c == '*') {
          min = 0;
        } else if (c == '+') {
          min = 1;
        } else if (c == '?') {
          max = 1;
        } else if (!repeat_bounds(i_, rlen, min, max)) {
          return false;
        }
        std::size_t end = start + rlen;
        if (end < p_.size() && p_[end] == '?') ++end;  // non-greedy: same language
        if (items.empty()) return fail("missing argument to repetition operator", from(start, start + rlen));
        if (last_repeat_start != std::u32string::npos) {
          return fail("invalid nested repetition operator", from(last_repeat_start, end));
        }
        Node rep;
        rep.kind = Node::kRepeat;
        rep.min = min;
        rep.max = max;
        rep.kids.push_back(std::move(items.back()));
        items.back() = std::move(rep);
        i_ = end;
        last_repeat_start = start;
        continue;
      }
      last_repeat_start = std::u32string::npos;
      Node atom;
      bool produced = true;
      if (!parse_atom(atom, f, produced)) return false;
      if (produced) items.push_back(std::move(atom));
    }
    if (items.empty()) {
      out = Node{};
    } else if (items.size() == 1) {
      out = std::move(items[0]);
    } else {
      out.kind = Node::kConcat;
      out.kids = std::move(items);
    }
    return true;
  }

  // Length of a valid {n}, {n,} or {n,m} at pos, or 0 when '{' is a literal in RE2.
  std::size_t repeat_len(std::size_t pos) const {
    std::size_t j = pos + 1, d1 = j;
    while (j < p_.size() && p_[j] >= '0' && p_[j] <= '9') ++j;
    if (j == d1) return 0;
    if (j < p_.size() && p_[j] == '}') return j + 1 - pos;
    if (j >= p_.size() || p_[j] != ',') return 0;
    ++j;
    while (j < p_.size() && p_[j] >= '0' && p_[j] <= '9') ++j;
    if (j < p_.size() && p_[j] == '}') return j + 1 - pos;
    return 0;
  }

  bool repeat_bounds(std::size_t pos, std::size_t len, int& min, int& max) {
    std::u32string body = p_.substr(pos + 1, len - 2);
    auto comma = body.find(',');
    auto num = [](const std::u32string& s) -> long {
      if (s.empty()) return -1;
      if (s.size() > 8) return 100000;
      long v = 0;
      for (char32_t c : s) v = v * 10 + static_cast<long>(c - '0');
      return v;
    };
    long lo = num(body.substr(0, comma));
    long hi = comma == std::u32string::npos ? lo : num(body.substr(comma + 1));
    if (lo > 1000 || hi > 1000 || (hi >= 0 && hi < lo)) return fail("invalid repeat count", from(pos, pos + len));
    min = static_cast<int>(lo);
    max = static_cast<int>(hi);
    return true;
  }

  bool parse_atom(Node& out, Flags& f, bool& produced) {
    char32_t c = p_[i_];
    switch (c) {
      case '(':
        return parse_group(out, f, produced);
      case '[':
        return parse_class(out, f);
      case '.':
        ++i_;
        out = f.dotall ? Node::cls_of({{0, kMaxRune}}) : Node::cls_of({{0, '\n' - 1}, {'\n' + 1, kMaxRune}});
        return true;
      case '^':
        ++i_;
        out = Node::assertion(f.multiline ? kBeginLine : kBeginText);
        return true;
      case '$':
        ++i_;
        out = Node::assertion(f.multiline ? kEndLine : kEndText);
        return true;
      case '\\':
        return parse_escape(out, f);
      default:
        ++i_;
        out = literal(c, f);
        return true;
    }
  }

  // Parses (?flags) / (?flags:re); returns false on error. `group` tells whether a group body
  // follows (':').
  bool parse_flags(std::size_t start, Flags& f, bool& group) {
    std::size_t j = i_ + 1;  // after '?'
    bool neg = false, any = false;
    Flags nf = f;
    while (j < p_.size() && p_[j] != ')' && p_[j] != ':') {
      char32_t fl = p_[j];
      if (fl == '-' && !neg) {
        neg = true;
        ++j;
        continue;
      }
      if (fl == 'i') nf.icase = !neg;
      else if (fl == 's') nf.dotall = !neg;
      else if (fl == 'm') nf.multiline = !neg;
      else if (fl == 'U') { /* ungreedy: irrelevant for a match/no-match answer */ }
      else return fail("invalid or unsupported Perl syntax", from(start, std::min(j + 1, p_.size())));
      any = true;
      ++j;
    }
    if (j >= p_.size()) return fail("missing closing )", whole());
    if (p_[j] == ')' && !any) return fail("invalid or unsupported Perl syntax", from(start, j + 1));
    group = p_[j] == ':';
    f = nf;
    i_ = j + 1;
    return true;
  }

  bool parse_group(Node& out, Flags& f, bool& produced) {
    std::size_t start = i_;
    ++i_;
    Flags inner = f;
    if (i_ < p_.size() && p_[i_] == '?') {
      bool named = p_.compare(i_, 3, U"?P<") == 0 ||
                   (p_.compare(i_, 2, U"?<") == 0 && i_ + 2 < p_.size() && p_[i_ + 2] != '=' && p_[i_ + 2] != '!');
      if (named) {
        std::size_t close = p_.find('>', i_);
        if (close == std::u32string::npos) return fail("invalid named capture", from(start, p_.size()));
        i_ = close + 1;
      } else {
        bool group = false;
        if (!parse_flags(start, inner, group)) return false;
        if (!group) {
          // (?i) mid-expression: applies to the rest of the enclosing group.
          f = inner;
          produced = false;
          return true;
        }
      }
    }
    if (!parse_alternation(out, inner)) return false;
    if (i_ >= p_.size() || p_[i_] != ')') return fail("missing closing )", whole());
    ++i_;
    return true;
  }

  bool parse_escape(Node& out, const Flags& f) {
    std::size_t start = i_;
    ++i_;
    if (i_ >= p_.size()) return fail("trailing backslash at end of expression", "");
    char32_t c = p_[i_];
    Ranges r;
    if (perl_class(c, r)) {
      ++i_;
      out = Node::cls_of(std::move(r));
      return true;
    }
    switch (c) {
      case 'A': ++i_; out = Node::assertion(kBeginText); return true;
      case 'z': ++i_; out = Node::assertion(kEndText); return true;
      case 'b': ++i_; out = Node::assertion(kWordBoundary); return true;
      case 'B': ++i_; out = Node::assertion(kNoWordBoundary); return true;
      case 'p':
      case 'P': {
        if (!unicode_escape(start, r)) return false;
        if (f.icase) fold(r);
        out = Node::cls_of(c == 'p' ? std::move(r) : negate(r));
        return true;
      }
      case 'Q': {
        ++i_;
        std::size_t end = p_.find(U"\\E", i_);
        std::u32string lit = p_.substr(i_, end == std::u32string::npos ? std::u32string::npos : end - i_);
        i_ = end == std::u32string::npos ? p_.size() : end + 2;
        out = Node{};
        if (!lit.empty()) {
          out.kind = Node::kConcat;
          for (char32_t lc : lit) out.kids.push_back(literal(lc, f));
        }
        return true;
      }
      default:
        break;
    }
    char32_t lit = 0;
    if (!escaped_char(start, lit)) return false;
    out = literal(lit, f);
    return true;
  }

  // \p{Name} or \pN; i_ at 'p'/'P'. Leaves i_ after the escape.
  bool unicode_escape(std::size_t start, Ranges& r) {
    ++i_;
    std::u32string name;
    if (i_ < p_.size() && p_[i_] == '{') {
      std::size_t close = p_.find('}', i_);
      if (close == std::u32string::npos) return fail("invalid character class range", from(start, p_.size()));
      name = p_.substr(i_ + 1, close - i_ - 1);
      i_ = close + 1;
    } else if (i_ < p_.size()) {
      name = p_.substr(i_, 1);
      ++i_;
    }
    bool negated = !name.empty() && name[0] == '^';
    if (negated) name.erase(0, 1);
    if (!unicode_class(name, r)) return fail("invalid character class range", from(start, i_));
    if (negated) r = negate(r);
    return true;
  }

  // A single-character escape (\n, \x41, \x{263a}, \123, \.); i_ at the char after '\'.
  bool escaped_char(std::size_t start, char32_t& out) {
    char32_t c = p_[i_];
    switch (c) {
      case 'a': ++i_; out = 0x07; return true;
      case 'f': ++i_; out = '\f'; return true;
      case 'n': ++i_; out = '\n'; return true;
      case 'r': ++i_; out = '\r'; return true;
      case 't': ++i_; out = '\t'; return true;
      case 'v': ++i_; out = '\v'; return true;
      case 'x': {
        ++i_;
        auto hexval = [](char32_t h) -> int {
          if (h >= '0' && h <= '9') return static_cast<int>(h - '0');
          if (h >= 'a' && h <= 'f') return static_cast<int>(h - 'a' + 10);
          if (h >= 'A' && h <= 'F') return static_cast<int>(h - 'A' + 10);
          return -1;
        };
        if (i_ < p_.size() && p_[i_] == '{') {
          std::size_t j = i_ + 1;
          long v = 0;
          int n = 0;
          while (j < p_.size() && hexval(p_[j]) >= 0) {
            v = v * 16 + hexval(p_[j]);
            if (v > static_cast<long>(kMaxRune)) return fail("invalid escape sequence", from(start, j + 1));
            ++j;
            ++n;
          }
          if (j >= p_.size() || p_[j] != '}' || n == 0) {
            return fail("invalid escape sequence", from(start, std::min(j + 1, p_.size())));
          }
          i_ = j + 1;
          out = static_cast<char32_t>(v);
          return true;
        }
        if (i_ + 1 < p_.size() && hexval(p_[i_]) >= 0 && hexval(p_[i_ + 1]) >= 0) {
          out = static_cast<char32_t>(hexval(p_[i_]) * 16 + hexval(p_[i_ + 1]));
          i_ += 2;
          return true;
        }
        return fail("invalid escape sequence", from(start, std::min(i_ + 2, p_.size())));
      }
      default:
        break;
    }
    if (c >= '0' && c <= '7') {
      // A single non-zero digit is a backreference, which RE2 does not support.
      if (c != '0' && (i_ + 1 >= p_.size() || p_[i_ + 1] < '0' || p_[i_ + 1] > '7')) {
        return fail("invalid escape sequence", from(start, i_ + 1));
      }
      char32_t v = 0;
      for (int n = 0; n < 3 && i_ < p_.size() && p_[i_] >= '0' && p_[i_] <= '7'; ++n, ++i_) v = v * 8 + (p_[i_] - '0');
      out = v;
      return true;
    }
    // Punctuation may be escaped; letters and digits may not.
    if (c < 0x80 && !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) {
      ++i_;
      out = c;
      return true;
    }
    return fail("invalid escape sequence", from(start, i_ + 1));
  }

  bool parse_class(Node& out, const Flags& f) {
    std::size_t start = i_;
    ++i_;
    bool negated = false;
    if (i_ < p_.size() && p_[i_] == '^') {
      negated = true;
      ++i_;
    }
    Ranges r;
    bool first = true;
    while (true) {
      if (i_ >= p_.size()) return fail("missing closing ]", from(start, p_.size()));
      char32_t c = p_[i_];
      if (c == ']' && !first) {
        ++i_;
        break;
      }
      first = false;
      if (c == '[' && i_ + 1 < p_.size() && p_[i_ + 1] == ':') {
        std::size_t close = p_.find(U":]", i_ + 2);
        if (close != std::u32string::npos) {
          std::u32string name = p_.substr(i_ + 2, close - i_ - 2);
          bool neg = !name.empty() && name[0] == '^';
          if (neg) name.erase(0, 1);
          Ranges pc;
          if (!posix_class(name, pc)) return fail("invalid character class range", from(i_, close + 2));
          if (neg) pc = negate(pc);
          r.insert(r.end(), pc.begin(), pc.end());
          i_ = close + 2;
          continue;
        }
      }
      std::size_t item = i_;
      char32_t lo = 0;
      if (c == '\\') {
        if (i_ + 1 >= p_.size()) return fail("trailing backslash at end of expression", "");
        char32_t e = p_[i_ + 1];
        Ranges pc;
        if (perl_class(e, pc)) {
          r.insert(r.end(), pc.begin(), pc.end());
          i_ += 2;
          continue;
        }
        if (e == 'p' || e == 'P') {
          std::size_t s = i_;
          ++i_;
          if (!unicode_escape(s, pc)) return false;
          if (e == 'P') pc = negate(pc);
          r.insert(r.end(), pc.begin(), pc.end());
          continue;
        }
        ++i_;
        if (!escaped_char(item, lo)) return false;
      } else {
        lo = c;
        ++i_;
      }
      if (i_ + 1 < p_.size() && p_[i_] == '-' && p_[i_ + 1] != ']') {
        ++i_;
        char32_t hi = 0;
        if (p_[i_] == '\\') {
          std::size_t s = i_;
          ++i_;
          if (i_ >= p_.size()) return fail("trailing backslash at end of expression", "");
          if (!escaped_char(s, hi)) return false;
        } else {
          hi = p_[i_];
          ++i_;
        }
        if (hi < lo) return fail("invalid character class range", from(item, i_));
        r.emplace_back(lo, hi);
        continue;
      }
      r.emplace_back(lo, lo);
    }
    if (f.icase) fold(r);
    out = Node::cls_of(negated ? negate(r) : std::move(r));
    return true;
  }
};

// ---- compilation to a Thompson NFA

class Compiler {
 public:
  explicit Compiler(Pattern::Program& p) : p_(p) {}

  bool emit(const Node& n) {
    if (p_.insts.size() > kMaxInsts) return false;
    using P = Pattern::Program;
    switch (n.kind) {
      case Node::kEmpty:
        return true;
      case Node::kClass:
        p_.classes.push_back(n.cls);
        p_.insts.push_back({P::kChar, static_cast<int>(p_.classes.size() - 1), 0});
        return true;
      case Node::kAssert:
        p_.insts.push_back({P::kAssert, n.assert_kind, 0});
        return true;
      case Node::kConcat:
        for (const auto& k : n.kids)
          if (!emit(k)) return false;
        return true;
      case Node::kAlt: {
        std::vector<std::size_t> jumps;
        for (std::size_t i = 0; i < n.kids.size(); ++i) {
          if (i + 1 < n.kids.size()) {
            std::size_t split = p_.insts.size();
            p_.insts.push_back({P::kSplit, static_cast<int>(split + 1), 0});
            if (!emit(n.kids[i])) return false;
            jumps.push_back(p_.insts.size());
            p_.insts.push_back({P::kJmp, 0, 0});
            p_.insts[split].y = static_cast<int>(p_.insts.size());
          } else if (!emit(n.kids[i])) {
            return false;
          }
        }
        for (auto j : jumps) p_.insts[j].x = static_cast<int>(p_.insts.size());
        return true;
      }
      case Node::kRepeat: {
        const Node& child = n.kids[0];
        for (int i = 0; i < n.min; ++i)
          if (!emit(child)) return false;
        if (n.max < 0) {
          std::size_t loop = p_.insts.size();
          p_.insts.push_back({P::kSplit, static_cast<int>(loop + 1), 0});
          if (!emit(child)) return false;
          p_.insts.push_back({P::kJmp, static_cast<int>(loop), 0});
          p_.insts[loop].y = static_cast<int>(p_.insts.size());
        } else {
          std::vector<std::size_t> splits;
          for (int i = n.min; i < n.max; ++i) {
            splits.push_back(p_.insts.size());
            p_.insts.push_back({P::kSplit, static_cast<int>(p_.insts.size() + 1), 0});
            if (!emit(child)) return false;
          }
          for (auto s : splits) p_.insts[s].y = static_cast<int>(p_.insts.size());
        }
        return true;
      }
    }
    return true;
  }

 private:
  Pattern::Program& p_;
};

bool is_word(long c) {
  return c >= 0 && ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_');
}

bool in_class(const Ranges& r, char32_t c) {
  auto it = std::upper_bound(r.begin(), r.end(), c,
                             [](char32_t v, const std::pair<char32_t, char32_t>& e) { return v < e.first; });
  if (it == r.begin()) return false;
  --it;
  return c >= it->first && c <= it->second;
}

}  // namespace

std::u32string utf8_to_u32(std::string_view s) {
  std::u32string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) {
      out += static_cast<char32_t>(b0);
      ++i;
      continue;
    }
    int len = (b0 & 0xE0) == 0xC0 ? 2 : (b0 & 0xF0) == 0xE0 ? 3 : (b0 & 0xF8) == 0xF0 ? 4 : 0;
    char32_t cp = len == 2 ? (b0 & 0x1F) : len == 3 ? (b0 & 0x0F) : (b0 & 0x07);
    bool ok = len > 0 && i + static_cast<std::size_t>(len) <= s.size();
    for (int k = 1; ok && k < len; ++k) {
      auto b = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
      if ((b & 0xC0) != 0x80) {
        ok = false;
        break;
      }
      cp = (cp << 6) | (b & 0x3F);
    }
    static const char32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (ok && (cp < kMin[len] || cp > kMaxRune || (cp >= 0xD800 && cp <= 0xDFFF))) ok = false;
    if (!ok) {
      out += kReplacement;
      ++i;
      continue;
    }
    out += cp;
    i += static_cast<std::size_t>(len);
  }
  return out;
}

std::string u32_to_utf8(std::u32string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char32_t c : s) json::append_utf8(out, c);
  return out;
}

std::size_t rune_count(std::string_view s) {
  // Counting code points the way utf8_to_u32 decodes them (invalid bytes count as one each).
  return utf8_to_u32(s).size();
}

std::optional<Pattern> Pattern::compile(std::string_view re2, std::string* error) {
  Parser parser(utf8_to_u32(re2));
  Node root;
  std::string err;
  if (!parser.run(root, err)) {
    if (error) *error = err;
    return std::nullopt;
  }
  auto prog = std::make_shared<Program>();
  Compiler c(*prog);
  if (!c.emit(root) || prog->insts.size() > kMaxInsts) {
    if (error) *error = "error parsing regexp: expression too large: `" + std::string(re2) + "`";
    return std::nullopt;
  }
  prog->insts.push_back({Program::kMatch, 0, 0});
  Pattern p;
  p.source_ = std::string(re2);
  p.prog_ = std::move(prog);
  return p;
}

bool Pattern::match(std::string_view utf8) const {
  if (!prog_) return false;
  const Program& prog = *prog_;
  std::u32string text = utf8_to_u32(utf8);
  const std::size_t n = text.size();
  const std::size_t ninst = prog.insts.size();

  std::vector<int> clist, nlist, stack;
  clist.reserve(ninst);
  nlist.reserve(ninst);
  std::vector<std::uint64_t> mark(ninst, 0);
  std::uint64_t gen = 0;
  bool matched = false;

  auto assert_ok = [&](int kind, std::size_t pos) {
    long prev = pos > 0 ? static_cast<long>(text[pos - 1]) : -1;
    long next = pos < n ? static_cast<long>(text[pos]) : -1;
    switch (kind) {
      case kBeginText: return pos == 0;
      case kEndText: return pos == n;
      case kBeginLine: return pos == 0 || prev == '\n';
      case kEndLine: return pos == n || next == '\n';
      case kWordBoundary: return is_word(prev) != is_word(next);
      case kNoWordBoundary: return is_word(prev) == is_word(next);
      default: return false;
    }
  };
  // Follows empty transitions from pc at position pos, adding Char states to `list`.
  auto add = [&](std::vector<int>& list, int start, std::size_t pos) {
    stack.clear();
    stack.push_back(start);
    while (!stack.empty()) {
      int pc = stack.back();
      stack.pop_back();
      if (mark[static_cast<std::size_t>(pc)] == gen) continue;
      mark[static_cast<std::size_t>(pc)] = gen;
      const auto& in = prog.insts[static_cast<std::size_t>(pc)];
      switch (in.op) {
        case Program::kChar: list.push_back(pc); break;
        case Program::kMatch: matched = true; break;
        case Program::kJmp: stack.push_back(in.x); break;
        case Program::kSplit:
          stack.push_back(in.y);
          stack.push_back(in.x);
          break;
        case Program::kAssert:
          if (assert_ok(in.x, pos)) stack.push_back(pc + 1);
          break;
      }
    }
  };

  ++gen;
  for (std::size_t pos = 0;; ++pos) {
    add(clist, 0, pos);  // unanchored search: a new thread starts at every position
    if (matched) return true;
    if (pos == n) return false;
    char32_t c = text[pos];
    ++gen;
    for (int pc : clist) {
      const auto& in = prog.insts[static_cast<std::size_t>(pc)];
      if (in_class(prog.classes[static_cast<std::size_t>(in.x)], c)) add(nlist, pc + 1, pos + 1);
      if (matched) return true;
    }
    std::swap(clist, nlist);
    nlist.clear();
  }
}

}  // namespace capstan::apiserver::schema
