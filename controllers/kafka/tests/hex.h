// Lower-case hex of bytes, for the Kafka protocol encoding tests.
#pragma once

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

}  // namespace capstan::kafka::testing
