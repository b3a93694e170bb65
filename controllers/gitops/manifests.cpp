#include "controllers/gitops/manifests.h"

#include "apis/gitops/v1/repo_path.h"
#include "controllers/gitops/kustomize_transforms.h"
#include "runtime/json/yaml.h"

#include <algorithm>
#include <set>

namespace capstan::gitops {
namespace {

constexpr std::string_view kKustomizationFiles[] = {"kustomization.yaml", "kustomization.yml", "Kustomization"};

// Fields of kustomization.yaml we implement; anything else is refused.
const std::set<std::string, std::less<>> kSupportedFields = {"apiVersion", "kind", "metadata", "resources", "namespace",
                                                             "namePrefix", "nameSuffix", "labels", "commonLabels", "patches", "images",
                                                             "commonAnnotations"};

std::string join(std::string_view dir, std::string_view name) {
  if (dir.empty()) return std::string(name);
  return std::string(dir) + "/" + std::string(name);
}

bool is_manifest_file(std::string_view path) {
  return path.ends_with(".yaml") || path.ends_with(".yml") || path.ends_with(".json");
}

bool is_object(const json::Value& v) {
  return v.is_object() && !json::get_string(v, {"apiVersion"}).empty() && !json::get_string(v, {"kind"}).empty();
}

json::Object& object_at(json::Value& v, std::initializer_list<std::string_view> path) {
  json::Value* cur = &v;
  for (auto key : path) {
    auto& o = cur->as_object();
    auto* next = o.if_contains(key);
    if (!next || !next->is_object()) next = &(o[key] = json::Object());
    cur = next;
  }
  return cur->as_object();
}

void add_all(json::Value& obj, std::initializer_list<std::string_view> path, const std::map<std::string, std::string>& kv) {
  if (kv.empty()) return;
  auto& m = object_at(obj, path);
  for (const auto& [k, v] : kv) m[k] = v;
}

std::map<std::string, std::string> string_map(const json::Value& v, std::string_view file, std::string_view field) {
  std::map<std::string, std::string> out;
  if (v.is_null()) return out;
  if (!v.is_object()) throw BuildError(std::string(file) + ": " + std::string(field) + " must be a map of strings");
  for (const auto& kv : v.get_object()) {
    if (!kv.value().is_string()) throw BuildError(std::string(file) + ": " + std::string(field) + "." + std::string(kv.key()) + " must be a string");
    out[std::string(kv.key())] = std::string(kv.value().get_string());
  }
  return out;
}

bool keeps_name(std::string_view kind) { return kind == "CustomResourceDefinition" || kind == "Namespace"; }

void rename(json::Value& obj, std::string_view prefix, std::string_view suffix) {
  if (prefix.empty() && suffix.empty()) return;
  if (keeps_name(json::get_string(obj, {"kind"}))) return;
  auto& meta = object_at(obj, {"metadata"});
  std::string name(json::get_string(obj, {"metadata", "name"}));
  meta["name"] = std::string(prefix) + name + std::string(suffix);
}

// commonLabels / labels with includeSelectors: also the selectors and pod templates of the
// workload kinds and Services, so they keep selecting what they own.
void add_selector_labels(json::Value& obj, const std::map<std::string, std::string>& labels) {
  std::string_view kind = json::get_string(obj, {"kind"});
  if (kind == "Service") {
    add_all(obj, {"spec", "selector"}, labels);
    return;
  }
  if (json::find(obj, {"spec", "template"})) {
    add_all(obj, {"spec", "template", "metadata", "labels"}, labels);
    if (kind != "Job") add_all(obj, {"spec", "selector", "matchLabels"}, labels);
  }
  if (kind == "CronJob") add_all(obj, {"spec", "jobTemplate", "spec", "template", "metadata", "labels"}, labels);
}

class Builder {
 public:
  explicit Builder(const std::map<std::string, std::string>& files) : files_(files) {}

