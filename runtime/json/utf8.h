// UTF-8: the one encoder of one code point (for the parsers that read \u and \U escapes: JSON
// paths, CEL string literals; and the schema regex's UTF-32 -> UTF-8 conversion), and the one
// validity check (CEL's bytes-to-string conversion, kustomize's generators).
#pragma once

#include <string>
#include <string_view>

namespace capstan::json {

// Appends `cp` (at most 0x10FFFF; callers reject surrogates and larger values) as UTF-8.
void append_utf8(std::string& out, char32_t cp);

// Go's utf8.Valid: no truncated, overlong or surrogate sequence, nothing above U+10FFFF.
bool valid_utf8(std::string_view s);

}  // namespace capstan::json
