// CRD `pattern` support. kube-apiserver compiles patterns with Go's regexp (RE2 syntax) and tests
// them with MatchString (unanchored search, linear time). We parse the same RE2 syntax and run a
// Thompson NFA over the text's code points: no backtracking, no recursion per input character, so
// long user strings cannot blow up time or the stack (std::regex does both).
//
// Syntax Go rejects is rejected with Go's error text ("error parsing regexp: <code>: `<expr>`"):
// lookaround, backreferences, unknown escapes, unbalanced parentheses/brackets, bad repeats.
// Remaining differences from Go, rarely hit by CRDs:
//  - case folding ((?i)) is ASCII only;
//  - \p{...} supports L, Lu, Ll, N, Nd, S, P, Z (approximated by ASCII, Latin-1 and major blocks);
//    other Unicode class names are rejected.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::apiserver::schema {

class Pattern {
 public:
  // Compiles an RE2 pattern; on failure returns nullopt and sets *error to Go's message.
  static std::optional<Pattern> compile(std::string_view re2, std::string* error = nullptr);

  // regexp.MatchString: true when the pattern matches anywhere in the UTF-8 text.
  bool match(std::string_view utf8) const;

  const std::string& source() const { return source_; }

  struct Program;  // compiled NFA (opaque)

 private:
  std::string source_;
  std::shared_ptr<const Program> prog_;
};

// UTF-8 <-> UTF-32 helpers (invalid bytes become U+FFFD, like Go's range over a string).
std::u32string utf8_to_u32(std::string_view s);
std::string u32_to_utf8(std::u32string_view s);
// Number of code points (Go's utf8.RuneCountInString).
std::size_t rune_count(std::string_view s);

}  // namespace capstan::apiserver::schema
