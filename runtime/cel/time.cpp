#include "runtime/cel/time.h"

#include <cstdio>
#include <limits>

namespace capstan::cel {
namespace {

constexpr std::int64_t kSecond = 1'000'000'000;

// Days from 1970-01-01 to the civil date (Howard Hinnant's algorithm).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

void civil_from_days(std::int64_t z, std::int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = static_cast<std::int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
}

// -62135596800 and 253402300799: 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z.
constexpr std::int64_t kMinSeconds = -62135596800LL;
constexpr std::int64_t kMaxSeconds = 253402300799LL;

bool digits(std::string_view s, std::size_t at, std::size_t n, int& out) {
  if (at + n > s.size()) return false;
  out = 0;
  for (std::size_t i = at; i < at + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    out = out * 10 + (s[i] - '0');
  }
  return true;
}

}  // namespace

std::optional<std::int64_t> parse_duration(std::string_view s, std::string* error) {
  auto fail = [&]() -> std::optional<std::int64_t> {
    if (error) *error = "time: invalid duration \"" + std::string(s) + "\"";
    return std::nullopt;
  };
  std::string_view in = s;
  bool neg = false;
  if (!in.empty() && (in[0] == '-' || in[0] == '+')) {
    neg = in[0] == '-';
    in.remove_prefix(1);
  }
  if (in == "0") return 0;
  if (in.empty()) return fail();
  // Accumulated in long double nanoseconds, then range-checked: exact enough for CRD inputs.
  long double total = 0;
  while (!in.empty()) {
    std::size_t i = 0;
    long double v = 0;
    bool any = false;
    while (i < in.size() && in[i] >= '0' && in[i] <= '9') {
      v = v * 10 + (in[i] - '0');
      ++i;
      any = true;
    }
    if (i < in.size() && in[i] == '.') {
      ++i;
      long double scale = 0.1L;
      while (i < in.size() && in[i] >= '0' && in[i] <= '9') {
        v += (in[i] - '0') * scale;
        scale /= 10;
        ++i;
        any = true;
      }
    }
    if (!any) return fail();
    std::size_t u = i;
    while (u < in.size() && !(in[u] >= '0' && in[u] <= '9') && in[u] != '.') ++u;
    std::string_view unit = in.substr(i, u - i);
    long double mult;
    if (unit == "ns") mult = 1;
    else if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") mult = 1e3L;
    else if (unit == "ms") mult = 1e6L;
    else if (unit == "s") mult = 1e9L;
    else if (unit == "m") mult = 60e9L;
    else if (unit == "h") mult = 3600e9L;
    else {
      if (error) *error = unit.empty() ? "time: missing unit in duration \"" + std::string(s) + "\""
                                       : "time: unknown unit \"" + std::string(unit) + "\" in duration \"" + std::string(s) + "\"";
      return std::nullopt;
    }
    total += v * mult;
    if (total > 9.223372036854775807e18L) return fail();
    in.remove_prefix(u);
  }
  auto n = static_cast<std::int64_t>(total);
  return neg ? -n : n;
}

std::string format_duration(std::int64_t nanos) {
  // protobuf JSON: seconds with up to 9 fractional digits, trailing zeros trimmed.
  bool neg = nanos < 0;
  std::uint64_t abs = neg ? 0 - static_cast<std::uint64_t>(nanos) : static_cast<std::uint64_t>(nanos);
  std::uint64_t secs = abs / kSecond, frac = abs % kSecond;
  std::string out = (neg ? "-" : "") + std::to_string(secs);
  if (frac) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%09llu", static_cast<unsigned long long>(frac));
    std::string f(buf);
    while (!f.empty() && f.back() == '0') f.pop_back();
    out += "." + f;
  }
  return out + "s";
}

std::optional<std::int64_t> parse_timestamp(std::string_view s, std::string* error) {
  auto fail = [&]() -> std::optional<std::int64_t> {
    if (error) *error = "timestamp '" + std::string(s) + "' is not RFC 3339";
    return std::nullopt;
  };
  int year, mon, day, hh, mm, ss;
  if (!digits(s, 0, 4, year) || s.size() < 20 || s[4] != '-' || !digits(s, 5, 2, mon) || s[7] != '-' ||
      !digits(s, 8, 2, day) || (s[10] != 'T' && s[10] != 't') || !digits(s, 11, 2, hh) || s[13] != ':' ||
      !digits(s, 14, 2, mm) || s[16] != ':' || !digits(s, 17, 2, ss))
    return fail();
  if (mon < 1 || mon > 12 || day < 1 || day > 31 || hh > 23 || mm > 59 || ss > 59) return fail();
  std::size_t i = 19;
  std::int64_t frac = 0;
  if (i < s.size() && s[i] == '.') {
    ++i;
    int n = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      if (n < 9) frac = frac * 10 + (s[i] - '0');
      ++n;
      ++i;
    }
    if (n == 0) return fail();
    for (int k = n; k < 9; ++k) frac *= 10;
  }
  std::int64_t offset = 0;
  if (i < s.size() && (s[i] == 'Z' || s[i] == 'z')) {
    ++i;
  } else if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    int oh, om;
    if (!digits(s, i + 1, 2, oh) || i + 3 >= s.size() || s[i + 3] != ':' || !digits(s, i + 4, 2, om)) return fail();
    offset = (oh * 3600 + om * 60) * (s[i] == '-' ? -1 : 1);
    i += 6;
  } else {
    return fail();
  }
  if (i != s.size()) return fail();
  std::int64_t secs = days_from_civil(year, mon, day) * 86400 + hh * 3600 + mm * 60 + ss - offset;
  if (secs < kMinSeconds || secs > kMaxSeconds) return fail();
  return secs * kSecond + frac;
}

std::string format_timestamp(std::int64_t nanos) {
  std::int64_t secs = nanos / kSecond, frac = nanos % kSecond;
  if (frac < 0) {
    frac += kSecond;
    --secs;
  }
  std::int64_t days = secs / 86400, rem = secs % 86400;
  if (rem < 0) {
    rem += 86400;
    --days;
  }
  std::int64_t y;
  unsigned m, d;
  civil_from_days(days, y, m, d);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02uT%02lld:%02lld:%02lld", static_cast<long long>(y), m, d,
                static_cast<long long>(rem / 3600), static_cast<long long>(rem / 60 % 60), static_cast<long long>(rem % 60));
  std::string out(buf);
  if (frac) {
    std::snprintf(buf, sizeof buf, "%09lld", static_cast<long long>(frac));
    std::string f(buf);
    while (!f.empty() && f.back() == '0') f.pop_back();
    out += "." + f;
  }
  return out + "Z";
}

bool timestamp_in_range(std::int64_t nanos) {
  std::int64_t secs = nanos / kSecond;
  return secs >= kMinSeconds && secs <= kMaxSeconds;
}

}  // namespace capstan::cel
