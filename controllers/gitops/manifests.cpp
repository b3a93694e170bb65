#include "controllers/gitops/manifests.h"

#include "apis/gitops/v1/repo_path.h"
#include "controllers/gitops/decryption.h"
#include "controllers/gitops/source_tree.h"
#include "controllers/gitops/kustomize_generators.h"
#include "controllers/gitops/kustomize_metadata.h"
#include "controllers/gitops/kustomize_names.h"
#include "controllers/gitops/kustomize_transforms.h"
#include "controllers/gitops/substitute.h"
#include "runtime/json/yaml.h"

#include <algorithm>
#include <set>

namespace capstan::gitops {
namespace {

constexpr std::string_view kKustomizationFiles[] = {"kustomization.yaml", "kustomization.yml", "Kustomization"};

// Fields of kustomization.yaml we implement; anything else is refused.
const std::set<std::string, std::less<>> kSupportedFields = {
    "apiVersion",        "kind",            "metadata",           "resources",        "bases",  "components",
    "namespace",         "namePrefix",      "nameSuffix",         "labels",           "commonLabels", "commonAnnotations",
    "configMapGenerator", "secretGenerator", "generatorOptions",  "patches",          "patchesJson6902", "patchesStrategicMerge", "replicas",
    "images",            "crds"};

std::string supported_fields() {
  std::string out;
  for (const auto& f : kSupportedFields)
    if (f != "apiVersion" && f != "kind" && f != "metadata") out += (out.empty() ? "" : ", ") + f;
  return out;
}

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
  kustomize::remember_affixes(obj, prefix, suffix);
  auto& meta = object_at(obj, {"metadata"});
  std::string name(json::get_string(obj, {"metadata", "name"}));
  meta["name"] = std::string(prefix) + name + std::string(suffix);
}

class Builder {
 public:
  // `mark_quoted`: quoted scalars holding "${" are marked for the substitution (substitute.h).
  Builder(SourceTree& tree, bool mark_quoted, const sops::Keys* keys) : tree_(tree), mark_quoted_(mark_quoted), keys_(keys) {}

  const std::vector<kustomize::CrdReference>& crd_references() const { return crd_references_; }

  std::vector<json::Value> directory(const std::string& dir, int depth) {
    if (depth > 32) throw BuildError(dir + ": resources nest more than 32 levels (a cycle?)");
    for (auto name : kKustomizationFiles) {
      std::string file = join(dir, name);
      if (tree_.has(file)) return kustomization(dir, file, tree_.read(file), depth);
    }
    // Plain YAML, recursively; a subdirectory with its own kustomization.yaml is built as one.
    std::vector<json::Value> out;
    std::set<std::string> built;
    std::string prefix = dir.empty() ? "" : dir + "/";
    bool any = false;
    auto [first, last] = tree_.under(prefix);
    for (auto it = first; it != last; ++it) {
      const std::string& path = *it;
      any = true;
      if (auto sub = kustomization_dir_above(path, prefix); !sub.empty()) {
        if (built.insert(sub).second)
          for (auto& o : directory(sub, depth + 1)) out.push_back(std::move(o));
        continue;
      }
      if (!is_manifest_file(path)) continue;
      for (auto& doc : documents(path, tree_.read(path)))
        if (is_object(doc)) out.push_back(std::move(doc));
    }
    if (!any) throw BuildError("path " + (dir.empty() ? std::string(".") : dir) + " not found in the source (or empty)");
    return out;
  }

 private:
  std::vector<json::Value> documents(const std::string& file, const std::string& text) {
    try {
      return mark_quoted_ ? json::from_yaml_documents(text, file, mark_quoted) : json::from_yaml_documents(text, file);
    } catch (const std::exception& e) {
      throw BuildError(std::string(e.what()));
    }
  }

  bool has_kustomization(const std::string& dir) const {
    for (auto name : kKustomizationFiles)
      if (tree_.has(join(dir, name))) return true;
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
    auto [first, last] = tree_.under(prefix);
    return first != last;
  }

