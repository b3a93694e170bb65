#include "controllers/gitops/sops/sops.h"

#include "controllers/gitops/sops/crypto.h"
#include "controllers/gitops/sops/error.h"
#include "runtime/json/yaml.h"
#include "runtime/meta/base64.h"

#include <openssl/crypto.h>
#include <re2/re2.h>

#include <charconv>
#include <memory>

namespace capstan::gitops::sops {
namespace {

constexpr std::size_t kMaxDepth = 100;
constexpr std::size_t kMaxFileBytes = 5 << 20;  // Flux's limit for one encrypted file

// Which values the metadata marks encrypted (sops' shouldBeEncrypted without the comment rules,
// which need YAML comments a JSON tree does not keep: such files are refused).
class Rules {
 public:
  explicit Rules(const json::Value& meta) {
    unencrypted_suffix_ = json::get_string(meta, {"unencrypted_suffix"});
    encrypted_suffix_ = json::get_string(meta, {"encrypted_suffix"});
    unencrypted_regex_ = compile(meta, "unencrypted_regex");
    encrypted_regex_ = compile(meta, "encrypted_regex");
    for (std::string_view field : {"unencrypted_comment_regex", "encrypted_comment_regex"})
      if (!json::get_string(meta, {field}).empty())
        throw DecryptError("sops." + std::string(field) + " is not supported (it selects values by YAML comments)");
  }

  bool encrypted(const std::vector<std::string>& path) const {
    bool enc = true;
    if (!unencrypted_suffix_.empty())
      for (const auto& p : path)
        if (p.ends_with(unencrypted_suffix_)) {
          enc = false;
          break;
        }
    if (!encrypted_suffix_.empty()) {
      enc = false;
      for (const auto& p : path)
        if (p.ends_with(encrypted_suffix_)) {
          enc = true;
          break;
        }
    }
    if (unencrypted_regex_)
      for (const auto& p : path)
        if (RE2::PartialMatch(p, *unencrypted_regex_)) {
          enc = false;
          break;
        }
    if (encrypted_regex_) {
      enc = false;
      for (const auto& p : path)
        if (RE2::PartialMatch(p, *encrypted_regex_)) {
          enc = true;
          break;
        }
    }
    return enc;
  }

 private:
  static std::unique_ptr<RE2> compile(const json::Value& meta, std::string_view field) {
    std::string_view pattern = json::get_string(meta, {field});
    if (pattern.empty()) return nullptr;
    RE2::Options options;
    options.set_log_errors(false);
    auto re = std::make_unique<RE2>(pattern, options);
    if (!re->ok()) throw DecryptError("sops." + std::string(field) + " is not a valid regular expression: " + re->error());
    return re;
  }

