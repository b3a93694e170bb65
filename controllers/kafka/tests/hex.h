// Lower-case hex of bytes, for the Kafka protocol encoding tests.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace capstan::kafka::testing {

inline std::string hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

// The bytes of lower-case hex (a response as Kafka's own encoding would send it).
inline std::string unhex(std::string_view digits) {
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    throw std::invalid_argument(std::string("not a hex digit: ") + c);
  };
  if (digits.size() % 2) throw std::invalid_argument("an odd number of hex digits");
  std::string out;
  for (std::size_t i = 0; i < digits.size(); i += 2) out.push_back(static_cast<char>(nibble(digits[i]) << 4 | nibble(digits[i + 1])));
  return out;
}

}  // namespace capstan::kafka::testing
