// UTF-8 encoding of one code point: the one encoder of the parsers that read \u and \U escapes
// (JSON paths, CEL string literals) and of the schema regex's UTF-32 -> UTF-8 conversion.
#pragma once

#include <string>

namespace capstan::json {

// Appends `cp` (at most 0x10FFFF; callers reject surrogates and larger values) as UTF-8.
void append_utf8(std::string& out, char32_t cp);

}  // namespace capstan::json
