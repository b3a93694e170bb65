#include "apis/gitops/v1/validation.h"

#include "apis/gitops/v1/repo_path.h"
#include "apis/gitops/v1/semver.h"
#include "apis/gitops/v1/variable_name.h"
#include "runtime/meta/time.h"
#include "runtime/meta/ascii.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>

namespace capstan::apis::gitops::v1 {
namespace {

using validation::Cause;
using validation::FieldPath;
using Causes = std::vector<Cause>;

json::Value jstr(std::string_view s) { return json::Value(std::string(s)); }

const json::Value* spec_of(const json::Value& obj) {
  const json::Value* s = json::find(obj, {"spec"});
  return s && s->is_object() ? s : nullptr;
}

std::string fmt(Duration d) { return meta::format_go_duration(std::chrono::duration_cast<std::chrono::nanoseconds>(d)); }

// A duration member within [min, max]; absent is fine (defaults apply) unless required.
void check_duration(const json::Value* spec, std::string_view key, Duration min, Duration max, bool required, Causes& out) {
  FieldPath p = FieldPath("spec").child(key);
  std::string_view text = spec ? json::get_string(*spec, {key}) : std::string_view();
  if (text.empty()) {
    if (required) out.push_back(validation::field_required(p, ""));
    return;
  }
  auto d = meta::parse_go_duration(text);
  if (!d || *d < std::chrono::nanoseconds::zero()) {
    out.push_back(validation::field_invalid(p, jstr(text), "must be a duration such as 1m30s"));
    return;
  }
  auto ms = std::chrono::duration_cast<Duration>(*d);
  if (ms < min || ms > max)
    out.push_back(validation::field_invalid(p, jstr(text), "must be between " + fmt(min) + " and " + fmt(max)));
}

// git-check-ref-format's rules for one reference name.
std::optional<std::string> ref_format_error(std::string_view ref) {
  if (ref.empty()) return std::nullopt;
  if (ref.find("..") != std::string_view::npos) return "must not contain \"..\"";
  if (ref.find("@{") != std::string_view::npos) return "must not contain \"@{\"";
  for (char c : ref) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f || c == ' ' || c == '~' || c == '^' || c == ':' || c == '?' || c == '*' || c == '[' || c == '\\')
      return "must not contain spaces, control characters or any of ~^:?*[\\";
  }
  if (ref.front() == '/' || ref.back() == '/' || ref.find("//") != std::string_view::npos) return "must not begin or end with / nor contain //";
  if (ref.back() == '.' || ref == "@") return "must not end with . nor be @";
  std::size_t start = 0;
  while (start <= ref.size()) {
    std::size_t end = std::min(ref.find('/', start), ref.size());
    std::string_view part = ref.substr(start, end - start);
    if (!part.empty() && part.front() == '.') return "no component may begin with .";
    if (part.size() >= 5 && part.substr(part.size() - 5) == ".lock") return "no component may end with .lock";
    start = end + 1;
  }
  return std::nullopt;
}

std::string key_of(const std::string& ns, const std::string& name) { return ns + "/" + name; }

}  // namespace

