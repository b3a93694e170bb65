#include "runtime/meta/time.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>

namespace capstan::meta {

std::string format_rfc3339(TimePoint t) {
  auto secs = Clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec);
  return buf;
}

std::string format_rfc3339_micro(TimePoint t) {
  auto secs = Clock::to_time_t(t);
  auto us = std::chrono::duration_cast<std::chrono::microseconds>(t.time_since_epoch()).count() % 1000000;
  if (us < 0) us += 1000000;
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(us));
  return buf;
}

std::optional<TimePoint> parse_rfc3339(std::string_view s) {
  int Y, M, D, h, m, sec;
  if (s.size() < 20) return std::nullopt;
  std::string str(s);
  if (std::sscanf(str.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d", &Y, &M, &D, &h, &m, &sec) != 6) return std::nullopt;
  std::size_t i = 19;
  long long frac_ns = 0;
  if (i < s.size() && s[i] == '.') {
    ++i;
    long long scale = 100000000;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      frac_ns += (s[i] - '0') * scale;
      scale /= 10;
      ++i;
    }
  }
  long offset = 0;
  if (i < s.size() && (s[i] == 'Z' || s[i] == 'z')) {
    ++i;
  } else if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    int oh = 0, om = 0;
    if (std::sscanf(str.c_str() + i + 1, "%2d:%2d", &oh, &om) != 2) return std::nullopt;
    offset = (oh * 3600L + om * 60L) * (s[i] == '+' ? 1 : -1);
    i += 6;
  } else {
    return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  std::tm tm{};
  tm.tm_year = Y - 1900;
  tm.tm_mon = M - 1;
  tm.tm_mday = D;
  tm.tm_hour = h;
  tm.tm_min = m;
  tm.tm_sec = sec;
  time_t t = timegm(&tm);
  return Clock::from_time_t(t - offset) +
         std::chrono::duration_cast<Clock::duration>(std::chrono::nanoseconds(frac_ns));
}

std::optional<std::chrono::nanoseconds> parse_go_duration(std::string_view s) {
  if (s.empty()) return std::nullopt;
  bool neg = false;
  if (s.front() == '-' || s.front() == '+') {
    neg = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return std::chrono::nanoseconds(0);
  if (s.empty()) return std::nullopt;
  long double total = 0;
  while (!s.empty()) {
    std::size_t i = 0;
    while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.')) ++i;
    if (i == 0) return std::nullopt;
    std::string num(s.substr(0, i));
    s.remove_prefix(i);
    std::size_t j = 0;
    while (j < s.size() && !(std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == '.')) ++j;
    std::string_view unit = s.substr(0, j);
    s.remove_prefix(j);
    long double scale;
    if (unit == "ns") scale = 1;
    else if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") scale = 1e3;
    else if (unit == "ms") scale = 1e6;
    else if (unit == "s") scale = 1e9;
    else if (unit == "m") scale = 60e9;
    else if (unit == "h") scale = 3600e9;
    else return std::nullopt;
    char* end = nullptr;
    long double v = std::strtold(num.c_str(), &end);
    if (!end || *end != '\0') return std::nullopt;
    total += v * scale;
  }
  if (total > 9.2e18L) return std::nullopt;
  auto ns = std::chrono::nanoseconds(static_cast<long long>(std::llround(static_cast<double>(total))));
  return neg ? -ns : ns;
}

namespace {
// Go prints fractional units without trailing zeros: 1.5s, 2.25ms.
std::string frac(long long value, long long unit, const char* suffix) {
  long long whole = value / unit;
  long long rest = value % unit;
  std::string out = std::to_string(whole);
  if (rest) {
    std::string digits = std::to_string(rest + unit).substr(1);  // zero-padded to the unit's width
    while (!digits.empty() && digits.back() == '0') digits.pop_back();
    out += "." + digits;
  }
  return out + suffix;
}
}  // namespace

std::string format_go_duration(std::chrono::nanoseconds d) {
  long long ns = d.count();
  if (ns == 0) return "0s";
  std::string sign = ns < 0 ? "-" : "";
  unsigned long long u = ns < 0 ? static_cast<unsigned long long>(-ns) : static_cast<unsigned long long>(ns);
  long long v = static_cast<long long>(u);
  if (v < 1000) return sign + std::to_string(v) + "ns";
  if (v < 1000000) return sign + frac(v, 1000, "\xC2\xB5s");
  if (v < 1000000000) return sign + frac(v, 1000000, "ms");
  long long h = v / 3600000000000LL;
  v %= 3600000000000LL;
  long long m = v / 60000000000LL;
  v %= 60000000000LL;
  std::string out = sign;
  if (h) out += std::to_string(h) + "h";
  if (h || m) out += std::to_string(m) + "m";
  out += frac(v, 1000000000, "s");
  return out;
}

std::string human_duration(std::chrono::seconds d) {
  long long s = d.count();
  if (s < 0) s = 0;
  if (s < 120) return std::to_string(s) + "s";
  long long m = s / 60;
  if (m < 10) {
    long long rs = s % 60;
    return rs ? std::to_string(m) + "m" + std::to_string(rs) + "s" : std::to_string(m) + "m";
  }
  if (m < 180) return std::to_string(m) + "m";
  long long h = s / 3600;
  if (h < 8) {
    long long rm = (s % 3600) / 60;
    return rm ? std::to_string(h) + "h" + std::to_string(rm) + "m" : std::to_string(h) + "h";
  }
  if (h < 48) return std::to_string(h) + "h";
  long long days = h / 24;
  if (h < 24 * 8) {
    long long rh = h % 24;
    return rh ? std::to_string(days) + "d" + std::to_string(rh) + "h" : std::to_string(days) + "d";
  }
  if (h < 24 * 365 * 2) return std::to_string(days) + "d";
  long long years = days / 365;
  if (days < 365 * 8) {
    long long rd = days % 365;
    return rd ? std::to_string(years) + "y" + std::to_string(rd) + "d" : std::to_string(years) + "y";
  }
  return std::to_string(years) + "y";
}

}  // namespace capstan::meta
