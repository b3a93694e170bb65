#include "apiserver/rest/scale.h"

#include "apiserver/rest/api_error.h"
#include "runtime/meta/selector.h"

namespace capstan::apiserver::rest {
namespace {

std::vector<std::string> split_dotted(std::string_view path) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '.') {
      ++i;
      continue;
    }
    auto j = path.find('.', i);
    if (j == std::string_view::npos) j = path.size();
    out.emplace_back(path.substr(i, j - i));
    i = j;
  }
  return out;
}

const registry::ScaleSubresource& scale_of(const registry::ResourceInfo& r, std::string_view version) {
  const auto* v = r.version(version);
  if (!v || !v->scale) throw path_not_found();
  return *v->scale;
}

}  // namespace

const json::Value* dotted_find(const json::Value& obj, std::string_view path) {
  const json::Value* cur = &obj;
  for (const auto& k : split_dotted(path)) {
    const auto* o = cur->if_object();
    if (!o) return nullptr;
    auto it = o->find(k);
    if (it == o->end()) return nullptr;
    cur = &it->value();
  }
  return cur;
}

void dotted_set(json::Value& obj, std::string_view path, json::Value v) {
  auto parts = split_dotted(path);
  if (parts.empty()) return;
  json::Value* cur = &obj;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    if (!cur->is_object()) *cur = json::Object{};
    auto& next = cur->as_object()[parts[i]];
    if (!next.is_object()) next = json::Object{};
    cur = &next;
  }
  if (!cur->is_object()) *cur = json::Object{};
  cur->as_object()[parts.back()] = std::move(v);
}

json::Value to_scale(const registry::ResourceInfo& r, std::string_view version, const json::Value& obj) {
  const auto& sc = scale_of(r, version);
  json::Object md;
  for (auto k : {"name", "namespace", "uid", "resourceVersion", "creationTimestamp"}) {
    if (const auto* v = json::find(obj, {"metadata", k})) md[k] = *v;
  }
  json::Object spec, status;
  const auto* want = dotted_find(obj, sc.spec_replicas_path);
  spec["replicas"] = want && want->is_number() ? *want : json::Value(0);
  const auto* have = dotted_find(obj, sc.status_replicas_path);
  status["replicas"] = have && have->is_number() ? *have : json::Value(0);
  if (!r.crd) {
    // Built-in workloads report their spec.selector as a label selector string.
    if (const auto* sel = json::find(obj, {"spec", "selector"})) {
      try {
        auto s = meta::LabelSelector::from_json(sel).str();
        if (!s.empty()) status["selector"] = s;
      } catch (const meta::SelectorError&) {
      }
    }
  } else if (!sc.label_selector_path.empty()) {
    if (const auto* sel = dotted_find(obj, sc.label_selector_path); sel && sel->is_string()) status["selector"] = *sel;
  }
  return json::Object{{"kind", "Scale"}, {"apiVersion", "autoscaling/v1"}, {"metadata", md}, {"spec", spec}, {"status", status}};
}

void apply_scale(const registry::ResourceInfo& r, std::string_view version, json::Value& obj, const json::Value& scale) {
  const auto& sc = scale_of(r, version);
  const auto* replicas = json::find(scale, {"spec", "replicas"});
  // The Scale itself is validated first (autoscaling's ValidateScale), under its own kind.
  if (replicas && replicas->is_int64() && replicas->get_int64() < 0) {
    throw invalid_kind("Scale", "autoscaling", json::get_string(obj, {"metadata", "name"}),
                       {validation::field_invalid(FieldPath("spec").child("replicas"), *replicas, "must be greater than or equal to 0")});
  }
  if (!replicas || !replicas->is_number()) return;
  dotted_set(obj, sc.spec_replicas_path, *replicas);
}

}  // namespace capstan::apiserver::rest