std::vector<Cause> validate_git_repository(const json::Value& obj, const ValidationOptions& options) {
  Causes out;
  const json::Value* spec = spec_of(obj);
  FieldPath sp("spec");
  std::string_view url = spec ? json::get_string(*spec, {"url"}) : std::string_view();
  if (url.empty()) {
    out.push_back(validation::field_required(sp.child("url"), ""));
  } else {
    auto sep = url.find("://");
    const std::string scheme = meta::ascii_lower(sep == std::string_view::npos ? std::string_view() : url.substr(0, sep));
    if (std::find(options.url_schemes.begin(), options.url_schemes.end(), scheme) == options.url_schemes.end()) {
      std::string detail = "supported schemes: ";
      for (std::size_t i = 0; i < options.url_schemes.size(); ++i) detail += (i ? ", " : "") + options.url_schemes[i] + "://";
      if (scheme == "file") detail += " (file:// reads the manager's file system; the manager allows it with --gitops-url-schemes)";
      out.push_back(validation::field_invalid(sp.child("url"), jstr(url), detail));
    } else {
      std::string_view rest = url.substr(sep + 3);
      std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
      if (auto at = authority.rfind('@'); at != std::string_view::npos) authority.remove_prefix(at + 1);
      if (scheme == "file") {
        if (!authority.empty() || rest.size() < 2) out.push_back(validation::field_invalid(sp.child("url"), jstr(url), "a file:// URL must be file:///<absolute path>"));
      } else if (authority.empty() || authority.front() == ':') {
        out.push_back(validation::field_invalid(sp.child("url"), jstr(url), "must name a host"));
      }
    }
  }
  check_duration(spec, "interval", kMinInterval, kMaxInterval, true, out);
  check_duration(spec, "timeout", kMinTimeout, kMaxTimeout, false, out);
  FieldPath ref = sp.child("ref");
  for (std::string_view key : {"branch", "tag", "name"}) {
    std::string_view v = spec ? json::get_string(*spec, {"ref", key}) : std::string_view();
    if (auto e = ref_format_error(v)) out.push_back(validation::field_invalid(ref.child(key), jstr(v), "not a valid Git reference name: " + *e));
    else if (key == "name" && !v.empty() && v.substr(0, 5) != "refs/")
      out.push_back(validation::field_invalid(ref.child(key), jstr(v), "must be a full reference name under refs/, e.g. refs/heads/main"));
  }
  if (std::string_view range = spec ? json::get_string(*spec, {"ref", "semver"}) : std::string_view(); !range.empty()) {
    try {
      SemverConstraint::parse(range);
    } catch (const std::invalid_argument& e) {
      out.push_back(validation::field_invalid(ref.child("semver"), jstr(range), std::string("not a semver range: ") + e.what()));
    }
  }
  if (const auto* includes = spec ? json::get_array(*spec, {"include"}) : nullptr) {
    const std::string_view self = json::get_string(obj, {"metadata", "name"});
    for (std::size_t i = 0; i < includes->size(); ++i) {
      const json::Value& inc = (*includes)[i];
      FieldPath at = sp.child("include").index(static_cast<int>(i));
      std::string_view name = json::get_string(inc, {"repository", "name"});
      if (!name.empty() && name == self)
        out.push_back(validation::field_invalid(at.child("repository").child("name"), jstr(name), "a GitRepository cannot include itself"));
      for (std::string_view key : {"fromPath", "toPath"}) {
        std::string_view path = json::get_string(inc, {key});
        auto clean = clean_repo_path(path);
        if (!clean) out.push_back(validation::field_invalid(at.child(key), jstr(path), "must not climb out of the repository root"));
        else if (key == "toPath" && !path.empty() && clean->empty())
          out.push_back(validation::field_invalid(at.child(key), jstr(path), "must name a directory, not the repository root"));
      }
    }
  }
  return out;
}

std::vector<std::string> git_repository_warnings(const json::Value& obj) {
  std::string_view url = json::get_string(obj, {"spec", "url"});
  auto sep = url.find("://");
  if (sep == std::string_view::npos) return {};
  std::string_view authority = url.substr(sep + 3);
  authority = authority.substr(0, authority.find_first_of("/?#"));
  auto at = authority.rfind('@');
  if (at != std::string_view::npos && authority.substr(0, at).find(':') != std::string_view::npos)
    return {"spec.url: the URL carries a password, readable by anyone who can read this GitRepository"};
  return {};
}

