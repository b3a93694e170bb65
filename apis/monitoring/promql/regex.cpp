#include "apis/monitoring/promql/regex.h"

#include <re2/re2.h>

namespace capstan::promql {
namespace {

// regexp/syntax's ErrorCode texts for RE2's codes (RE2 is where Go's parser came from).
std::string_view go_error_text(re2::RE2::ErrorCode code) {
  switch (code) {
    case re2::RE2::ErrorBadEscape: return "invalid escape sequence";
    case re2::RE2::ErrorBadCharClass: return "invalid character class";
    case re2::RE2::ErrorBadCharRange: return "invalid character class range";
    case re2::RE2::ErrorMissingBracket: return "missing closing ]";
    case re2::RE2::ErrorMissingParen: return "missing closing )";
    case re2::RE2::ErrorUnexpectedParen: return "unexpected )";
    case re2::RE2::ErrorTrailingBackslash: return "trailing backslash at end of expression";
    case re2::RE2::ErrorRepeatArgument: return "missing argument to repetition operator";
    case re2::RE2::ErrorRepeatSize: return "invalid repeat count";
    case re2::RE2::ErrorRepeatOp: return "invalid nested repetition operator";
    case re2::RE2::ErrorBadPerlOp: return "invalid or unsupported Perl syntax";
    case re2::RE2::ErrorBadUTF8: return "invalid UTF-8";
    case re2::RE2::ErrorBadNamedCapture: return "invalid named capture";
    case re2::RE2::ErrorPatternTooLarge: return "expression too large";
    default: return "regexp/syntax: internal error";
  }
}

std::string go_error(std::string_view code, std::string_view arg) {
  return "error parsing regexp: " + std::string(code) + ": `" + std::string(arg) + "`";
}

// Constructs RE2 accepts and Go 1.19's regexp/syntax does not: the any-byte escape \C and the
// (?<name>...) capture spelling. Escapes are skipped in pairs, so `\\C` is a backslash and a C.
std::optional<std::string> go_only_refusal(std::string_view re) {
  bool in_class = false;
  for (std::size_t i = 0; i < re.size(); ++i) {
    char c = re[i];
    if (c == '\\' && i + 1 < re.size()) {
      if (re[i + 1] == 'C') return go_error("invalid escape sequence", "\\C");
      if (re[i + 1] == 'Q') {  // literal text up to \E
        std::size_t e = re.find("\\E", i + 2);
        if (e == std::string_view::npos) break;
        i = e + 1;
        continue;
      }
      ++i;
      continue;
    }
    if (in_class) {
      if (c == ']') in_class = false;
      continue;
    }
    if (c == '[') {
      in_class = true;
      if (i + 1 < re.size() && re[i + 1] == '^') ++i;
      if (i + 1 < re.size() && re[i + 1] == ']') ++i;  // a leading ] is literal
      continue;
    }
    if (c == '(' && re.substr(i, 3) == "(?<" && re.substr(i, 4) != "(?<=" && re.substr(i, 4) != "(?<!")
      return go_error("invalid or unsupported Perl syntax", "(?<");
  }
  return std::nullopt;
}

re2::RE2::Options options() {
  re2::RE2::Options o;
  o.set_log_errors(false);
  o.set_max_mem(64 << 20);
  return o;
}

}  // namespace

std::string anchor_regex(std::string_view pattern) { return "^(?:" + std::string(pattern) + ")$"; }

std::optional<std::string> regex_error(std::string_view pattern) {
  std::string error;
  if (Regex::compile(pattern, &error)) return std::nullopt;
  return error;
}

std::optional<Regex> Regex::compile(std::string_view pattern, std::string* error) {
  std::string anchored = anchor_regex(pattern);
  if (auto why = go_only_refusal(anchored)) {
    if (error) *error = *why;
    return std::nullopt;
  }
  auto re = std::make_shared<const re2::RE2>(anchored, options());
  if (!re->ok()) {
    if (error) *error = go_error(go_error_text(re->error_code()), re->error_arg());
    return std::nullopt;
  }
  Regex r;
  r.re_ = std::move(re);
  return r;
}

bool Regex::full_match(std::string_view s) const { return re2::RE2::FullMatch(re2::StringPiece(s.data(), s.size()), *re_); }

}  // namespace capstan::promql
