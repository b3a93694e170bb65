// CEL tokens (cel-spec langdef.md "Syntax"): identifiers, int/uint/double literals (decimal and
// hex), strings and bytes (quoted, triple-quoted, raw, with every CEL escape), punctuation.
#pragma once

#include "runtime/cel/value.h"

#include <string>
#include <string_view>

namespace capstan::cel {

enum class Tok { End, Ident, Literal, Punct, Error };

struct Token {
  Tok kind = Tok::End;
  int offset = 0;
  std::string text;  // identifier, punctuation ("==", "&&", "(", ...), or the error message
  Value value;       // Literal
  bool int_magnitude_overflow = false;  // decimal 9223372036854775808 (valid only after unary -)
};

class Lexer {
 public:
  explicit Lexer(std::string_view src) : src_(src) {}
  Token next();

 private:
  Token number();
  Token quoted(bool raw, bool bytes);
  Token error(int at, std::string msg);
  std::string_view src_;
  std::size_t pos_ = 0;
};

// CEL's reserved words that may not be used as identifiers (besides true, false, null, in).
bool is_reserved_word(std::string_view s);

}  // namespace capstan::cel