std::vector<Cause> validate_kustomization(const json::Value& obj, const DependsOnLookup* lookup) {
  Causes out;
  const json::Value* spec = spec_of(obj);
  FieldPath sp("spec");
  check_duration(spec, "interval", kMinInterval, kMaxInterval, true, out);
  check_duration(spec, "retryInterval", kMinInterval, kMaxInterval, false, out);
  check_duration(spec, "timeout", kMinTimeout, kMaxTimeout, false, out);
  if (spec) {
    std::string_view path = json::get_string(*spec, {"path"});
    if (!clean_repo_path(path)) out.push_back(validation::field_invalid(sp.child("path"), jstr(path), "must not climb out of the repository root"));
    if (json::get_string(*spec, {"sourceRef", "name"}).empty()) out.push_back(validation::field_required(sp.child("sourceRef").child("name"), ""));
    if (const auto* vars = json::get_object(*spec, {"postBuild", "substitute"}))
      for (const auto& kv : *vars)
        if (!valid_variable_name(kv.key()))
          out.push_back(validation::field_invalid(sp.child("postBuild").child("substitute").key(kv.key()), jstr(kv.key()),
                                                  "a variable name must match [_a-zA-Z][_a-zA-Z0-9]*"));
  } else {
    out.push_back(validation::field_required(sp, ""));
  }

  const std::string ns(json::get_string(obj, {"metadata", "namespace"}));
  const std::string name(json::get_string(obj, {"metadata", "name"}));
  const std::string self = key_of(ns, name);
  std::vector<std::string> deps;  // "ns/name" of each entry
  if (const auto* arr = spec ? json::get_array(*spec, {"dependsOn"}) : nullptr) {
    std::set<std::string> seen;
    for (std::size_t i = 0; i < arr->size(); ++i) {
      FieldPath p = sp.child("dependsOn").index(i);
      std::string dn(json::get_string((*arr)[i], {"name"}));
      std::string dns(json::get_string((*arr)[i], {"namespace"}));
      std::string k = key_of(dns.empty() ? ns : dns, dn);
      deps.push_back(k);
      if (dn.empty()) out.push_back(validation::field_required(p.child("name"), ""));
      else if (k == self && !name.empty()) out.push_back(validation::field_invalid(p, jstr(k), "a Kustomization cannot depend on itself"));
      else if (!seen.insert(k).second) out.push_back(validation::field_duplicate(p, jstr(k)));
    }
  }
  if (!lookup || !*lookup || name.empty()) return out;

  // Breadth-first from each dependency through the stored Kustomizations: reaching this one
  // again is a cycle, reported with its path.
  std::size_t walked = 0;
  for (std::size_t i = 0; i < deps.size(); ++i) {
    if (deps[i] == self) continue;
    std::map<std::string, std::string> parent{{deps[i], self}};
    std::deque<std::string> queue{deps[i]};
    std::optional<std::string> cycle_end;
    while (!queue.empty() && !cycle_end) {
      std::string cur = queue.front();
      queue.pop_front();
      if (++walked > kMaxDependencyWalk) {
        out.push_back(validation::field_invalid(sp.child("dependsOn"), json::Value(static_cast<std::int64_t>(deps.size())),
                                                "the dependency graph is too large to check for cycles (more than " +
                                                    std::to_string(kMaxDependencyWalk) + " Kustomizations)"));
        return out;
      }
      auto slash = cur.find('/');
      std::string cns = cur.substr(0, slash), cname = cur.substr(slash + 1);
      auto next = (*lookup)(cns, cname);
      if (!next) continue;
      for (const auto& r : *next) {
        std::string k = key_of(r.ns.empty() ? cns : r.ns, r.name);
        if (k == self) {
          cycle_end = cur;
          break;
        }
        if (parent.emplace(k, cur).second) queue.push_back(k);
      }
    }
    if (!cycle_end) continue;
    std::vector<std::string> chain{self};
    for (std::string at = *cycle_end; at != self; at = parent.at(at)) chain.insert(chain.begin() + 1, at);
    std::string text;
    for (const auto& c : chain) text += c + " -> ";
    text += self;
    out.push_back(validation::field_invalid(sp.child("dependsOn").index(i), jstr(deps[i]), "dependency cycle: " + text));
  }
  return out;
}

}  // namespace capstan::apis::gitops::v1
