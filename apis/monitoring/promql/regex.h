// Regular expressions as Prometheus compiles them (Go's regexp, RE2 syntax), checked with RE2:
// label matchers and relabel configs anchor a pattern as ^(?:pattern)$. Errors are in Go's words
// ("error parsing regexp: missing closing ): `^(?:()$`"), and the constructs RE2 accepts but Go
// refuses (\C, (?<name>...)) are refused too.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace capstan::promql {

// "^(?:" + pattern + ")$".
std::string anchor_regex(std::string_view pattern);

// A compiled, anchored regular expression.
class Regex {
 public:
  // nullopt with `error` set when Go's regexp.Compile would refuse ^(?:pattern)$.
  static std::optional<Regex> compile(std::string_view pattern, std::string* error);
  bool full_match(std::string_view s) const;

 private:
  std::shared_ptr<const re2::RE2> re_;
};

// Why Go refuses ^(?:pattern)$, or nullopt when it compiles.
std::optional<std::string> regex_error(std::string_view pattern);

}  // namespace capstan::promql
