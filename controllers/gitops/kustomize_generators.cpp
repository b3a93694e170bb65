#include "controllers/gitops/kustomize_generators.h"

#include "controllers/gitops/kustomize_names.h"
#include "controllers/gitops/manifests.h"
#include "runtime/gofmt/gofmt.h"
#include "runtime/json/utf8.h"
#include "runtime/meta/base64.h"
#include "runtime/pki/digest.h"

#include <algorithm>
#include <map>
#include <set>

namespace capstan::gitops::kustomize {
namespace {

constexpr std::size_t kMaxEntries = 1000;
constexpr std::size_t kMaxKeys = 1000;
constexpr std::size_t kMaxBytes = 1 << 20;  // what the API server takes in one ConfigMap or Secret

struct Options {
  std::map<std::string, std::string> labels, annotations;
  bool disable_hash = false, immutable = false;
};

std::string at(const std::string& where, std::string_view field) { return where + "." + std::string(field); }

const std::set<std::string, std::less<>>& known_fields(bool secret) {
  static const std::set<std::string, std::less<>> config_map = {"name", "namespace", "behavior", "literals", "files", "envs", "env", "options"};
  static const std::set<std::string, std::less<>> secret_fields = [] {
    auto s = config_map;
    s.insert("type");
    return s;
  }();
  return secret ? secret_fields : config_map;
}

std::map<std::string, std::string> strings(const json::Value* v, const std::string& where) {
  std::map<std::string, std::string> out;
  if (!v || v->is_null()) return out;
  if (!v->is_object()) throw BuildError(where + " must be a map of strings");
  for (const auto& kv : v->get_object()) {
    if (!kv.value().is_string()) throw BuildError(at(where, kv.key()) + " must be a string");
    out[std::string(kv.key())] = std::string(kv.value().get_string());
  }
  return out;
}

bool flag(const json::Value& o, std::string_view field, const std::string& where) {
  const auto* v = json::find(o, {field});
  if (!v || v->is_null()) return false;
  if (!v->is_bool()) throw BuildError(at(where, field) + " must be true or false");
  return v->get_bool();
}

Options read_options(const json::Value* v, const std::string& where) {
  Options o;
  if (!v || v->is_null()) return o;
  if (!v->is_object()) throw BuildError(where + " must be a map");
  for (const auto& kv : v->get_object())
    if (kv.key() != "labels" && kv.key() != "annotations" && kv.key() != "disableNameSuffixHash" && kv.key() != "immutable")
      throw BuildError(at(where, kv.key()) + " is not supported (labels, annotations, disableNameSuffixHash, immutable)");
  o.labels = strings(json::find(*v, {"labels"}), at(where, "labels"));
  o.annotations = strings(json::find(*v, {"annotations"}), at(where, "annotations"));
  o.disable_hash = flag(*v, "disableNameSuffixHash", where);
  o.immutable = flag(*v, "immutable", where);
  return o;
}

// kustomize's MergeGlobalOptionsIntoLocal: the global options win.
Options merged(Options local, const Options& global) {
  for (const auto& [k, v] : global.labels) local.labels[k] = v;
  for (const auto& [k, v] : global.annotations) local.annotations[k] = v;
  local.disable_hash = local.disable_hash || global.disable_hash;
  local.immutable = local.immutable || global.immutable;
  return local;
}

bool valid_key(std::string_view key) {
  return !key.empty() && key.size() <= 253 && key != "." && key != ".." &&
         std::all_of(key.begin(), key.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'; });
}

bool valid_env_name(std::string_view key) {
  return !key.empty() && !std::isdigit(static_cast<unsigned char>(key[0])) &&
         std::all_of(key.begin(), key.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.'; });
}

std::string unquoted(std::string_view v) {
  if (v.size() >= 2 && v.front() == v.back() && (v.front() == '"' || v.front() == '\'')) return std::string(v.substr(1, v.size() - 2));
  return std::string(v);
}

const json::Array& list(const json::Value& entry, std::string_view field, const std::string& where) {
  static const json::Array kEmpty;
  const auto* v = json::find(entry, {field});
  if (!v || v->is_null()) return kEmpty;
  if (!v->is_array()) throw BuildError(at(where, field) + " must be a list of strings");
  if (v->get_array().size() > kMaxKeys) throw BuildError(at(where, field) + " has more than 1000 entries");
  for (const auto& e : v->get_array())
    if (!e.is_string()) throw BuildError(at(where, field) + " must be a list of strings");
  return v->get_array();
}

// The key/value pairs of one entry, in kustomize's order: envs, literals, files.
class Pairs {
 public:
  explicit Pairs(std::string where) : where_(std::move(where)) {}

  void add(std::string key, std::string value, const std::string& source) {
    if (!valid_key(key)) throw BuildError(where_ + ": " + source + ": \"" + key + "\" is not a valid key (letters, digits, '-', '_', '.')");
    bytes_ += key.size() + value.size();
    if (bytes_ > kMaxBytes) throw BuildError(where_ + ": the data exceeds 1 MiB");
    if (!pairs_.emplace(key, std::move(value)).second)
      throw BuildError(where_ + ": " + source + ": key \"" + key + "\" is there twice");
  }

  void env_file(const std::string& path, const std::string& text) {
    std::size_t line_no = 0, start = 0;
    while (start <= text.size()) {
      auto end = text.find('\n', start);
      std::string_view line = std::string_view(text).substr(start, end == std::string::npos ? std::string::npos : end - start);
      start = end == std::string::npos ? text.size() + 1 : end + 1;
      ++line_no;
      if (line_no == 1 && line.starts_with("\xEF\xBB\xBF")) line.remove_prefix(3);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front()))) line.remove_prefix(1);
      if (line.empty() || line.front() == '#') continue;
      const std::string source = "envs " + path + " line " + std::to_string(line_no);
      if (!json::valid_utf8(line)) throw BuildError(where_ + ": " + source + " is not UTF-8");
      auto eq = line.find('=');
      std::string key(line.substr(0, eq));
      if (!valid_env_name(key)) throw BuildError(where_ + ": " + source + ": \"" + key + "\" is not a valid variable name");
      if (eq == std::string_view::npos)
        throw BuildError(where_ + ": " + source + ": " + key + " has no '=value' (kustomize would read it from its own environment; Capstan refuses)");
      add(std::move(key), std::string(line.substr(eq + 1)), source);
    }
  }

