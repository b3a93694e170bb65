#include "apis/gitops/v1/types.h"

#include "runtime/meta/time.h"

#include <stdexcept>

namespace capstan::apis::gitops::v1 {
namespace {

std::string str(const json::Value& o, std::initializer_list<std::string_view> path) { return std::string(json::get_string(o, path)); }

// A Go duration member; `fallback` when missing. Throws naming the field when it does not parse
// (the CRD pattern lets through values like "9999999999h" that overflow).
Duration duration(const json::Value& spec, std::string_view key, Duration fallback) {
  std::string_view text = json::get_string(spec, {key});
  if (text.empty()) return fallback;
  auto d = meta::parse_go_duration(text);
  if (!d || *d < std::chrono::nanoseconds::zero())
    throw std::invalid_argument("spec." + std::string(key) + ": Invalid value: \"" + std::string(text) + "\": not a duration");
  return std::chrono::duration_cast<Duration>(*d);
}

std::map<std::string, std::string> string_map(const json::Value& o, std::initializer_list<std::string_view> path) {
  std::map<std::string, std::string> out;
  if (const auto* m = json::get_object(o, path))
    for (const auto& kv : *m)
      if (kv.value().is_string()) out[std::string(kv.key())] = std::string(kv.value().get_string());
  return out;
}

}  // namespace

GitRepositorySpec parse_git_repository_spec(const json::Value& object) {
  static const json::Value empty = json::Object();
  const json::Value* spec = json::find(object, {"spec"});
  if (!spec) spec = &empty;
  GitRepositorySpec s;
  s.url = str(*spec, {"url"});
  s.interval = duration(*spec, "interval", Duration{});
  s.timeout = duration(*spec, "timeout", kDefaultGitTimeout);
  s.ref.branch = str(*spec, {"ref", "branch"});
  s.ref.tag = str(*spec, {"ref", "tag"});
  s.ref.commit = str(*spec, {"ref", "commit"});
  s.ref.name = str(*spec, {"ref", "name"});
  if (s.ref.branch.empty() && s.ref.tag.empty() && s.ref.commit.empty() && s.ref.name.empty())
    s.ref.branch = std::string(kDefaultBranch);
  s.suspend = json::get_bool(*spec, {"suspend"});
  return s;
}

KustomizationSpec parse_kustomization_spec(const json::Value& object) {
  static const json::Value empty = json::Object();
  const json::Value* spec = json::find(object, {"spec"});
  if (!spec) spec = &empty;
  KustomizationSpec s;
  if (auto kind = str(*spec, {"sourceRef", "kind"}); !kind.empty()) s.source_kind = kind;
  s.source.name = str(*spec, {"sourceRef", "name"});
  s.source.ns = str(*spec, {"sourceRef", "namespace"});
  s.interval = duration(*spec, "interval", Duration{});
  s.retry_interval = duration(*spec, "retryInterval", s.interval);
  s.timeout = duration(*spec, "timeout", s.interval);
  s.path = str(*spec, {"path"});
  s.prune = json::get_bool(*spec, {"prune"});
  s.target_namespace = str(*spec, {"targetNamespace"});
  s.suspend = json::get_bool(*spec, {"suspend"});
  if (const auto* deps = json::get_array(*spec, {"dependsOn"}))
    for (const auto& d : *deps) s.depends_on.push_back({str(d, {"name"}), str(d, {"namespace"})});
  s.common_labels = string_map(*spec, {"commonMetadata", "labels"});
  s.common_annotations = string_map(*spec, {"commonMetadata", "annotations"});
  s.name_prefix = str(*spec, {"namePrefix"});
  s.name_suffix = str(*spec, {"nameSuffix"});
  s.service_account_name = str(*spec, {"serviceAccountName"});
  return s;
}

std::string ref_label(const GitRef& ref) {
  if (!ref.commit.empty()) return "";
  if (!ref.name.empty()) return ref.name;
  if (!ref.tag.empty()) return ref.tag;
  return ref.branch.empty() ? std::string(kDefaultBranch) : ref.branch;
}

}  // namespace capstan::apis::gitops::v1
