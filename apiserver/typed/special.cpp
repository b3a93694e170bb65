#include "apiserver/typed/special.h"

#include "runtime/gofmt/gofmt.h"
#include "runtime/meta/time.h"

#include <cctype>
#include <vector>

namespace capstan::apiserver::typed {
namespace {

bool digit_at(std::string_view s, std::size_t i) { return i < s.size() && s[i] >= '0' && s[i] <= '9'; }

// time.getnum: one or two digits (exactly two when fixed).
bool getnum(std::string_view& s, bool fixed, int& out) {
  if (!digit_at(s, 0)) return false;
  if (!digit_at(s, 1)) {
    if (fixed) return false;
    out = s[0] - '0';
    s.remove_prefix(1);
    return true;
  }
  out = (s[0] - '0') * 10 + (s[1] - '0');
  s.remove_prefix(2);
  return true;
}

int days_in(int month, int year) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

enum class Std { Year, Month, Day, Hour, Minute, Second, Frac6, Zone };
struct Chunk {
  std::string_view prefix;  // literal text before the element
  Std std;
  std::string_view text;    // the element as written in the layout
};

}  // namespace

std::optional<std::string> time_parse_error(std::string_view layout, std::string_view value) {
  const bool micro = layout == kRFC3339Micro;
  std::vector<Chunk> chunks = {{"", Std::Year, "2006"},    {"-", Std::Month, "01"},  {"-", Std::Day, "02"},
                               {"T", Std::Hour, "15"},     {":", Std::Minute, "04"}, {":", Std::Second, "05"}};
  if (micro) chunks.push_back({"", Std::Frac6, ".000000"});
  chunks.push_back({"", Std::Zone, "Z07:00"});
  auto cannot = [&](std::string_view value_elem, std::string_view layout_elem) {
    return "parsing time " + gofmt::quote(value) + " as " + gofmt::quote(layout) + ": cannot parse " +
           gofmt::quote(value_elem) + " as " + gofmt::quote(layout_elem);
  };
  auto range = [&](std::string_view what) { return "parsing time " + gofmt::quote(value) + ": " + std::string(what) + " out of range"; };

  std::string_view v = value;
  int year = 0, month = 0, day = 0, num = 0;
  for (const auto& c : chunks) {
    if (!v.starts_with(c.prefix)) return cannot(v, c.prefix);
    v.remove_prefix(c.prefix.size());
    std::string_view hold = v;
    bool ok = true;
    std::string_view range_err;
    switch (c.std) {
      case Std::Year:
        if (v.size() < 4 || !digit_at(v, 0) || !digit_at(v, 1) || !digit_at(v, 2) || !digit_at(v, 3)) {
          ok = false;
        } else {
          year = std::stoi(std::string(v.substr(0, 4)));
          v.remove_prefix(4);
        }
        break;
      case Std::Month:
        ok = getnum(v, true, month);
        if (ok && (month <= 0 || month > 12)) range_err = "month";
        break;
      case Std::Day: ok = getnum(v, true, day); break;
      case Std::Hour:
        ok = getnum(v, false, num);
        if (ok && num >= 24) range_err = "hour";
        break;
      case Std::Minute:
        ok = getnum(v, true, num);
        if (ok && num >= 60) range_err = "minute";
        break;
      case Std::Second:
        ok = getnum(v, true, num);
        if (ok && num >= 60) {
          range_err = "second";
        } else if (ok && !micro && v.size() >= 2 && (v[0] == '.' || v[0] == ',') && digit_at(v, 1)) {
          std::size_t n = 2;
          while (digit_at(v, n)) ++n;
          if (n - 1 > 9) range_err = "fractional second";
          v.remove_prefix(n);
        }
        break;
      case Std::Frac6:
        if (v.size() < 7 || (v[0] != '.' && v[0] != ',')) {
          ok = false;
        } else {
          for (std::size_t i = 1; i < 7; ++i) ok = ok && digit_at(v, i);
          if (ok) v.remove_prefix(7);
        }
        break;
      case Std::Zone:
        if (!v.empty() && v[0] == 'Z') {
          v.remove_prefix(1);
          break;
        }
        if (v.size() < 6 || v[3] != ':' || (v[0] != '+' && v[0] != '-')) {
          ok = false;
          break;
        } else {
          std::string_view hh = v.substr(1, 2), mm = v.substr(4, 2);
          int h = 0, m = 0;
          ok = getnum(hh, true, h) && getnum(mm, true, m);
          if (ok && h > 24) range_err = "time zone offset hour";
          if (ok && m > 60) range_err = "time zone offset minute";
          v.remove_prefix(6);
        }
        break;
    }
    if (!range_err.empty()) return range(range_err);
    if (!ok) return cannot(hold, c.text);
  }
  if (!v.empty()) return "parsing time " + gofmt::quote(value) + ": extra text: " + gofmt::quote(v);
  if (day < 1 || day > days_in(month, year)) return range("day");
  return std::nullopt;
}

std::optional<std::string> duration_parse_error(std::string_view value) {
  if (meta::parse_go_duration(value)) return std::nullopt;
  std::string_view s = value;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  if (s == "0") return std::nullopt;
  bool numeric = !s.empty();
  for (char c : s) numeric = numeric && (std::isdigit(static_cast<unsigned char>(c)) || c == '.');
  if (numeric && s != ".") return "time: missing unit in duration " + gofmt::quote(value);
  return "time: invalid duration " + gofmt::quote(value);
}

std::optional<std::string> quantity_parse_error(std::string_view str) {
  static const std::string kFormatWrong =
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
  if (str.empty()) return kFormatWrong;
  // resource.parseQuantityString: sign, digits, optional fraction, suffix letters, signed exponent digits.
  std::size_t pos = 0, end = str.size();
  if (str[0] == '-' || str[0] == '+') ++pos;
  while (pos < end && std::isdigit(static_cast<unsigned char>(str[pos]))) ++pos;
  if (pos < end && str[pos] == '.') {
    ++pos;
    while (pos < end && std::isdigit(static_cast<unsigned char>(str[pos]))) ++pos;
  }
  std::size_t suffix_start = pos;
  while (pos < end && std::string_view("eEinumkKMGTP").find(str[pos]) != std::string_view::npos) ++pos;
  if (pos < end && (str[pos] == '-' || str[pos] == '+')) ++pos;
  while (pos < end && std::isdigit(static_cast<unsigned char>(str[pos]))) ++pos;
  if (pos < end) return kFormatWrong;
  std::string_view suffix = str.substr(suffix_start);
  static const std::string_view kSuffixes[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "n", "u", "m", "k", "M", "G", "T", "P", "E"};
  for (auto s : kSuffixes)
    if (suffix == s) return std::nullopt;
  if (suffix.size() > 1 && (suffix[0] == 'e' || suffix[0] == 'E')) {
    std::string_view exp = suffix.substr(1);
    if (!exp.empty() && (exp[0] == '+' || exp[0] == '-')) exp.remove_prefix(1);
    bool digits = !exp.empty();
    for (char c : exp) digits = digits && std::isdigit(static_cast<unsigned char>(c));
    if (digits) return std::nullopt;
  }
  return std::string("unable to parse quantity's suffix");
}

std::optional<std::string> base64_error(std::string_view text) {
  auto alphabet = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
  };
  std::size_t count = 0, padding = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\r' || c == '\n') continue;
    if (c == '=') {
      // Padding may only close the last quantum (one or two '=').
      if (count % 4 < 2) return "illegal base64 data at input byte " + std::to_string(i);
      ++padding;
      ++count;
      continue;
    }
    if (!alphabet(c) || padding > 0) return "illegal base64 data at input byte " + std::to_string(i);
    ++count;
  }
  if (count % 4 != 0) return "illegal base64 data at input byte " + std::to_string(text.size() - (count % 4 == 1 ? 1 : 0));
  return std::nullopt;
}

}  // namespace capstan::apiserver::typed
