// String pieces of the PromQL parser: UTF-8 decoding, Prometheus's strutil.Unquote, and the Go
// fmt renderings its error messages use (%q of a string or a rune, %#U).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace capstan::promql {

// The rune at s[i], advancing i; -1 (one byte) for an invalid sequence, like Go's RuneError.
long decode_utf8(std::string_view s, std::size_t& i);
// The character a one-letter escape (\a \b \f \n \r \t \v) stands for, or 0.
char simple_escape(int letter);
inline bool is_simple_escape(int letter) { return simple_escape(letter) != 0; }

// strconv.Quote (%q of a string).
std::string go_quote(std::string_view s);
// %q of a rune: 'x', '\n', '\''.
std::string go_quote_rune(int rune);
// %#U: "U+0071 'q'" (the character only when printable).
std::string go_sharp_u(int rune);

// The value of a string token (with its quotes), as Prometheus's strutil.Unquote gives it. The
// lexer has already refused bad escapes, so this cannot fail on a kString token.
std::string unquote(std::string_view token);

}  // namespace capstan::promql