  const std::map<std::string, std::string>& get() const { return pairs_; }

 private:
  std::string where_;
  std::map<std::string, std::string> pairs_;
  std::size_t bytes_ = 0;
};

std::string base_name(std::string_view path) {
  auto slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

Pairs read_pairs(const json::Value& entry, const std::string& where, const ReadFile& read) {
  Pairs pairs(where);
  std::vector<std::string> envs;
  for (const auto& e : list(entry, "envs", where)) envs.emplace_back(e.get_string());
  if (auto env = json::get_string(entry, {"env"}); !env.empty()) envs.emplace_back(env);
  for (const auto& path : envs) pairs.env_file(path, read(path));
  for (const auto& l : list(entry, "literals", where)) {
    std::string_view literal = l.get_string();
    auto eq = literal.find('=');
    if (eq == std::string_view::npos || eq == 0)
      throw BuildError(at(where, "literals") + ": \"" + std::string(literal) + "\" is not key=value");
    pairs.add(std::string(literal.substr(0, eq)), unquoted(literal.substr(eq + 1)), "literal " + std::string(literal.substr(0, eq)));
  }
  for (const auto& f : list(entry, "files", where)) {
    std::string_view source = f.get_string();
    auto eq = source.find('=');
    std::string key = eq == std::string_view::npos ? base_name(source) : std::string(source.substr(0, eq));
    std::string path(eq == std::string_view::npos ? source : source.substr(eq + 1));
    if (key.empty() || path.empty()) throw BuildError(at(where, "files") + ": \"" + std::string(source) + "\" is not a path nor key=path");
    pairs.add(std::move(key), read(path), "file " + path);
  }
  return pairs;
}

void put_map(json::Object& o, std::string_view field, const std::map<std::string, std::string>& m) {
  if (m.empty()) return;
  auto& target = o[field];
  if (!target.is_object()) target = json::Object();
  for (const auto& [k, v] : m) target.as_object()[k] = v;
}

json::Value generate(bool secret, const json::Value& entry, const std::string& name, std::string_view ns, const Options& options,
                     const Pairs& pairs, const std::string& where) {
  json::Object meta;
  meta["name"] = name;
  if (!ns.empty()) meta["namespace"] = ns;
  put_map(meta, "labels", options.labels);
  put_map(meta, "annotations", options.annotations);
  if (!options.disable_hash) {
    auto& annotations = meta["annotations"];
    if (!annotations.is_object()) annotations = json::Object();
    annotations.as_object()[kNeedsHashAnnotation] = "true";
  }
  json::Object o;
  o["apiVersion"] = "v1";
  o["kind"] = secret ? "Secret" : "ConfigMap";
  o["metadata"] = std::move(meta);
  json::Object data, binary;
  for (const auto& [k, v] : pairs.get()) {
    if (secret) data[k] = meta::base64_encode(v);
    else if (json::valid_utf8(v)) data[k] = v;
    else binary[k] = meta::base64_encode(v);
  }
  if (!data.empty()) o["data"] = std::move(data);
  if (!binary.empty()) o["binaryData"] = std::move(binary);
  if (options.immutable) o["immutable"] = true;
  if (secret) {
    const auto* type = json::find(entry, {"type"});
    if (type && !type->is_null() && !type->is_string()) throw BuildError(at(where, "type") + " must be a string");
    std::string_view t = type && type->is_string() ? type->get_string() : std::string_view();
    o["type"] = t.empty() ? std::string_view("Opaque") : t;
  }
  return o;
}

// behavior merge: the generated data and metadata over the existing object's; replace: the
// generated data instead of it. The existing object keeps its name, and a hash suffix only if both
// it and the generator want one (as kustomize merges their options).
void absorb(json::Value& existing, json::Value generated, bool merge) {
  auto& target = existing.as_object();
  auto& source = generated.as_object();
  const bool hash = json::get_string(generated, {"metadata", "annotations", kNeedsHashAnnotation}) == "true";
  if (auto* a = json::find(existing, {"metadata", "annotations"}); a && a->is_object() && !hash) a->as_object().erase(kNeedsHashAnnotation);
  for (std::string_view field : {"data", "binaryData"}) {
    auto* from = source.if_contains(field);
    if (!merge) target.erase(field);
    if (!from) continue;
    auto& to = target[field];
    if (!to.is_object()) to = json::Object();
    for (const auto& kv : from->as_object()) to.as_object()[kv.key()] = kv.value();
  }
  for (std::string_view field : {"labels", "annotations"}) {
    const auto* from = json::get_object(generated, {"metadata", field});
    if (!from) continue;
    auto& meta = target["metadata"].as_object();
    auto& to = meta[field];
    if (!to.is_object()) to = json::Object();
    for (const auto& kv : *from)
      if (kv.key() != kNeedsHashAnnotation) to.as_object()[kv.key()] = kv.value();
  }
  if (auto* immutable = source.if_contains("immutable")) target["immutable"] = *immutable;
}

void run(std::vector<json::Value>& objects, const json::Value& entries, bool secret, const Options& global, const std::string& file,
         const ReadFile& read) {
  const std::string field = secret ? "secretGenerator" : "configMapGenerator";
  if (!entries.is_array()) throw BuildError(file + ": " + field + " must be a list");
  if (entries.get_array().size() > kMaxEntries) throw BuildError(file + ": " + field + " has more than 1000 entries");
  const std::string kind = secret ? "Secret" : "ConfigMap";
  for (std::size_t i = 0; i < entries.get_array().size(); ++i) {
    const json::Value& entry = entries.get_array()[i];
    const std::string where = file + ": " + field + "[" + std::to_string(i) + "]";
    if (!entry.is_object()) throw BuildError(where + " must be a map");
    for (const auto& kv : entry.get_object())
      if (!known_fields(secret).contains(kv.key())) throw BuildError(at(where, kv.key()) + " is not supported");
    std::string name(json::get_string(entry, {"name"}));
    if (name.empty()) throw BuildError(at(where, "name") + " is required");
    std::string_view ns = json::get_string(entry, {"namespace"});
    std::string_view behavior = json::get_string(entry, {"behavior"}, "create");
    if (behavior != "create" && behavior != "merge" && behavior != "replace")
      throw BuildError(at(where, "behavior") + ": \"" + std::string(behavior) + "\" is not create, merge or replace");
    Options options = merged(read_options(json::find(entry, {"options"}), at(where, "options")), global);
    json::Value generated = generate(secret, entry, name, ns, options, read_pairs(entry, where, read), where);

    auto existing = std::find_if(objects.begin(), objects.end(), [&](const json::Value& o) {
      return json::get_string(o, {"kind"}) == kind && json::get_string(o, {"apiVersion"}) == "v1" && had_id(o, ns, name);
    });
    if (behavior == "create") {
      if (existing != objects.end()) throw BuildError(where + ": a " + kind + " " + name + " is already in the resources (use behavior merge or replace)");
      objects.push_back(std::move(generated));
    } else {
      if (existing == objects.end())
        throw BuildError(where + ": behavior " + std::string(behavior) + " needs a " + kind + " " + name + " in the resources, and there is none");
      absorb(*existing, std::move(generated), behavior == "merge");
    }
  }
}

}  // namespace

void run_generators(std::vector<json::Value>& objects, const json::Value& kustomization, const std::string& file, const ReadFile& read,
                    const ReadFile& read_secret_source) {
  Options global = read_options(json::find(kustomization, {"generatorOptions"}), file + ": generatorOptions");
  if (const auto* c = json::find(kustomization, {"configMapGenerator"}); c && !c->is_null()) run(objects, *c, false, global, file, read);
  if (const auto* s = json::find(kustomization, {"secretGenerator"}); s && !s->is_null()) run(objects, *s, true, global, file, read_secret_source);
}

std::string content_hash(const json::Value& obj) {
  json::Object fields;
  const bool secret = json::get_string(obj, {"kind"}) == "Secret";
  fields["kind"] = secret ? "Secret" : "ConfigMap";
  fields["name"] = "";
  const auto* data = json::find(obj, {"data"});
  fields["data"] = data ? *data : json::Value("");  // kustomize hashes a missing data as ""
  if (const auto* binary = json::get_object(obj, {"binaryData"}); binary && !binary->empty()) fields["binaryData"] = *binary;
  if (secret) fields["type"] = json::get_string(obj, {"type"});
  const std::string hex = pki::sha256_hex(gofmt::json_marshal(json::Value(std::move(fields))));
  // kustomize's encoding: the first ten hex digits, with the ones that could spell words swapped.
  std::string out = hex.substr(0, 10);
  for (char& c : out) {
    switch (c) {
      case '0': c = 'g'; break;
      case '1': c = 'h'; break;
      case '3': c = 'k'; break;
      case 'a': c = 'm'; break;
      case 'e': c = 't'; break;
      default: break;
    }
  }
  return out;
}

void add_name_hashes(std::vector<json::Value>& objects) {
  for (auto& o : objects) {
    if (json::get_string(o, {"metadata", "annotations", kNeedsHashAnnotation}) != "true") continue;
    auto& meta = o.as_object()["metadata"].as_object();
    meta["name"] = std::string(json::get_string(o, {"metadata", "name"})) + "-" + content_hash(o);
  }
}

}  // namespace capstan::gitops::kustomize