  std::vector<json::Value> directory(const std::string& dir, int depth) {
    if (depth > 32) throw BuildError(dir + ": resources nest more than 32 levels (a cycle?)");
    for (auto name : kKustomizationFiles) {
      std::string file = join(dir, name);
      if (auto it = files_.find(file); it != files_.end()) return kustomization(dir, file, it->second, depth);
    }
    // Plain YAML, recursively; a subdirectory with its own kustomization.yaml is built as one.
    std::vector<json::Value> out;
    std::set<std::string> built;
    std::string prefix = dir.empty() ? "" : dir + "/";
    bool any = false;
    for (auto it = files_.lower_bound(prefix); it != files_.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
      any = true;
      if (auto sub = kustomization_dir_above(it->first, prefix); !sub.empty()) {
        if (built.insert(sub).second)
          for (auto& o : directory(sub, depth + 1)) out.push_back(std::move(o));
        continue;
      }
      if (!is_manifest_file(it->first)) continue;
      for (auto& doc : documents(it->first, it->second))
        if (is_object(doc)) out.push_back(std::move(doc));
    }
    if (!any) throw BuildError("path " + (dir.empty() ? std::string(".") : dir) + " not found in the source (or empty)");
    return out;
  }

 private:
  std::vector<json::Value> documents(const std::string& file, const std::string& text) {
    try {
      return json::from_yaml_documents(text, file);
    } catch (const std::exception& e) {
      throw BuildError(std::string(e.what()));
    }
  }

  bool has_kustomization(const std::string& dir) const {
    for (auto name : kKustomizationFiles)
      if (files_.contains(join(dir, name))) return true;
    return false;
  }

  // The directory closest to `prefix` between it and `file` that holds a kustomization file, or
  // "" when none does.
  std::string kustomization_dir_above(const std::string& file, const std::string& prefix) const {
    for (std::size_t slash = file.find('/', prefix.size()); slash != std::string::npos; slash = file.find('/', slash + 1)) {
      std::string d = file.substr(0, slash);
      if (has_kustomization(d)) return d;
    }
    return "";
  }

  bool is_directory(const std::string& path) const {
    std::string prefix = path.empty() ? "" : path + "/";
    auto it = files_.lower_bound(prefix);
    return it != files_.end() && it->first.compare(0, prefix.size(), prefix) == 0;
  }

