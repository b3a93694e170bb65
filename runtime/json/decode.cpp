#include "runtime/json/decode.h"

#include "runtime/log/log.h"

#include <simdjson.h>

#include <cstring>

namespace capstan::json {
namespace sj = simdjson;
namespace od = simdjson::ondemand;

std::string_view event_type_name(EventType t) {
  switch (t) {
    case EventType::Added: return "ADDED";
    case EventType::Modified: return "MODIFIED";
    case EventType::Deleted: return "DELETED";
    case EventType::Bookmark: return "BOOKMARK";
    case EventType::Error: return "ERROR";
  }
  return "ERROR";
}

namespace {

// A reusable buffer that always carries simdjson's required padding.
class Padded {
 public:
  sj::padded_string_view view(std::string_view text) {
    if (buf_.size() < text.size() + sj::SIMDJSON_PADDING) buf_.resize(text.size() + sj::SIMDJSON_PADDING);
    std::memcpy(buf_.data(), text.data(), text.size());
    std::memset(buf_.data() + text.size(), 0, sj::SIMDJSON_PADDING);
    return sj::padded_string_view(buf_.data(), text.size(), buf_.size());
  }
  const char* data() const { return buf_.data(); }

 private:
  std::string buf_;
};

struct ThreadState {
  od::parser parser;
};

ThreadState& thread_state() {
  thread_local ThreadState state;
  return state;
}

bool copy_string(od::value v, std::string& out) {
  std::string_view s;
  if (v.get_string().get(s)) return false;
  out.assign(s.data(), s.size());
  return true;
}

// A string value as a view: into the source text when it has no escapes (the common case, no
// copy), else unescaped into m.storage. False when the value is not a string.
bool read_string(od::value v, std::string_view& out, MetaSummary& m) {
  std::string_view raw = v.raw_json_token();  // "..." plus any whitespace before the next token
  if (raw.empty() || raw.front() != '"') return false;
  auto close = raw.rfind('"');
  if (close == 0) return false;
  std::string_view inner = raw.substr(1, close - 1);
  if (inner.find('\\') == std::string_view::npos) {
    out = inner;
    return true;
  }
  std::string_view s;
  if (v.get_string().get(s)) return false;
  out = m.storage.emplace_back(s);
  return true;
}

// A field's key, the same way (keys are read before their values).
bool read_key(od::field& f, std::string_view& out, MetaSummary& m) {
  const char* k = f.key().raw();  // just after the opening quote
  const char* p = k;
  while (*p != '"' && *p != '\\') ++p;  // the source is valid JSON: a closing quote comes
  if (*p == '"') {
    out = std::string_view(k, static_cast<std::size_t>(p - k));
    return true;
  }
  std::string_view s;
  if (f.unescaped_key().get(s)) return false;
  out = m.storage.emplace_back(s);
  return true;
}

bool read_string_map(od::value v, std::vector<std::pair<std::string_view, std::string_view>>& out, MetaSummary& m) {
  od::object obj;
  if (v.get_object().get(obj)) return false;
  for (auto field_result : obj) {
    od::field field;
    if (std::move(field_result).get(field)) return false;
    std::string_view key, val;
    if (!read_key(field, key, m)) return false;
    od::value fv = field.value();
    if (!read_string(fv, val, m)) continue;  // tolerate non-string values
    out.emplace_back(key, val);
  }
  return true;
}

bool read_owner_refs(od::value v, MetaSummary& m) {
  od::array arr;
  if (v.get_array().get(arr)) return false;
  for (auto elem : arr) {
    od::object ref;
    if (elem.get_object().get(ref)) return false;
    OwnerRefSummary o;
    for (auto field_result : ref) {
      od::field field;
      if (std::move(field_result).get(field)) return false;
      std::string_view key;
      if (!read_key(field, key, m)) return false;
      od::value fv = field.value();
      if (key == "uid") read_string(fv, o.uid, m);
      else if (key == "kind") read_string(fv, o.kind, m);
      else if (key == "name") read_string(fv, o.name, m);
      else if (key == "apiVersion") read_string(fv, o.api_version, m);
      else if (key == "controller") {
        bool b = false;
        if (!fv.get_bool().get(b)) o.controller = b;
      }
    }
    m.owners.push_back(o);
  }
  return true;
}

// Computes the erase range of a member whose key starts at `key_quote` and whose value ends at
// `value_end` (offsets into `text`), taking one adjoining comma with it.
void member_range(std::string_view text, std::size_t key_quote, std::size_t value_end, std::size_t& begin,
                  std::size_t& end) {
  std::size_t after = value_end;
  while (after < text.size() && (text[after] == ' ' || text[after] == '\n' || text[after] == '\t' || text[after] == '\r'))
    ++after;
  if (after < text.size() && text[after] == ',') {
    begin = key_quote;
    end = after + 1;
    return;
  }
  std::size_t before = key_quote;
  while (before > 0 && (text[before - 1] == ' ' || text[before - 1] == '\n' || text[before - 1] == '\t' || text[before - 1] == '\r'))
    --before;
  if (before > 0 && text[before - 1] == ',') {
    begin = before - 1;
  } else {
    begin = key_quote;
  }
  end = value_end;
}

bool summarize_metadata(od::value v, const char* base, std::string_view text, MetaSummary& out) {
  od::object md;
  if (v.get_object().get(md)) return false;
  for (auto field_result : md) {
    od::field field;
    if (std::move(field_result).get(field)) return false;
    const char* key_start = field.key().raw() - 1;  // the opening quote
    std::string_view key;
    if (!read_key(field, key, out)) return false;
    od::value fv = field.value();
    if (key == "name") read_string(fv, out.name, out);
    else if (key == "namespace") read_string(fv, out.ns, out);
    else if (key == "uid") read_string(fv, out.uid, out);
    else if (key == "resourceVersion") read_string(fv, out.resource_version, out);
    else if (key == "generation") {
      std::int64_t g = 0;
      if (!fv.get_int64().get(g)) out.generation = g;
    } else if (key == "deletionTimestamp") {
      bool is_null = false;
      if (!fv.is_null().get(is_null)) out.deleting = !is_null;
    } else if (key == "labels") {
      read_string_map(fv, out.labels, out);
    } else if (key == "annotations") {
      read_string_map(fv, out.annotations, out);
    } else if (key == "ownerReferences") {
      read_owner_refs(fv, out);
    } else if (key == "managedFields") {
      od::array arr;
      if (fv.get_array().get(arr)) continue;
      std::string_view raw;
      if (arr.raw_json().get(raw)) return false;
      std::size_t value_end = static_cast<std::size_t>(raw.data() + raw.size() - base);
      // raw_json() may include trailing whitespace; trim it.
      while (value_end > 0 && (base[value_end - 1] == ' ' || base[value_end - 1] == '\n')) --value_end;
      member_range(text, static_cast<std::size_t>(key_start - base), value_end, out.managed_fields_begin,
                   out.managed_fields_end);
    }
  }
  return true;
}

// Reads the fields of an object (already entered) into `out`, summarising its metadata;
// `begin` is where the object's text starts.
bool summarize_fields(od::object& obj, const char* begin, std::string_view text, MetaSummary& out, std::string* error) {
  for (auto field_result : obj) {
    od::field field;
    if (auto e = std::move(field_result).get(field)) {
      if (error) *error = sj::error_message(e);
      return false;
    }
    std::string_view key;
    if (!read_key(field, key, out)) {
      if (error) *error = "malformed key";
      return false;
    }
    if (key != "metadata") continue;
    if (!summarize_metadata(field.value(), begin, text, out)) {
      if (error) *error = "malformed metadata";
      return false;
    }
  }
  return true;
}

}  // namespace

static_assert(kReadablePadding >= sj::SIMDJSON_PADDING, "views promise simdjson's padding");

void MetaSummary::clear() {
  ns = name = uid = resource_version = {};
  generation = 0;
  deleting = false;
  labels.clear();
  annotations.clear();
  owners.clear();
  managed_fields_begin = managed_fields_end = 0;
  storage.clear();
}

bool summarize(std::string_view object_json, MetaSummary& out, std::string* error, bool padded) {
  out.clear();
  if (!padded) {
    std::string& copy = out.storage.emplace_back();
    copy.reserve(object_json.size() + sj::SIMDJSON_PADDING);
    copy.assign(object_json);
    copy.append(sj::SIMDJSON_PADDING, '\0');
    object_json = std::string_view(copy).substr(0, object_json.size());
  }
  auto psv = sj::padded_string_view(object_json.data(), object_json.size(), object_json.size() + sj::SIMDJSON_PADDING);
  od::document doc;
  if (auto e = thread_state().parser.iterate(psv).get(doc)) {
    if (error) *error = sj::error_message(e);
    return false;
  }
  od::object obj;
  if (auto e = doc.get_object().get(obj)) {
    if (error) *error = sj::error_message(e);
    return false;
  }
  return summarize_fields(obj, object_json.data(), object_json, out, error);
}

std::string strip_managed_fields(std::string_view object_json, const MetaSummary& meta) {
  if (meta.managed_fields_end <= meta.managed_fields_begin) return std::string(object_json);
  std::string out;
  out.reserve(object_json.size() - (meta.managed_fields_end - meta.managed_fields_begin));
  out.append(object_json.substr(0, meta.managed_fields_begin));
  out.append(object_json.substr(meta.managed_fields_end));
  return out;
}

bool decode_list(std::string_view body, ListMeta& meta, const std::function<void(std::string_view)>& on_item,
                 std::string* error) {
  // Lists are parsed from their own buffer: item views handed to on_item point into it.
  Padded padded;
  od::parser parser;
  auto psv = padded.view(body);
  od::document doc;
  auto fail = [&](sj::error_code e) {
    if (error) *error = sj::error_message(e);
    return false;
  };
  if (auto e = parser.iterate(psv).get(doc)) return fail(e);
  od::object obj;
  if (auto e = doc.get_object().get(obj)) return fail(e);
  for (auto field : obj) {
    std::string_view key;
    if (auto e = field.unescaped_key().get(key)) return fail(e);
    od::value v;
    if (auto e = field.value().get(v)) return fail(e);
    if (key == "kind") {
      copy_string(v, meta.kind);
    } else if (key == "metadata") {
      od::object md;
      if (auto e = v.get_object().get(md)) return fail(e);
      for (auto mf : md) {
        std::string_view mk;
        if (auto e = mf.unescaped_key().get(mk)) return fail(e);
        od::value mv;
        if (auto e = mf.value().get(mv)) return fail(e);
        if (mk == "resourceVersion") copy_string(mv, meta.resource_version);
        else if (mk == "continue") copy_string(mv, meta.continue_token);
        else if (mk == "remainingItemCount") {
          std::int64_t n = 0;
          if (!mv.get_int64().get(n)) meta.remaining_item_count = n;
        }
      }
    } else if (key == "items") {
      bool is_null = false;
      if (!v.is_null().get(is_null) && is_null) continue;
      od::array items;
      if (auto e = v.get_array().get(items)) return fail(e);
      for (auto item : items) {
        od::object io;
        if (auto e = item.get_object().get(io)) return fail(e);
        std::string_view raw;
        if (auto e = io.raw_json().get(raw)) return fail(e);
        while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\n')) raw.remove_suffix(1);
        on_item(raw);
      }
    }
  }
  return true;
}

struct WatchDecoder::Impl {
  od::parser parser;
  Padded padded;
  MetaSummary meta;  // reused: its vectors keep their capacity
};

WatchDecoder::WatchDecoder(Handler handler, std::string what)
    : impl_(std::make_unique<Impl>()), handler_(std::move(handler)), what_(std::move(what)) {}

WatchDecoder::~WatchDecoder() = default;

void WatchDecoder::feed(std::string_view chunk) {
  while (!chunk.empty()) {
    auto nl = chunk.find('\n');
    if (nl == std::string_view::npos) {
      pending_.append(chunk);
      return;
    }
    if (pending_.empty()) {
      line(chunk.substr(0, nl), chunk.size() - nl);
    } else {
      pending_.append(chunk.substr(0, nl));
      line(pending_, 0);
      pending_.clear();
    }
    chunk.remove_prefix(nl + 1);
  }
}

void WatchDecoder::finish() {
  if (!pending_.empty()) {
    line(pending_, 0);
    pending_.clear();
  }
}

void WatchDecoder::line(std::string_view l, std::size_t readable) {
  while (!l.empty() && (l.back() == '\r' || l.back() == ' ')) {
    l.remove_suffix(1);
    ++readable;
  }
  if (l.empty()) return;
  auto skip = [&](std::string_view why) {
    ++skipped_;
    log::warn("skipping malformed watch event", {{"stream", what_}, {"error", why}, {"bytes", l.size()}});
  };
  // Parsed where it lies when the bytes after it cover simdjson's padding (all but the last
  // line of a read), else from a padded copy.
  sj::padded_string_view psv;
  if (readable >= kReadablePadding) {
    psv = sj::padded_string_view(l.data(), l.size(), l.size() + kReadablePadding);
  } else {
    psv = impl_->padded.view(l);
    l = std::string_view(impl_->padded.data(), l.size());
  }
  MetaSummary& meta = impl_->meta;
  meta.clear();
  od::document doc;
  if (auto e = impl_->parser.iterate(psv).get(doc)) return skip(sj::error_message(e));
  od::object obj;
  if (auto e = doc.get_object().get(obj)) return skip(sj::error_message(e));
  std::string_view type_name;
  std::string_view object_raw;
  for (auto field_result : obj) {
    od::field field;
    if (auto e = std::move(field_result).get(field)) return skip(sj::error_message(e));
    std::string_view key;
    if (!read_key(field, key, meta)) return skip("malformed key");
    od::value v = field.value();
    if (key == "type") {
      if (!read_string(v, type_name, meta)) return skip("type is not a string");
    } else if (key == "object") {
      // The object's metadata is read in this same pass; its text runs from its '{' to the
      // '}' before the token that follows it.
      const char* begin = v.raw_json_token().data();
      od::object o;
      if (auto e = v.get_object().get(o)) return skip(sj::error_message(e));
      std::string_view rest(begin, static_cast<std::size_t>(l.data() + l.size() - begin));
      std::string error;
      if (!summarize_fields(o, begin, rest, meta, &error)) return skip(error);
      const char* after = nullptr;
      if (auto e = doc.current_location().get(after)) return skip(sj::error_message(e));
      while (after > begin && (after[-1] == ' ' || after[-1] == '\n' || after[-1] == '\t' || after[-1] == '\r')) --after;
      object_raw = std::string_view(begin, static_cast<std::size_t>(after - begin));
    }
  }
  EventType type;
  if (type_name == "ADDED") type = EventType::Added;
  else if (type_name == "MODIFIED") type = EventType::Modified;
  else if (type_name == "DELETED") type = EventType::Deleted;
  else if (type_name == "BOOKMARK") type = EventType::Bookmark;
  else if (type_name == "ERROR") type = EventType::Error;
  else return skip(type_name.empty() ? "missing type" : "unknown type " + std::string(type_name));
  if (object_raw.empty()) return skip("missing object");
  ++events_;
  handler_(type, object_raw, meta);
}

}  // namespace capstan::json
