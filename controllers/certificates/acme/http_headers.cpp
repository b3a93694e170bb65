#include "controllers/certificates/acme/http_headers.h"
#include "runtime/meta/ascii.h"

#include <algorithm>
#include <cstdint>
#include <ctime>
#include <iomanip>
#include <sstream>

namespace capstan::certificates::acme {
namespace {

// The longest delay we report (about 31 years): anything longer means "not in our lifetime".
constexpr std::int64_t kMaxRetryAfterSeconds = 999'999'999;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Whether a Link's params (after the <target>) carry rel=... containing `rel`.
bool has_rel(std::string_view params, std::string_view rel) {
  std::string want = meta::ascii_lower(rel);
  std::size_t pos = 0;
  while (pos < params.size()) {
    std::size_t semi = params.find(';', pos);
    std::string_view param = trim(params.substr(pos, semi == std::string_view::npos ? std::string_view::npos : semi - pos));
    pos = semi == std::string_view::npos ? params.size() : semi + 1;
    auto eq = param.find('=');
    if (eq == std::string_view::npos || meta::ascii_lower(trim(param.substr(0, eq))) != "rel") continue;
    std::string_view value = trim(param.substr(eq + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    // rel may hold several space-separated relation types.
    std::istringstream words{std::string(value)};
    for (std::string w; words >> w;)
      if (meta::ascii_lower(w) == want) return true;
  }
  return false;
}

std::string resolve(std::string_view target, std::string_view base_url) {
  if (target.empty() || target.front() != '/' || base_url.empty()) return std::string(target);
  try {
    return http::Url::parse(base_url).origin() + std::string(target);
  } catch (const std::exception&) {
    return std::string(target);
  }
}

}  // namespace

std::optional<std::chrono::seconds> parse_retry_after(std::string_view value, std::chrono::system_clock::time_point now) {
  value = trim(value);
  if (value.empty()) return std::nullopt;
  if (value.find_first_not_of("0123456789") == std::string_view::npos) {
    if (value.size() > 9) return std::chrono::seconds(kMaxRetryAfterSeconds);
    return std::chrono::seconds(std::stoll(std::string(value)));
  }
  // IMF-fixdate, the only HTTP-date form senders must generate.
  std::tm tm{};
  std::istringstream in{std::string(value)};
  in.imbue(std::locale::classic());
  in >> std::get_time(&tm, "%a, %d %b %Y %H:%M:%S");
  if (in.fail()) return std::nullopt;
  std::string zone;
  in >> zone;
  if (zone != "GMT" && zone != "UTC") return std::nullopt;
  std::time_t t = timegm(&tm);
  if (t == static_cast<std::time_t>(-1)) return std::nullopt;
  // In whole seconds: a date past 2262 does not fit system_clock's nanoseconds, and
  // from_time_t overflowed (undefined behaviour found by acme/fuzz/acme_fuzz.cpp). As with
  // delay-seconds, a far date is capped. ceil(t - now) is t - floor(now) for a whole t.
  std::int64_t now_s = std::chrono::floor<std::chrono::seconds>(now).time_since_epoch().count();
  if (t <= now_s) return std::chrono::seconds(0);
  return std::chrono::seconds(std::min<std::int64_t>(t - now_s, kMaxRetryAfterSeconds));
}

std::optional<std::chrono::seconds> retry_after(const http::Headers& headers, std::chrono::system_clock::time_point now) {
  auto v = headers.get("Retry-After");
  if (!v) return std::nullopt;
  return parse_retry_after(*v, now);
}

std::vector<std::string> link_targets(const http::Headers& headers, std::string_view rel, std::string_view base_url) {
  std::vector<std::string> out;
  for (const auto& [name, value] : headers.entries()) {
    if (!http::iequals(name, "Link")) continue;
    std::string_view v = value;
    std::size_t pos = 0;
    while (pos < v.size()) {
      std::size_t open = v.find('<', pos);
      if (open == std::string_view::npos) break;
      std::size_t close = v.find('>', open);
      if (close == std::string_view::npos) break;
      std::string_view target = v.substr(open + 1, close - open - 1);
      // The link's params run to the next comma outside quotes.
      std::size_t end = close + 1;
      bool quoted = false;
      while (end < v.size() && (quoted || v[end] != ',')) {
        if (v[end] == '"') quoted = !quoted;
        ++end;
      }
      if (has_rel(v.substr(close + 1, end - close - 1), rel)) out.push_back(resolve(target, base_url));
      pos = end + 1;
    }
  }
  return out;
}

}  // namespace capstan::certificates::acme