  std::string unencrypted_suffix_, encrypted_suffix_;
  std::unique_ptr<RE2> unencrypted_regex_, encrypted_regex_;
};

std::string where(const std::vector<std::string>& path) {
  std::string out;
  for (const auto& p : path) out += (out.empty() ? "" : ":") + p;
  return out.empty() ? "(root)" : out;
}

// "ENC[AES256_GCM,data:<b64>,iv:<b64>,tag:<b64>,type:<t>]" -> the typed plaintext.
json::Value decrypt_value(std::string_view text, std::string_view key, const std::vector<std::string>& path) {
  if (text.empty()) return json::Value("");  // sops leaves empty strings as they are
  constexpr std::string_view prefix = "ENC[AES256_GCM,data:";
  auto bad = [&](std::string_view why) { return DecryptError("sops: the value at " + where(path) + " " + std::string(why)); };
  if (!text.starts_with(prefix) || !text.ends_with("]"))
    throw bad("is not encrypted (not ENC[AES256_GCM,...]): was it added or changed after encryption?");
  std::string_view body = text.substr(prefix.size(), text.size() - prefix.size() - 1);
  const auto iv_at = body.find(",iv:"), tag_at = body.find(",tag:"), type_at = body.find(",type:");
  if (iv_at == std::string_view::npos || tag_at == std::string_view::npos || type_at == std::string_view::npos ||
      !(iv_at < tag_at && tag_at < type_at))
    throw bad("is not in sops' ENC[AES256_GCM,data:,iv:,tag:,type:] form");
  auto data = meta::base64_decode(body.substr(0, iv_at));
  auto iv = meta::base64_decode(body.substr(iv_at + 4, tag_at - iv_at - 4));
  auto tag = meta::base64_decode(body.substr(tag_at + 5, type_at - tag_at - 5));
  std::string_view type = body.substr(type_at + 6);
  if (!data || !iv || !tag) throw bad("has a data, iv or tag that is not base64");
  std::string aad;
  for (const auto& p : path) aad += p + ":";
  auto plain = crypto::aes256gcm_open(key, *iv, *data, *tag, aad);
  if (!plain) throw bad("failed authentication (another data key, or the value or its path changed)");
  json::Value out;
  if (type == "str" || type == "bytes" || type == "comment") {
    out = json::Value(json::String(*plain));
  } else if (type == "int") {
    std::int64_t v = 0;
    auto [end, ec] = std::from_chars(plain->data(), plain->data() + plain->size(), v);
    if (ec != std::errc() || end != plain->data() + plain->size()) throw bad("is typed int but is not an integer");
    out = v;
  } else if (type == "float") {
    double v = 0;
    auto [end, ec] = std::from_chars(plain->data(), plain->data() + plain->size(), v);
    if (ec != std::errc() || end != plain->data() + plain->size()) throw bad("is typed float but is not a number");
    out = v;
  } else if (type == "bool") {
    // Go's strconv.ParseBool.
    static const std::vector<std::string_view> yes = {"1", "t", "T", "TRUE", "true", "True"};
    static const std::vector<std::string_view> no = {"0", "f", "F", "FALSE", "false", "False"};
    if (std::find(yes.begin(), yes.end(), *plain) != yes.end()) out = true;
    else if (std::find(no.begin(), no.end(), *plain) != no.end()) out = false;
    else throw bad("is typed bool but is not a boolean");
  } else {
    throw bad("has an unknown type \"" + std::string(type) + "\"");
  }
  OPENSSL_cleanse(plain->data(), plain->size());
  return out;
}

void walk(json::Value& v, std::vector<std::string>& path, const Rules& rules, std::string_view key, std::size_t depth) {
  if (depth > kMaxDepth) throw DecryptError("sops: the document nests more than " + std::to_string(kMaxDepth) + " levels");
  if (v.is_object()) {
    for (auto& kv : v.as_object()) {
      path.emplace_back(kv.key());
      walk(kv.value(), path, rules, key, depth + 1);
      path.pop_back();
    }
  } else if (v.is_array()) {
    for (auto& item : v.as_array()) walk(item, path, rules, key, depth + 1);  // lists add no path step
  } else if (!v.is_null() && rules.encrypted(path)) {
    if (!v.is_string()) throw DecryptError("sops: the value at " + where(path) + " is not encrypted (a " + std::string(json::type_name(v)) + ", not ENC[...]): was it added after encryption?");
    v = decrypt_value(v.get_string(), key, path);
  }
}

// The age entries of the metadata: `age`, or those of a single key group.
std::vector<const json::Value*> age_entries(const json::Value& meta, std::vector<std::string>& other_kinds) {
  std::vector<const json::Value*> out;
  auto collect = [&](const json::Value& holder) {
    if (const auto* list = json::get_array(holder, {"age"}))
      for (const auto& e : *list) out.push_back(&e);
    for (std::string_view kind : {"pgp", "kms", "gcp_kms", "azure_kv", "hc_vault"})
      if (const auto* list = json::get_array(holder, {kind}); list && !list->empty()) other_kinds.emplace_back(kind);
  };
  collect(meta);
  if (const auto* groups = json::get_array(meta, {"key_groups"}); groups && !groups->empty()) {
    if (groups->size() > 1)
      throw DecryptError("sops: the data key is split over " + std::to_string(groups->size()) +
                         " key groups (Shamir's secret sharing), which is not supported");
    collect(groups->front());
  }
  return out;
}

std::string data_key(const json::Value& meta, const Keys& keys) {
  std::vector<std::string> other_kinds;
  auto entries = age_entries(meta, other_kinds);
  if (entries.empty()) {
    std::string kinds;
    for (const auto& k : other_kinds) kinds += (kinds.empty() ? "" : ", ") + k;
    throw DecryptError("sops: the data key is encrypted for no age recipient" + (kinds.empty() ? "" : " (only " + kinds + ")") +
                       "; only age keys are supported");
  }
  if (keys.age.empty()) throw DecryptError("sops: no age identity to decrypt with (the decryption Secret has no *.agekey entry)");
  std::string recipients;
  std::string last_error;
  for (const json::Value* e : entries) {
    recipients += (recipients.empty() ? "" : ", ") + std::string(json::get_string(*e, {"recipient"}, "?"));
    std::string_view enc = json::get_string(*e, {"enc"});
    if (enc.empty()) continue;
    try {
      std::string key = age_decrypt(enc, keys.age);
      if (key.size() != 32) throw DecryptError("the age-encrypted data key is not 32 bytes");
      return key;
    } catch (const DecryptError& err) {
      last_error = err.what();
    }
  }
  throw DecryptError("sops: no age identity of the decryption Secret opens the data key (recipients: " + recipients + "): " + last_error);
}

// Decrypts a tree whose metadata is `meta` (the tree holds no `sops` member).
void decrypt_tree(json::Value& tree, const json::Value& meta, const Keys& keys) {
  if (!meta.is_object()) throw DecryptError("sops: the metadata is not a map");
  Rules rules(meta);
  std::string key = data_key(meta, keys);
  std::vector<std::string> path;
  try {
    walk(tree, path, rules, key, 0);
  } catch (...) {
    OPENSSL_cleanse(key.data(), key.size());
    throw;
  }
  OPENSSL_cleanse(key.data(), key.size());
}

// sops' dotenv form: KEY=VALUE lines ('#' comments), newlines escaped as \n; metadata keys
// "sops_<flattened>" where maps nest as "__map_<key>" and lists as "__list_<index>".
json::Value unflatten(const std::vector<std::pair<std::string, std::string>>& flat) {
  json::Value root = json::Object();
  for (const auto& [name, value] : flat) {
    json::Value* at = &root;
    std::string_view rest = name;
    std::size_t cut = rest.find("__");
    std::string first(rest.substr(0, cut));
    rest.remove_prefix(cut == std::string_view::npos ? rest.size() : cut);
    std::string step = first;
    bool step_is_index = false;
    while (true) {
      // Descend into `step` of *at, making the container the next step needs.
      std::string next;
      bool next_is_index = false, last = rest.empty();
      if (!last) {
        rest.remove_prefix(2);
        std::size_t end = rest.find("__");
        std::string_view token = rest.substr(0, end);
        rest.remove_prefix(end == std::string_view::npos ? rest.size() : end);
        if (token.starts_with("map_")) next = std::string(token.substr(4));
        else if (token.starts_with("list_")) next = std::string(token.substr(5)), next_is_index = true;
        else throw DecryptError("sops: dotenv metadata key sops_" + name + " is not in sops' flattened form");
      }
      json::Value* child = nullptr;
      if (step_is_index) {
        std::size_t index = 0;
        auto [p, ec] = std::from_chars(step.data(), step.data() + step.size(), index);
        if (ec != std::errc() || p != step.data() + step.size() || index > 1000)
          throw DecryptError("sops: dotenv metadata key sops_" + name + " has a bad list index");
        auto& arr = at->as_array();
        while (arr.size() <= index) arr.emplace_back(nullptr);
        child = &arr[index];
      } else {
        child = &at->as_object()[step];
      }
      if (last) {
        *child = json::String(value);
        break;
      }
      if (next_is_index && !child->is_array()) *child = json::Array();
      if (!next_is_index && !child->is_object()) *child = json::Object();
      at = child;
      step = next;
      step_is_index = next_is_index;
    }
  }
  return root;
}

std::string replace_all(std::string s, std::string_view from, std::string_view to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
  return s;
}

// (values, metadata) of a dotenv file.
std::pair<json::Value, json::Value> read_dotenv(std::string_view text) {
  json::Value values = json::Object();
  std::vector<std::pair<std::string, std::string>> meta;
  std::size_t line_no = 0;
  while (!text.empty()) {
    std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    auto eq = line.find('=');
    if (eq == std::string_view::npos || eq == 0)
      throw DecryptError("sops: dotenv line " + std::to_string(line_no) + " is not KEY=VALUE");
    std::string key(line.substr(0, eq));
    std::string value = replace_all(std::string(line.substr(eq + 1)), "\\n", "\n");
    if (key.starts_with("sops_")) meta.emplace_back(key.substr(5), std::move(value));
    else values.as_object()[key] = json::String(value);
  }
  return {std::move(values), unflatten(meta)};
}

std::string scalar_text(const json::Value& v) {
  if (v.is_string()) return std::string(v.get_string());
  return json::serialize(v);
}

std::string emit(const json::Value& tree, Format out, std::string_view what) {
  switch (out) {
    case Format::yaml:
      return json::to_yaml(tree);
    case Format::json:
      return json::serialize_pretty(tree) + "\n";
    case Format::dotenv: {
      std::string text;
      if (!tree.is_object()) throw DecryptError("sops: " + std::string(what) + " is not a flat map, so it cannot be written as dotenv");
      for (const auto& kv : tree.get_object()) {
        if (kv.value().is_object() || kv.value().is_array())
          throw DecryptError("sops: " + std::string(what) + " member " + std::string(kv.key()) + " is nested, so it cannot be written as dotenv");
        text += std::string(kv.key()) + "=" + replace_all(scalar_text(kv.value()), "\n", "\\n") + "\n";
      }
      return text;
    }
    case Format::binary: {
      const auto* data = json::find(tree, {"data"});
      if (!data || !data->is_string()) throw DecryptError("sops: " + std::string(what) + " has no data string to write as binary");
      return std::string(data->get_string());
    }
    case Format::ini:
      break;
  }
  throw DecryptError("sops: the INI format is not supported");
}

}  // namespace

Format format_for_path(std::string_view path) {
  if (path.ends_with(".yaml") || path.ends_with(".yml")) return Format::yaml;
  if (path.ends_with(".json")) return Format::json;
  if (path.ends_with(".env")) return Format::dotenv;
  if (path.ends_with(".ini")) return Format::ini;
  return Format::binary;
}

std::optional<Format> detect_format(std::string_view text) {
  if (text.find("\"mac\": \"ENC[") != std::string_view::npos) return Format::json;  // JSON and binary envelopes
  if (text.find("sops_mac=ENC[") != std::string_view::npos) return Format::dotenv;
  if (text.find("[sops]") != std::string_view::npos) return Format::ini;
  if (text.find("mac: ENC[") != std::string_view::npos) return Format::yaml;
  return std::nullopt;
}

bool is_encrypted(const json::Value& obj) {
  const auto* meta = json::find(obj, {"sops"});
  if (!meta || !meta->is_object()) return false;
  const auto* mac = meta->get_object().if_contains("mac");
  return mac && !mac->is_null() && !(mac->is_string() && mac->get_string().empty());
}

void decrypt(json::Value& obj, const Keys& keys) {
  if (!obj.is_object()) throw DecryptError("sops: the document is not a map");
  auto* meta = obj.as_object().if_contains("sops");
  if (!meta) throw DecryptError("sops: the document has no sops metadata");
  // On a copy, so a failure leaves `obj` as it was rather than half decrypted.
  json::Value metadata = *meta;
  json::Value plain = obj;
  plain.as_object().erase("sops");
  decrypt_tree(plain, metadata, keys);
  obj = std::move(plain);
}

std::string decrypt_file(std::string_view text, Format in, Format out, const Keys& keys) {
  if (text.size() > kMaxFileBytes) throw DecryptError("sops: the file is larger than " + std::to_string(kMaxFileBytes) + " bytes");
  json::Value tree;
  switch (in) {
    case Format::dotenv: {
      auto [values, meta] = read_dotenv(text);
      tree = std::move(values);
      decrypt_tree(tree, meta, keys);
      return emit(tree, out, "the dotenv file");
    }
    case Format::ini:
      throw DecryptError("sops: the INI format is not supported");
    case Format::yaml:
    case Format::json:
    case Format::binary:
      try {
        tree = in == Format::yaml ? json::from_yaml(text, "the sops file") : json::parse(text, "the sops file");
      } catch (const json::ParseError& e) {
        throw DecryptError(std::string("sops: ") + e.what());
      }
      break;
  }
  decrypt(tree, keys);
  return emit(tree, out, "the decrypted file");
}

}  // namespace capstan::gitops::sops