  json::Value parse_kustomization(const std::string& file, const std::string& text) {
    json::Value k;
    try {
      k = json::from_yaml(text, file);
    } catch (const std::exception& e) {
      throw BuildError(e.what());
    }
    if (!k.is_object()) throw BuildError(file + ": not a kustomization (expected a map)");
    for (const auto& kv : k.get_object())
      if (!kSupportedFields.contains(kv.key()))
        throw BuildError(file + ": '" + std::string(kv.key()) + "' is not supported (Capstan implements " + supported_fields() + ")");
    return k;
  }

  std::vector<json::Value> kustomization(const std::string& dir, const std::string& file, const std::string& text, int depth) {
    json::Value k = parse_kustomization(file, text);
    if (json::get_string(k, {"kind"}) == "Component")
      throw BuildError(file + ": a Component is listed under components, not resources nor as the path");
    std::vector<json::Value> out;
    accumulate(dir, file, k, out, depth);
    return out;
  }

  // A file of the repository named relative to `dir` by a field of `file`.
  // `decrypt`: a secretGenerator source or a patch, which may be SOPS-encrypted (decryption.h).
  kustomize::ReadFile reader(const std::string& dir, const std::string& file, std::string_view what, bool decrypt = false) const {
    return [this, dir, file, what = std::string(what), decrypt](const std::string& path) {
      std::string target;
      try {
        target = clean_path(join(dir, path));
      } catch (const BuildError&) {
        throw BuildError(file + ": " + what + " " + path + " is outside the repository");
      }
      if (!tree_.has(target)) throw BuildError(file + ": " + what + " " + path + " not found");
      return decrypt ? decrypt_source(target, tree_.read(target), keys_) : tree_.read(target);
    };
  }

  void add_resources(const std::string& dir, const std::string& file, const json::Array& resources, std::vector<json::Value>& out, int depth) {
    for (const auto& r : resources) {
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
      if (tree_.has(target)) {
        for (auto& doc : documents(target, tree_.read(target))) {
          if (doc.is_null()) continue;
          if (!is_object(doc)) throw BuildError(target + ": a document without apiVersion and kind");
          out.push_back(std::move(doc));
        }
      } else if (is_directory(target)) {
        for (auto& o : directory(target, depth + 1)) out.push_back(std::move(o));
      } else {
        throw BuildError(file + ": resource " + std::string(entry) + " not found");
      }
    }
  }

  void add_components(const std::string& dir, const std::string& file, const json::Array& components, std::vector<json::Value>& out, int depth) {
    if (depth > 32) throw BuildError(file + ": components nest more than 32 levels (a cycle?)");
    for (const auto& c : components) {
      if (!c.is_string()) throw BuildError(file + ": components must be a list of paths");
      std::string target;
      try {
        target = clean_path(join(dir, c.get_string()));
      } catch (const BuildError&) {
        throw BuildError(file + ": component " + std::string(c.get_string()) + " is outside the repository");
      }
      std::string component_file;
      for (auto name : kKustomizationFiles)
        if (tree_.has(join(target, name))) component_file = join(target, name);
      if (component_file.empty()) throw BuildError(file + ": component " + std::string(c.get_string()) + " has no kustomization.yaml");
      json::Value k = parse_kustomization(component_file, tree_.read(component_file));
      if (json::get_string(k, {"kind"}) != "Component")
        throw BuildError(file + ": component " + std::string(c.get_string()) + " is not a Component (kind: " +
                         std::string(json::get_string(k, {"kind"}, "Kustomization")) + ")");
      accumulate(target, component_file, k, out, depth + 1);
    }
  }

