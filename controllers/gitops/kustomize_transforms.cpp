#include "controllers/gitops/kustomize_transforms.h"

#include "controllers/gitops/kustomize_names.h"
#include "controllers/gitops/manifests.h"
#include "controllers/gitops/strategic_merge.h"
#include "runtime/json/patch.h"
#include "runtime/json/yaml.h"
#include "runtime/meta/selector.h"

#include <re2/re2.h>

#include <limits>
#include <memory>

namespace capstan::gitops {
namespace {

constexpr std::size_t kMaxEntries = 1000;

std::string entry_name(const std::string& file, std::string_view field, std::size_t i) {
  return file + ": " + std::string(field) + "[" + std::to_string(i) + "]";
}

// A target field: a regular expression the whole value must match ("" matches anything).
class Pattern {
 public:
  Pattern(std::string_view expr, const std::string& where) {
    if (expr.empty()) return;
    re_ = std::make_unique<RE2>(std::string(expr), RE2::Quiet);
    if (!re_->ok()) throw BuildError(where + ": invalid regular expression \"" + std::string(expr) + "\": " + re_->error());
  }
  bool matches(std::string_view value) const { return !re_ || RE2::FullMatch(value, *re_); }

 private:
  std::unique_ptr<RE2> re_;
};

meta::LabelSelector selector(std::string_view text, const std::string& where) {
  try {
    return meta::LabelSelector::parse(text);
  } catch (const std::exception& e) {
    throw BuildError(where + ": " + e.what());
  }
}

meta::Labels string_map_at(const json::Value& o, std::initializer_list<std::string_view> path) {
  meta::Labels out;
  if (const auto* m = json::get_object(o, path))
    for (const auto& kv : *m)
      if (kv.value().is_string()) out[std::string(kv.key())] = std::string(kv.value().get_string());
  return out;
}

struct Target {
  Pattern group, version, kind, name, ns;
  std::optional<meta::LabelSelector> labels, annotations;

  Target(const json::Value* t, const std::string& where)
      : group(t ? json::get_string(*t, {"group"}) : "", where + ".target.group"),
        version(t ? json::get_string(*t, {"version"}) : "", where + ".target.version"),
        kind(t ? json::get_string(*t, {"kind"}) : "", where + ".target.kind"),
        name(t ? json::get_string(*t, {"name"}) : "", where + ".target.name"),
        ns(t ? json::get_string(*t, {"namespace"}) : "", where + ".target.namespace") {
    if (!t) return;
    if (auto s = json::get_string(*t, {"labelSelector"}); !s.empty()) labels = selector(s, where + ".target.labelSelector");
    if (auto s = json::get_string(*t, {"annotationSelector"}); !s.empty()) annotations = selector(s, where + ".target.annotationSelector");
  }

