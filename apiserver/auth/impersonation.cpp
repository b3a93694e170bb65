#include "apiserver/auth/impersonation.h"

#include "apiserver/builtin/names.h"
#include "runtime/gofmt/gofmt.h"

#include <algorithm>
#include <cctype>

namespace capstan::apiserver::auth {
namespace {

constexpr std::string_view kUserHeader = "Impersonate-User";
constexpr std::string_view kUidHeader = "Impersonate-Uid";
constexpr std::string_view kGroupHeader = "Impersonate-Group";
constexpr std::string_view kExtraPrefix = "Impersonate-Extra-";
constexpr std::string_view kAuthnGroup = "authentication.k8s.io";

enum ModeIndex { kArbitraryNode, kServiceAccount, kUserInfo, kLegacy, kModeCount };
constexpr std::string_view kModeNames[] = {"arbitrary-node", "serviceaccount", "user-info", ""};

bool istarts_with(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && http::iequals(s.substr(0, prefix.size()), prefix);
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// url.PathUnescape; the key as given when it is not validly escaped.
std::string unescape_extra_key(const std::string& key) {
  std::string out;
  for (std::size_t i = 0; i < key.size(); ++i) {
    if (key[i] != '%') {
      out += key[i];
      continue;
    }
    if (i + 2 >= key.size() || !std::isxdigit(static_cast<unsigned char>(key[i + 1])) ||
        !std::isxdigit(static_cast<unsigned char>(key[i + 2])))
      return key;
    out += static_cast<char>(std::stoi(key.substr(i + 1, 2), nullptr, 16));
    i += 2;
  }
  return out;
}

std::optional<std::string> node_name(std::string_view username) {
  constexpr std::string_view prefix = "system:node:";
  if (username.substr(0, prefix.size()) != prefix) return std::nullopt;
  std::string name(username.substr(prefix.size()));
  if (!builtin::names::name_errors(name, "subdomain", false).empty()) return std::nullopt;
  return name;
}

// serviceaccount.SplitUsername.
std::optional<std::pair<std::string, std::string>> service_account(std::string_view username) {
  constexpr std::string_view prefix = "system:serviceaccount:";
  if (username.substr(0, prefix.size()) != prefix) return std::nullopt;
  std::string_view rest = username.substr(prefix.size());
  auto colon = rest.find(':');
  if (colon == std::string_view::npos || rest.find(':', colon + 1) != std::string_view::npos) return std::nullopt;
  std::string ns(rest.substr(0, colon)), name(rest.substr(colon + 1));
  if (!builtin::names::name_errors(ns, "label", false).empty() || !builtin::names::name_errors(name, "subdomain", false).empty())
    return std::nullopt;
  return std::make_pair(ns, name);
}

bool only_username(const rest::User& w) { return w.uid.empty() && w.groups.empty() && w.extra.empty(); }

bool mode_applies(int mode, const rest::User& wanted) {
  switch (mode) {
    case kArbitraryNode: return only_username(wanted) && node_name(wanted.name);
    case kServiceAccount: return only_username(wanted) && service_account(wanted.name);
    case kUserInfo: return !node_name(wanted.name) && !service_account(wanted.name);
    default: return true;
  }
}

// The %#v of the user.DefaultInfo the headers described, for the 400.
std::string sharp_v(const rest::User& u, bool groups_set, bool extra_set) {
  auto strings = [](const std::vector<std::string>& v) {
    std::string out = "[]string{";
    for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + gofmt::quote(v[i]);
    return out + "}";
  };
  std::string out = "&user.DefaultInfo{Name:" + gofmt::quote(u.name) + ", UID:" + gofmt::quote(u.uid) + ", Groups:";
  out += groups_set ? strings(u.groups) : "[]string(nil)";
  out += ", Extra:";
  if (!extra_set) {
    out += "map[string][]string(nil)";
  } else {
    out += "map[string][]string{";
    bool first = true;
    for (const auto& [k, v] : u.extra) {
      out += (first ? "" : ", ") + gofmt::quote(k) + ":" + strings(v);
      first = false;
    }
    out += "}";
  }
  return out + "}";
}

// The constrained modes' sanity checks of extra keys and values (validateExtra).
std::optional<std::string> invalid_extra(const std::map<std::string, std::vector<std::string>>& extra) {
  for (const auto& [key, values] : extra) {
    if (key.empty()) return "impersonating the empty string key in extra is not allowed";
    auto slash = key.find('/');
    std::string why;
    if (slash == std::string::npos || slash == 0 || slash + 1 == key.size()) {
      why = "extra.key: Invalid value: " + gofmt::quote(key) + ": must be a domain-prefixed path (such as \"acme.io/foo\")";
    } else {
      std::string host = key.substr(0, slash);
      auto errs = builtin::names::dns1123_subdomain(host);
      if (!errs.empty()) why = "extra.key: Invalid value: " + gofmt::quote(host) + ": " + errs.front();
    }
    if (!why.empty()) return "impersonating an invalid key in extra is not allowed: " + why;
    if (key != lower(key)) return "impersonating a non-lowercase key in extra is not allowed: " + gofmt::quote(key);
    if (values.empty()) return "impersonating empty values in extra is not allowed";
    if (std::find(values.begin(), values.end(), "") != values.end()) return "impersonating the empty string value in extra is not allowed";
  }
  return std::nullopt;
}

void ensure_group(rest::User& u, const std::string& g) {
  if (!u.in_group(g)) u.groups.push_back(g);
}

}  // namespace

bool has_impersonation_headers(const http::Headers& headers) {
  for (const auto& [k, v] : headers.entries())
    if (istarts_with(k, "Impersonate-")) return true;
  return false;
}

std::optional<rest::User> requested_user(const http::Headers& headers) {
  rest::User w;
  bool user_seen = false, uid_seen = false, groups = false, extra = false;
  for (const auto& [k, v] : headers.entries()) {
    if (http::iequals(k, kUserHeader)) {
      if (!user_seen) w.name = v;
      user_seen = true;
    } else if (http::iequals(k, kUidHeader)) {
      if (!uid_seen) w.uid = v;
      uid_seen = true;
    } else if (http::iequals(k, kGroupHeader)) {
      groups = true;
      w.groups.push_back(v);
    } else if (istarts_with(k, kExtraPrefix)) {
      extra = true;
      w.extra[unescape_extra_key(lower(std::string_view(k).substr(kExtraPrefix.size())))].push_back(v);
    }
  }
  if (w.name.empty()) {
    if (!w.uid.empty() || groups || extra)
      throw bad_request("requested " + sharp_v(w, groups, extra) + " without impersonating a user name");
    return std::nullopt;
  }
  return w;
}

void Impersonation::check(const Attributes& a) const {
  auto d = authorizer_.check(a);
  if (!d.allowed) throw forbidden_error(a, d.reason);
}

std::optional<rest::User> Impersonation::try_mode(int mode, const rest::User& requestor, const rest::User& wanted,
                                                  const Attributes& request, std::optional<ApiError>& error) const {
  if (!mode_applies(mode, wanted)) return std::nullopt;
  bool constrained = mode != kLegacy;
  std::string mode_name(kModeNames[mode]);
  try {
    if (constrained) {
      Attributes on = request;
      on.user = &requestor;
      on.verb = "impersonate-on:" + mode_name + ":" + request.verb;
      check(on);
    }
    std::string verb = constrained ? "impersonate:" + mode_name : "impersonate";
    std::string user_group = constrained ? std::string(kAuthnGroup) : "";
    auto attrs = [&](std::string group, std::string resource, std::string name) {
      Attributes a;
      a.user = &requestor;
      a.verb = verb;
      a.resource_request = true;
      a.api_group = std::move(group);
      a.api_version = "v1";
      a.resource = std::move(resource);
      a.name = std::move(name);
      return a;
    };
    rest::User actual = wanted;

    Attributes ua = attrs(user_group, "users", wanted.name);
    if (auto node = constrained ? node_name(wanted.name) : std::nullopt) {
      ua.resource = "nodes";
      ua.name = *node;
      if (!wanted.groups.empty())
        throw forbidden_error(ua, "when impersonating a node, cannot impersonate groups " + quote_list(wanted.groups));
      actual.groups = {"system:nodes"};
    }
    if (auto sa = service_account(wanted.name)) {
      ua.resource = "serviceaccounts";
      ua.ns = sa->first;
      ua.name = sa->second;
      if (constrained && !wanted.groups.empty())
        throw forbidden_error(ua, "when impersonating a service account, cannot impersonate groups " + quote_list(wanted.groups));
      if (wanted.groups.empty()) actual.groups = {"system:serviceaccounts", "system:serviceaccounts:" + sa->first};
    }
    check(ua);

    if (!wanted.uid.empty()) check(attrs(std::string(kAuthnGroup), "uids", wanted.uid));

    if (!wanted.groups.empty()) {
      Attributes ga = attrs(user_group, "groups", "");
      bool done = false;
      if (constrained) {
        if (std::find(wanted.groups.begin(), wanted.groups.end(), "") != wanted.groups.end())
          throw forbidden_error(ga, "impersonating the empty string group is not allowed");
        if (wanted.in_group("system:masters")) {
          ga.name = "system:masters";
          throw forbidden_error(ga, "impersonating the system:masters group is not allowed");
        }
        if (wanted.groups.size() >= 4) {
          ga.name = "*";
          done = authorizer_.check(ga).allowed;
        }
      }
      for (std::size_t i = 0; !done && i < wanted.groups.size(); ++i) {
        ga.name = wanted.groups[i];
        check(ga);
      }
    }

    if (!wanted.extra.empty()) {
      Attributes ea = attrs(std::string(kAuthnGroup), "userextras", "");
      bool done = false;
      if (constrained) {
        if (auto why = invalid_extra(wanted.extra)) throw forbidden_error(ea, *why);
        std::size_t count = 0;
        for (const auto& [k, v] : wanted.extra) count += v.size();
        if (wanted.extra.size() >= 4 || count >= 4) {
          ea.subresource = "*";
          ea.name = "*";
          done = authorizer_.check(ea).allowed;
        }
      }
      for (auto it = wanted.extra.begin(); !done && it != wanted.extra.end(); ++it) {
        ea.subresource = it->first;
        for (const auto& v : it->second) {
          ea.name = v;
          check(ea);
        }
      }
    }

    if (actual.name == "system:anonymous") ensure_group(actual, "system:unauthenticated");
    else if (!actual.in_group("system:unauthenticated")) ensure_group(actual, "system:authenticated");
    return actual;
  } catch (const ApiError& e) {
    error = e;
    return std::nullopt;
  }
}

rest::User Impersonation::impersonate(const rest::User& requestor, const rest::User& wanted, const Attributes& request) const {
  std::optional<int> last;
  {
    std::lock_guard<std::mutex> l(mu_);
    auto it = last_mode_.find(requestor.name);
    if (it != last_mode_.end()) last = it->second;
  }
  std::optional<ApiError> first_error;
  auto attempt = [&](int mode) -> std::optional<rest::User> {
    std::optional<ApiError> error;
    auto user = try_mode(mode, requestor, wanted, request, error);
    if (user) {
      std::lock_guard<std::mutex> l(mu_);
      if (last_mode_.size() >= 10000) last_mode_.clear();
      last_mode_[requestor.name] = mode;
      return user;
    }
    if (error && !first_error) first_error = std::move(error);
    return std::nullopt;
  };
  if (last) {
    if (auto u = attempt(*last)) return *u;
  }
  for (int mode = 0; mode < kModeCount; ++mode) {
    if (last && mode == *last) continue;
    if (auto u = attempt(mode)) return *u;
  }
  if (first_error) throw *first_error;
  throw internal_error("all impersonation modes failed");
}

}  // namespace capstan::apiserver::auth