  // kustomize's order: resources, generators, components, then the transformers over all of
  // them (patches, namespace, prefix and suffix, labels, annotations, replicas, images).
  void accumulate(const std::string& dir, const std::string& file, const json::Value& k, std::vector<json::Value>& out, int depth) {
    if (const auto* crds = json::find(k, {"crds"}); crds && !crds->is_null()) {
      if (!crds->is_array()) throw BuildError(file + ": crds must be a list of paths");
      auto read = reader(dir, file, "crds file");
      for (const auto& c : crds->get_array()) {
        if (!c.is_string()) throw BuildError(file + ": crds must be a list of paths");
        kustomize::load_crd_references(clean_path(join(dir, c.get_string())), read(std::string(c.get_string())), crd_references_);
      }
    }
    for (std::string_view field : {"resources", "bases"}) {
      const auto* list = json::find(k, {field});
      if (!list || list->is_null()) continue;
      if (!list->is_array()) throw BuildError(file + ": " + std::string(field) + " must be a list of paths");
      add_resources(dir, file, list->get_array(), out, depth);
    }
    kustomize::run_generators(out, k, file, reader(dir, file, "generator source"), reader(dir, file, "generator source", true));
    if (const auto* components = json::find(k, {"components"}); components && !components->is_null()) {
      if (!components->is_array()) throw BuildError(file + ": components must be a list of paths");
      add_components(dir, file, components->get_array(), out, depth);
    }

    // kustomize's order of transformers: strategic-merge patches and patches, namespace, prefix
    // and suffix, labels, annotations, JSON 6902 patches (the older field), replicas, images.
    kustomize::remember_ids(out);
    if (const auto* patches = json::find(k, {"patchesStrategicMerge"})) apply_strategic_merge_patches(out, *patches, file, reader(dir, file, "patch", true));
    if (const auto* patches = json::find(k, {"patches"})) apply_patches(out, *patches, file, reader(dir, file, "patch", true));
    kustomize::remember_ids(out);
    for (std::string_view field : {"namespace", "namePrefix", "nameSuffix"})
      if (const auto* v = json::find(k, {field}); v && !v->is_null() && !v->is_string())
        throw BuildError(file + ": " + std::string(field) + " must be a string (quote it: \"" + json::serialize(*v) + "\")");
    std::string_view ns = json::get_string(k, {"namespace"});
    std::string_view prefix = json::get_string(k, {"namePrefix"});
    std::string_view suffix = json::get_string(k, {"nameSuffix"});
    auto common_labels = string_map(json::find(k, {"commonLabels"}) ? *json::find(k, {"commonLabels"}) : json::Value(), file, "commonLabels");
    auto annotations =
        string_map(json::find(k, {"commonAnnotations"}) ? *json::find(k, {"commonAnnotations"}) : json::Value(), file, "commonAnnotations");
    std::vector<std::pair<std::map<std::string, std::string>, kustomize::LabelReach>> labels{{common_labels, kustomize::LabelReach::kSelectors}};
    if (const auto* list = json::find(k, {"labels"}); list && !list->is_null()) {
      if (!list->is_array()) throw BuildError(file + ": labels must be a list");
      for (std::size_t i = 0; i < list->get_array().size(); ++i) {
        const auto& l = list->get_array()[i];
        const std::string where = "labels[" + std::to_string(i) + "]";
        if (!l.is_object()) throw BuildError(file + ": " + where + " must be a map");
        for (const auto& kv : l.get_object())
          if (kv.key() != "pairs" && kv.key() != "includeSelectors" && kv.key() != "includeTemplates")
            throw BuildError(file + ": " + where + "." + std::string(kv.key()) + " is not supported (pairs, includeSelectors, includeTemplates)");
        const json::Value* pairs = json::find(l, {"pairs"});
        labels.emplace_back(string_map(pairs ? *pairs : json::Value(), file, where + ".pairs"),
                            json::get_bool(l, {"includeSelectors"})   ? kustomize::LabelReach::kSelectors
                            : json::get_bool(l, {"includeTemplates"}) ? kustomize::LabelReach::kTemplates
                                                                      : kustomize::LabelReach::kMetadata);
      }
    }
    for (auto& o : out) {
      std::string_view kind = json::get_string(o, {"kind"});
      if (!ns.empty() && kind == "Namespace") object_at(o, {"metadata"})["name"] = ns;  // kustomize renames Namespaces too
      else if (!ns.empty() && !kustomize::cluster_scoped(kind)) object_at(o, {"metadata"})["namespace"] = ns;
      rename(o, prefix, suffix);
      for (const auto& [pairs, reach] : labels) kustomize::add_labels(o, pairs, reach);
      kustomize::add_annotations(o, annotations);
    }
    if (const auto* patches = json::find(k, {"patchesJson6902"})) apply_patches(out, *patches, file, reader(dir, file, "patch", true));
    if (const auto* replicas = json::find(k, {"replicas"})) apply_replicas(out, *replicas, file);
    if (const auto* images = json::find(k, {"images"})) apply_images(out, *images, file);
  }

