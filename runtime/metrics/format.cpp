#include "runtime/metrics/format.h"

#include <charconv>
#include <cmath>
#include <system_error>

namespace capstan::metrics {

std::string format_value(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[64];
  // Shortest scientific form first: it tells us the decimal exponent.
  auto sci = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string_view s(buf, static_cast<std::size_t>(sci.ptr - buf));
  auto e = s.find('e');
  std::string_view exp_text = s.substr(e + 1);
  if (!exp_text.empty() && exp_text[0] == '+') exp_text.remove_prefix(1);
  int exponent = 0;
  std::from_chars(exp_text.data(), exp_text.data() + exp_text.size(), exponent);
  // Go's 'g' with shortest precision: exponent form when the decimal exponent is < -4 or >= 6.
  if (exponent < -4 || exponent >= 6) return std::string(s);
  auto fix = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
  return std::string(buf, static_cast<std::size_t>(fix.ptr - buf));
}

void append_escaped_label_value(std::string& out, std::string_view value) {
  for (char c : value) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      case '\n': out += "\\n"; break;
      default: out += c;
    }
  }
}

void append_escaped_help(std::string& out, std::string_view help) {
  for (char c : help) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      default: out += c;
    }
  }
}

}  // namespace capstan::metrics