  std::vector<json::Value> kustomization(const std::string& dir, const std::string& file, const std::string& text, int depth) {
    json::Value k;
    try {
      k = json::from_yaml(text, file);
    } catch (const std::exception& e) {
      throw BuildError(e.what());
    }
    if (!k.is_object()) throw BuildError(file + ": not a kustomization (expected a map)");
    for (const auto& kv : k.get_object())
      if (!kSupportedFields.contains(kv.key()))
        throw BuildError(file + ": '" + std::string(kv.key()) + "' is not supported (Capstan implements resources, namespace, "
                         "namePrefix, nameSuffix, labels, commonLabels, commonAnnotations, patches (JSON 6902), images)");

    std::vector<json::Value> out;
    if (const auto* resources = json::get_array(k, {"resources"})) {
      for (const auto& r : *resources) {
        if (!r.is_string()) throw BuildError(file + ": resources must be a list of paths");
        std::string_view entry = r.get_string();
        if (entry.find("://") != std::string_view::npos || entry.starts_with("github.com/"))
          throw BuildError(file + ": remote resource " + std::string(entry) + " is not supported");
        std::string target;
        try {
          target = clean_path(join(dir, entry));
        } catch (const BuildError&) {
          throw BuildError(file + ": resource " + std::string(entry) + " is outside the repository");
        }
        if (auto it = files_.find(target); it != files_.end()) {
          for (auto& doc : documents(target, it->second)) {
            if (doc.is_null()) continue;
            if (!is_object(doc)) throw BuildError(target + ": a document without apiVersion and kind");
            out.push_back(std::move(doc));
          }
        } else if (is_directory(target)) {
          auto sub = directory(target, depth + 1);
          for (auto& o : sub) out.push_back(std::move(o));
        } else {
          throw BuildError(file + ": resource " + std::string(entry) + " not found");
        }
      }
    }

    // Patches select objects by their names before the namespace and prefixes change them, as
    // kustomize orders its transformers; images come last.
    if (const auto* patches = json::find(k, {"patches"})) {
      apply_patches(out, *patches, file, [&](const std::string& path) {
        std::string target;
        try {
          target = clean_path(join(dir, path));
        } catch (const BuildError&) {
          throw BuildError(file + ": patch " + path + " is outside the repository");
        }
        auto it = files_.find(target);
        if (it == files_.end()) throw BuildError(file + ": patch " + path + " not found");
        return it->second;
      });
    }
    std::string_view ns = json::get_string(k, {"namespace"});
    std::string_view prefix = json::get_string(k, {"namePrefix"});
    std::string_view suffix = json::get_string(k, {"nameSuffix"});
    auto common_labels = string_map(json::find(k, {"commonLabels"}) ? *json::find(k, {"commonLabels"}) : json::Value(), file, "commonLabels");
    auto annotations =
        string_map(json::find(k, {"commonAnnotations"}) ? *json::find(k, {"commonAnnotations"}) : json::Value(), file, "commonAnnotations");
    std::map<std::string, std::string> meta_labels, selector_labels = common_labels;
    for (const auto& [key, value] : common_labels) meta_labels[key] = value;
    if (const auto* labels = json::get_array(k, {"labels"})) {
      for (const auto& l : *labels) {
        const json::Value* pairs = json::find(l, {"pairs"});
        auto m = string_map(pairs ? *pairs : json::Value(), file, "labels[].pairs");
        bool selectors = json::get_bool(l, {"includeSelectors"});
        for (const auto& [key, value] : m) {
          meta_labels[key] = value;
          if (selectors) selector_labels[key] = value;
        }
      }
    }
    for (auto& o : out) {
      if (!ns.empty() && json::get_string(o, {"kind"}) != "Namespace") object_at(o, {"metadata"})["namespace"] = ns;
      rename(o, prefix, suffix);
      add_all(o, {"metadata", "labels"}, meta_labels);
      add_all(o, {"metadata", "annotations"}, annotations);
      add_selector_labels(o, selector_labels);
    }
    if (const auto* images = json::find(k, {"images"})) apply_images(out, *images, file);
    return out;
  }

  const std::map<std::string, std::string>& files_;
};

std::string identity(const json::Value& o) {
  std::string api_version(json::get_string(o, {"apiVersion"}));
  std::string group = api_version.find('/') == std::string::npos ? "" : api_version.substr(0, api_version.find('/'));
  return std::string(json::get_string(o, {"kind"})) + "." + group + " " + std::string(json::get_string(o, {"metadata", "namespace"})) +
         "/" + std::string(json::get_string(o, {"metadata", "name"}));
}

}  // namespace

std::string clean_path(std::string_view path) {
  auto clean = apis::gitops::v1::clean_repo_path(path);
  if (!clean) throw BuildError("path " + std::string(path) + " leaves the repository");
  return *clean;
}

std::vector<json::Value> build_manifests(const std::map<std::string, std::string>& files, const BuildOptions& options) {
  auto objects = Builder(files).directory(clean_path(options.path), 0);
  const std::string spec = "the Kustomization's spec";
  if (!options.patches.is_null())
    apply_patches(objects, options.patches, spec, [&](const std::string&) -> std::string {
      throw BuildError(spec + ": patches are inline (patch), not files");
    });
  if (!options.images.is_null()) apply_images(objects, options.images, spec);
  std::set<std::string> seen;
  for (auto& o : objects) {
    if (json::get_string(o, {"metadata", "name"}).empty()) throw BuildError(identity(o) + ": metadata.name is missing");
    rename(o, options.name_prefix, options.name_suffix);
    add_all(o, {"metadata", "labels"}, options.labels);
    add_all(o, {"metadata", "annotations"}, options.annotations);
    if (!seen.insert(identity(o)).second) throw BuildError("two objects are " + identity(o));
  }
  return objects;
}

}  // namespace capstan::gitops