  SourceTree& tree_;
  std::vector<kustomize::CrdReference> crd_references_;  // of every kustomization of the build (kustomize merges them upwards)
  bool mark_quoted_;
  const sops::Keys* keys_;
};

std::string identity(const json::Value& o) {
  std::string api_version(json::get_string(o, {"apiVersion"}));
  std::string group = api_version.find('/') == std::string::npos ? "" : api_version.substr(0, api_version.find('/'));
  return std::string(json::get_string(o, {"kind"})) + "." + group + " " + std::string(json::get_string(o, {"metadata", "namespace"})) +
         "/" + std::string(json::get_string(o, {"metadata", "name"}));
}

// "Secret/db", "Deployment.apps/shop/web": an object as messages name it.
std::string display_name(const json::Value& o) {
  std::string_view api_version = json::get_string(o, {"apiVersion"});
  std::string_view ns = json::get_string(o, {"metadata", "namespace"});
  std::string out(json::get_string(o, {"kind"}));
  if (auto slash = api_version.find('/'); slash != std::string_view::npos) out += "." + std::string(api_version.substr(0, slash));
  out += "/";
  if (!ns.empty()) out += std::string(ns) + "/";
  return out + std::string(json::get_string(o, {"metadata", "name"}));
}

}  // namespace

std::string clean_path(std::string_view path) {
  auto clean = apis::gitops::v1::clean_repo_path(path);
  if (!clean) throw BuildError("path " + std::string(path) + " leaves the repository");
  return *clean;
}

std::vector<json::Value> build_manifests(const std::map<std::string, std::string>& files, const BuildOptions& options) {
  MapTree tree(files);
  return build_manifests(tree, options);
}

std::vector<json::Value> build_manifests(SourceTree& tree, const BuildOptions& options) {
  Builder builder(tree, options.variables.has_value(), options.decryption);
  auto objects = builder.directory(clean_path(options.path), 0);
  const std::string spec = "the Kustomization's spec";
  kustomize::remember_ids(objects);
  if (!options.patches.is_null())
    apply_patches(objects, options.patches, spec, [&](const std::string&) -> std::string {
      throw BuildError(spec + ": patches are inline (patch), not files");
    });
  if (!options.images.is_null()) apply_images(objects, options.images, spec);
  kustomize::remember_ids(objects);
  for (auto& o : objects) {
    if (json::get_string(o, {"metadata", "name"}).empty()) throw BuildError(identity(o) + ": metadata.name is missing");
    rename(o, options.name_prefix, options.name_suffix);
  }
  // As kustomize ends a build: the generated objects' hash suffixes, then the references to
  // every renamed object.
  kustomize::remember_ids(objects);
  kustomize::add_name_hashes(objects);
  kustomize::fix_name_references(objects, builder.crd_references());
  std::set<std::string> seen;
  for (auto& o : objects) {
    kustomize::drop_internal_annotations(o);
    add_all(o, {"metadata", "labels"}, options.labels);
    add_all(o, {"metadata", "annotations"}, options.annotations);
    if (!seen.insert(identity(o)).second) throw BuildError("two objects are " + identity(o));
  }
  // As Flux: decrypted after the build, then substituted.
  for (auto& o : objects) decrypt_object(o, options.decryption, display_name(o));
  if (options.variables)
    for (auto& o : objects) substitute_variables(o, *options.variables, "postBuild");
  return objects;
}

}  // namespace capstan::gitops
