// Pieces shared by the gofmt sources; not part of the library's interface.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace capstan::gofmt::detail {

// Decodes the UTF-8 sequence at s[i] and advances i past it. An invalid, truncated, overlong or
// surrogate sequence yields -1 and advances one byte, as utf8.DecodeRuneInString's (RuneError, 1).
long decode_rune(std::string_view s, std::size_t& i);

// Appends the low `digits` hex digits of v, lower case.
void append_hex(std::string& out, unsigned long v, int digits);

// encoding/json's string encoding with escapeHTML on.
void append_json_string(std::string& out, std::string_view s);

// encoding/json's float64 encoding (ES6 number-to-string style).
void append_json_float(std::string& out, double v);

}  // namespace capstan::gofmt::detail
