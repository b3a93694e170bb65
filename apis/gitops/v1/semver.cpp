#include "apis/gitops/v1/semver.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <stdexcept>

namespace capstan::apis::gitops::v1 {
namespace {

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

std::optional<long> number(std::string_view s) {
  if (!all_digits(s) || s.size() > 15) return std::nullopt;
  long n = 0;
  std::from_chars(s.data(), s.data() + s.size(), n);
  return n;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  for (;;) {
    auto at = s.find(sep);
    out.push_back(s.substr(0, at));
    if (at == std::string_view::npos) return out;
    s.remove_prefix(at + 1);
  }
}

bool valid_identifiers(const std::vector<std::string>& ids) {
  return std::all_of(ids.begin(), ids.end(), [](const std::string& id) {
    return !id.empty() && std::all_of(id.begin(), id.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-'; });
  });
}

// A version pattern of a constraint: up to three parts, each a number or a wildcard; `precision`
// is how many leading parts are numbers.
struct Pattern {
  Version version;
  int precision = 0;
};

Pattern parse_pattern(std::string_view text, std::string_view whole) {
  auto bad = [&] { return std::invalid_argument("\"" + std::string(text) + "\" in \"" + std::string(whole) + "\" is not a version"); };
  if (!text.empty() && (text.front() == 'v' || text.front() == 'V')) text.remove_prefix(1);
  if (text.empty()) throw bad();
  Pattern p;
  p.version.original = std::string(text);
  std::string_view core = text.substr(0, text.find_first_of("-+"));
  if (auto plus = text.find('+'); plus != std::string_view::npos) text = text.substr(0, plus);
  if (auto dash = text.find('-'); dash != std::string_view::npos) {
    for (auto id : split(text.substr(dash + 1), '.')) p.version.prerelease.emplace_back(id);
    if (!valid_identifiers(p.version.prerelease)) throw bad();
  }
  auto parts = split(core, '.');
  if (parts.size() > 3) throw bad();
  long* fields[] = {&p.version.major, &p.version.minor, &p.version.patch};
  bool wild = false;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (parts[i] == "x" || parts[i] == "X" || parts[i] == "*") {
      wild = true;
      continue;
    }
    auto n = number(parts[i]);
    if (!n || wild) throw bad();
    *fields[i] = *n;
    ++p.precision;
  }
  if (!p.version.prerelease.empty() && p.precision < 3) throw bad();
  return p;
}

Version make(long major, long minor, long patch) {
  Version v;
  v.major = major;
  v.minor = minor;
  v.patch = patch;
  return v;
}

// The first version past the pattern's range (1.2 -> 1.3.0, 1 -> 2.0.0).
Version upper(const Pattern& p) {
  if (p.precision <= 1) return make(p.version.major + 1, 0, 0);
  return make(p.version.major, p.version.minor + 1, 0);
}

using Bound = SemverConstraint::Bound;
using Op = Bound::Op;

void add_comparator(std::string_view token, std::string_view whole, std::vector<Bound>& out) {
  static constexpr std::string_view kOps[] = {"!=", ">=", "=>", "<=", "=<", "~>", ">", "<", "=", "~", "^"};
  std::string_view op;
  for (auto candidate : kOps)
    if (token.starts_with(candidate)) {
      op = candidate;
      break;
    }
  Pattern p = parse_pattern(token.substr(op.size()), whole);
  const Version& v = p.version;
  const bool exact = p.precision == 3;
  if (op.empty() || op == "=") {
    if (exact) return out.push_back({Op::kEq, v});
    out.push_back({Op::kGe, v});
    if (p.precision > 0) out.push_back({Op::kLt, upper(p)});
  } else if (op == "!=") {
    if (!exact) throw std::invalid_argument("\"" + std::string(token) + "\" in \"" + std::string(whole) + "\": != takes a full version");
    out.push_back({Op::kNe, v});
  } else if (op == ">") {
    out.push_back(exact ? Bound{Op::kGt, v} : Bound{Op::kGe, p.precision == 0 ? make(0, 0, 0) : upper(p)});
  } else if (op == ">=" || op == "=>") {
    out.push_back({Op::kGe, v});
  } else if (op == "<") {
    out.push_back({Op::kLt, v});
  } else if (op == "<=" || op == "=<") {
    if (exact) out.push_back({Op::kLe, v});
    else if (p.precision > 0) out.push_back({Op::kLt, upper(p)});
  } else if (op == "~" || op == "~>") {
    out.push_back({Op::kGe, v});
    if (p.precision >= 2) out.push_back({Op::kLt, make(v.major, v.minor + 1, 0)});
    else if (p.precision == 1) out.push_back({Op::kLt, make(v.major + 1, 0, 0)});
  } else {  // ^
    out.push_back({Op::kGe, v});
    if (p.precision == 0) return;
    if (v.major > 0 || p.precision == 1) out.push_back({Op::kLt, make(v.major + 1, 0, 0)});
    else if (v.minor > 0 || p.precision == 2) out.push_back({Op::kLt, make(0, v.minor + 1, 0)});
    else out.push_back({Op::kLt, make(0, 0, v.patch + 1)});
  }
}

}  // namespace

std::optional<Version> Version::parse(std::string_view text) {
  try {
    Pattern p = parse_pattern(text, text);
    if (p.precision == 0 || p.precision != static_cast<int>(split(text.substr(0, text.find_first_of("-+")), '.').size())) return std::nullopt;
    p.version.original = std::string(text);
    return p.version;
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

int Version::compare(const Version& o) const {
  if (major != o.major) return major < o.major ? -1 : 1;
  if (minor != o.minor) return minor < o.minor ? -1 : 1;
  if (patch != o.patch) return patch < o.patch ? -1 : 1;
  if (prerelease.empty() != o.prerelease.empty()) return prerelease.empty() ? 1 : -1;
  for (std::size_t i = 0; i < prerelease.size() && i < o.prerelease.size(); ++i) {
    const auto& a = prerelease[i];
    const auto& b = o.prerelease[i];
    if (a == b) continue;
    auto na = number(a), nb = number(b);
    if (na && nb) return *na < *nb ? -1 : 1;
    if (na || nb) return na ? -1 : 1;  // numeric identifiers sort first
    return a < b ? -1 : 1;
  }
  if (prerelease.size() != o.prerelease.size()) return prerelease.size() < o.prerelease.size() ? -1 : 1;
  return 0;
}

SemverConstraint SemverConstraint::parse(std::string_view text) {
  if (text.size() > 1024) throw std::invalid_argument("the constraint is longer than 1024 characters");
  SemverConstraint c;
  std::string_view rest = text;
  for (;;) {
    auto bar = rest.find("||");
    std::string_view group = rest.substr(0, bar);
    std::vector<std::string> tokens;
    std::string current;
    for (char ch : group) {
      if (ch == ' ' || ch == ',' || ch == '\t') {
        if (!current.empty()) tokens.push_back(std::move(current)), current.clear();
      } else {
        current += ch;
      }
    }
    if (!current.empty()) tokens.push_back(std::move(current));
    // An operator written apart from its version (">= 1.2").
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i)
      if (std::all_of(tokens[i].begin(), tokens[i].end(), [](char ch) { return std::string_view("=!<>~^").find(ch) != std::string_view::npos; })) {
        tokens[i] += tokens[i + 1];
        tokens.erase(tokens.begin() + static_cast<std::ptrdiff_t>(i + 1));
      }
    if (tokens.empty()) throw std::invalid_argument("\"" + std::string(text) + "\" has an empty alternative");
    std::vector<Bound> all;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      if (i + 2 < tokens.size() && tokens[i + 1] == "-") {  // a hyphen range
        Pattern low = parse_pattern(tokens[i], text), high = parse_pattern(tokens[i + 2], text);
        all.push_back({Op::kGe, low.version});
        if (high.precision == 3) all.push_back({Op::kLe, high.version});
        else if (high.precision > 0) all.push_back({Op::kLt, upper(high)});
        i += 2;
        continue;
      }
      add_comparator(tokens[i], text, all);
    }
    c.any_of_.push_back(std::move(all));
    if (bar == std::string_view::npos) break;
    rest.remove_prefix(bar + 2);
  }
  return c;
}

bool SemverConstraint::matches(const Version& v) const {
  for (const auto& group : any_of_) {
    if (!v.prerelease.empty() &&
        std::none_of(group.begin(), group.end(), [](const Bound& b) { return !b.version.prerelease.empty(); }))
      continue;
    bool ok = true;
    for (const auto& b : group) {
      const int c = v.compare(b.version);
      switch (b.op) {
        case Op::kEq: ok = c == 0; break;
        case Op::kNe: ok = c != 0; break;
        case Op::kGt: ok = c > 0; break;
        case Op::kGe: ok = c >= 0; break;
        case Op::kLt: ok = c < 0; break;
        case Op::kLe: ok = c <= 0; break;
      }
      if (!ok) break;
    }
    if (ok) return true;
  }
  return false;
}

}  // namespace capstan::apis::gitops::v1