  bool matches(const json::Value& o) const {
    std::string_view api_version = json::get_string(o, {"apiVersion"});
    auto slash = api_version.find('/');
    std::string_view g = slash == std::string_view::npos ? std::string_view() : api_version.substr(0, slash);
    std::string_view v = slash == std::string_view::npos ? api_version : api_version.substr(slash + 1);
    // kustomize selects by the original name and namespace, or the current ones.
    const auto [first_ns, first_name] = kustomize::original_id(o);
    return group.matches(g) && version.matches(v) && kind.matches(json::get_string(o, {"kind"})) &&
           (name.matches(first_name) || name.matches(json::get_string(o, {"metadata", "name"}))) &&
           (ns.matches(first_ns) || ns.matches(json::get_string(o, {"metadata", "namespace"}))) &&
           (!labels || labels->matches(string_map_at(o, {"metadata", "labels"}))) &&
           (!annotations || annotations->matches(string_map_at(o, {"metadata", "annotations"})));
  }
};

// image reference -> (name, the tag or digest part with its ':' or '@').
std::pair<std::string, std::string> split_image(std::string_view image) {
  auto at = image.find('@');
  if (at != std::string_view::npos) {
    auto name = image.substr(0, at);
    auto colon = name.rfind(':');
    if (colon != std::string_view::npos && name.find('/', colon) == std::string_view::npos) name = name.substr(0, colon);
    return {std::string(name), std::string(image.substr(at))};
  }
  auto colon = image.rfind(':');
  if (colon != std::string_view::npos && image.find('/', colon) == std::string_view::npos)
    return {std::string(image.substr(0, colon)), std::string(image.substr(colon))};
  return {std::string(image), ""};
}

struct ImageRule {
  std::string name, new_name, new_tag, digest;
};

void rewrite_images(json::Value& v, const std::vector<ImageRule>& rules) {
  if (v.is_array()) {
    for (auto& e : v.as_array()) rewrite_images(e, rules);
    return;
  }
  if (!v.is_object()) return;
  for (auto& kv : v.as_object()) {
    const std::string_view key = kv.key();
    if ((key == "containers" || key == "initContainers" || key == "ephemeralContainers") && kv.value().is_array()) {
      for (auto& c : kv.value().as_array()) {
        json::Value* image = c.is_object() ? c.as_object().if_contains("image") : nullptr;
        if (!image || !image->is_string()) continue;
        auto [name, rest] = split_image(image->get_string());
        for (const auto& r : rules) {
          if (r.name != name) continue;
          std::string out = r.new_name.empty() ? name : r.new_name;
          if (!r.digest.empty()) out += "@" + r.digest;
          else if (!r.new_tag.empty()) out += ":" + r.new_tag;
          else out += rest;
          *image = out;
          break;
        }
      }
    }
    rewrite_images(kv.value(), rules);
  }
}

}  // namespace

namespace {

std::vector<json::Value> patch_documents(const std::string& text, const std::string& where) {
  std::vector<json::Value> docs;
  try {
    for (auto& d : json::from_yaml_documents(text, where))
      if (!d.is_null()) docs.push_back(std::move(d));
  } catch (const std::exception& e) {
    throw BuildError(where + ": " + e.what());
  }
  if (docs.empty()) throw BuildError(where + ": the patch is empty");
  return docs;
}

std::string describe(const json::Value& o) {
  return std::string(json::get_string(o, {"kind"})) + " " + std::string(json::get_string(o, {"metadata", "name"}));
}

// One strategic-merge patch: on every object `target` selects, or, without a target, on the one
// object the patch names (kind, name and namespace as they are or were).
void apply_strategic(std::vector<json::Value>& objects, const json::Value& patch, const Target* target, const std::string& where) {
  if (!patch.is_object()) throw BuildError(where + ": neither a JSON 6902 patch (a list of operations) nor a strategic-merge patch (a map)");
  std::vector<std::size_t> chosen;
  if (target) {
    for (std::size_t i = 0; i < objects.size(); ++i)
      if (target->matches(objects[i])) chosen.push_back(i);
  } else {
    std::string_view kind = json::get_string(patch, {"kind"}), name = json::get_string(patch, {"metadata", "name"});
    std::string_view api_version = json::get_string(patch, {"apiVersion"});
    if (kind.empty() || name.empty() || api_version.empty())
      throw BuildError(where + ": a strategic-merge patch without a target names its object (apiVersion, kind and metadata.name)");
    const auto* ns = json::find(patch, {"metadata", "namespace"});
    for (std::size_t i = 0; i < objects.size(); ++i) {
      const auto& o = objects[i];
      if (json::get_string(o, {"kind"}) != kind || json::get_string(o, {"apiVersion"}) != api_version) continue;
      if (ns && ns->is_string() ? kustomize::had_id(o, ns->get_string(), name) : kustomize::had_name(o, name)) chosen.push_back(i);
    }
    if (chosen.empty()) throw BuildError(where + ": no object of the build is the patch's " + std::string(kind) + " " + std::string(name));
    if (chosen.size() > 1) throw BuildError(where + ": the patch's " + std::string(kind) + " " + std::string(name) + " is " +
                                            std::to_string(chosen.size()) + " objects of the build (set metadata.namespace)");
  }
  // Backwards, so that deleting one keeps the other indexes.
  for (auto it = chosen.rbegin(); it != chosen.rend(); ++it) {
    auto merged = strategic_merge(objects[*it], patch, where + " on " + describe(objects[*it]));
    if (merged) objects[*it] = std::move(*merged);
    else objects.erase(objects.begin() + static_cast<std::ptrdiff_t>(*it));
  }
}

}  // namespace

void apply_patches(std::vector<json::Value>& objects, const json::Value& patches, const std::string& file,
                   const std::function<std::string(const std::string&)>& read) {
  if (!patches.is_array()) throw BuildError(file + ": patches must be a list");
  if (patches.get_array().size() > kMaxEntries) throw BuildError(file + ": more than 1000 patches");
  for (std::size_t i = 0; i < patches.get_array().size(); ++i) {
    const json::Value& entry = patches.get_array()[i];
    const std::string where = entry_name(file, "patches", i);
    std::string_view inline_patch = json::get_string(entry, {"patch"});
    std::string_view path = json::get_string(entry, {"path"});
    if (inline_patch.empty() == path.empty()) throw BuildError(where + ": set exactly one of patch and path");
    auto docs = patch_documents(path.empty() ? std::string(inline_patch) : read(std::string(path)), where);
    const json::Value* target_spec = json::find(entry, {"target"});
    Target target(target_spec, where);
    if (docs.size() > 1 || !docs.front().is_array()) {
      for (const auto& doc : docs) apply_strategic(objects, doc, target_spec ? &target : nullptr, where);
      continue;
    }
    if (!target_spec) throw BuildError(where + ": a JSON 6902 patch needs a target");
    // A patch that selects nothing is no error (as kustomize).
    for (auto& o : objects) {
      if (!target.matches(o)) continue;
      try {
        o = json::apply_json_patch(o, docs.front());
      } catch (const std::exception& e) {
        throw BuildError(where + ": patching " + describe(o) + ": " + e.what());
      }
    }
  }
}

void apply_strategic_merge_patches(std::vector<json::Value>& objects, const json::Value& patches, const std::string& file,
                                   const std::function<std::string(const std::string&)>& read) {
  if (!patches.is_array()) throw BuildError(file + ": patchesStrategicMerge must be a list");
  if (patches.get_array().size() > kMaxEntries) throw BuildError(file + ": more than 1000 patchesStrategicMerge");
  for (std::size_t i = 0; i < patches.get_array().size(); ++i) {
    const json::Value& entry = patches.get_array()[i];
    const std::string where = entry_name(file, "patchesStrategicMerge", i);
    if (!entry.is_string()) throw BuildError(where + ": a file name or an inline patch");
    std::string_view text = entry.get_string();
    // kustomize reads a file when the entry names one, else the entry is the patch itself.
    const bool inline_patch = text.find('\n') != std::string_view::npos || text.find(':') != std::string_view::npos;
    for (const auto& doc : patch_documents(inline_patch ? std::string(text) : read(std::string(text)), where))
      apply_strategic(objects, doc, nullptr, where);
  }
}

void apply_replicas(std::vector<json::Value>& objects, const json::Value& replicas, const std::string& file) {
  if (!replicas.is_array()) throw BuildError(file + ": replicas must be a list");
  if (replicas.get_array().size() > kMaxEntries) throw BuildError(file + ": more than 1000 replicas");
  for (std::size_t i = 0; i < replicas.get_array().size(); ++i) {
    const json::Value& e = replicas.get_array()[i];
    const std::string where = entry_name(file, "replicas", i);
    std::string_view name = json::get_string(e, {"name"});
    if (name.empty()) throw BuildError(where + ": name is required");
    const auto* count = json::find(e, {"count"});
    if (!count || !count->is_int64() || count->get_int64() < 0 || count->get_int64() > std::numeric_limits<std::int32_t>::max())
      throw BuildError(where + ": count must be an integer from 0 to 2147483647");
    for (auto& o : objects) {
      std::string_view kind = json::get_string(o, {"kind"});
      if (kind != "Deployment" && kind != "ReplicaSet" && kind != "ReplicationController" && kind != "StatefulSet") continue;
      if (!kustomize::had_name(o, name)) continue;
      auto& spec = o.as_object()["spec"];
      if (!spec.is_object()) spec = json::Object();
      spec.as_object()["replicas"] = count->get_int64();
    }
  }
}

void apply_images(std::vector<json::Value>& objects, const json::Value& images, const std::string& file) {
  if (!images.is_array()) throw BuildError(file + ": images must be a list");
  if (images.get_array().size() > kMaxEntries) throw BuildError(file + ": more than 1000 images");
  std::vector<ImageRule> rules;
  for (std::size_t i = 0; i < images.get_array().size(); ++i) {
    const json::Value& e = images.get_array()[i];
    ImageRule r{std::string(json::get_string(e, {"name"})), std::string(json::get_string(e, {"newName"})),
                std::string(json::get_string(e, {"newTag"})), std::string(json::get_string(e, {"digest"}))};
    if (const auto* tag = json::find(e, {"newTag"}); tag && tag->is_number()) r.new_tag = json::serialize(*tag);  // newTag: 1.21
    if (r.name.empty()) throw BuildError(entry_name(file, "images", i) + ": name is required");
    rules.push_back(std::move(r));
  }
  for (auto& o : objects) rewrite_images(o, rules);
}

}  // namespace capstan::gitops
