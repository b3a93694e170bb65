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
  Padded padded;
};

ThreadState& thread_state() {
  thread_local ThreadState state;
  return state;
}

bool read_string(od::value v, std::string& out) {
  std::string_view s;
  if (v.get_string().get(s)) return false;
  out.assign(s.data(), s.size());
  return true;
}

bool read_string_map(od::value v, std::vector<std::pair<std::string, std::string>>& out) {
  od::object obj;
  if (v.get_object().get(obj)) return false;
  for (auto field : obj) {
    std::string_view key, val;
    if (field.unescaped_key().get(key)) return false;
    std::string k(key);
    if (field.value().get_string().get(val)) continue;  // tolerate non-string values
    out.emplace_back(std::move(k), std::string(val));
  }
  return true;
}

bool read_owner_refs(od::value v, std::vector<OwnerRefSummary>& out) {
  od::array arr;
  if (v.get_array().get(arr)) return false;
  for (auto elem : arr) {
    od::object ref;
    if (elem.get_object().get(ref)) return false;
    OwnerRefSummary o;
    for (auto field : ref) {
      std::string_view key;
      if (field.unescaped_key().get(key)) return false;
      od::value fv;
      if (field.value().get(fv)) return false;
      if (key == "uid") read_string(fv, o.uid);
      else if (key == "kind") read_string(fv, o.kind);
      else if (key == "name") read_string(fv, o.name);
      else if (key == "apiVersion") read_string(fv, o.api_version);
      else if (key == "controller") {
        bool b = false;
        if (!fv.get_bool().get(b)) o.controller = b;
      }
    }
    out.push_back(std::move(o));
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
  for (auto field : md) {
    std::string_view key;
    auto raw_key = field.key();
    if (raw_key.error()) return false;
    const char* key_start = raw_key.value_unsafe().raw() - 1;  // the opening quote
    if (field.unescaped_key().get(key)) return false;
    od::value fv;
    if (field.value().get(fv)) return false;
    if (key == "name") read_string(fv, out.name);
    else if (key == "namespace") read_string(fv, out.ns);
    else if (key == "uid") read_string(fv, out.uid);
    else if (key == "resourceVersion") read_string(fv, out.resource_version);
    else if (key == "generation") {
      std::int64_t g = 0;
      if (!fv.get_int64().get(g)) out.generation = g;
    } else if (key == "deletionTimestamp") {
      bool is_null = false;
      if (!fv.is_null().get(is_null)) out.deleting = !is_null;
    } else if (key == "labels") {
      read_string_map(fv, out.labels);
    } else if (key == "annotations") {
      read_string_map(fv, out.annotations);
    } else if (key == "ownerReferences") {
      read_owner_refs(fv, out.owners);
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

}  // namespace

static_assert(kReadablePadding >= sj::SIMDJSON_PADDING, "views promise simdjson's padding");

bool summarize(std::string_view object_json, MetaSummary& out, std::string* error, bool padded) {
  auto& st = thread_state();
  auto psv = padded ? sj::padded_string_view(object_json.data(), object_json.size(), object_json.size() + sj::SIMDJSON_PADDING)
                    : st.padded.view(object_json);
  const char* base = padded ? object_json.data() : st.padded.data();
  od::document doc;
  if (auto e = st.parser.iterate(psv).get(doc)) {
    if (error) *error = sj::error_message(e);
    return false;
  }
  od::object obj;
  if (auto e = doc.get_object().get(obj)) {
    if (error) *error = sj::error_message(e);
    return false;
  }
  for (auto field : obj) {
    std::string_view key;
    if (auto e = field.unescaped_key().get(key)) {
      if (error) *error = sj::error_message(e);
      return false;
    }
    if (key != "metadata") continue;
    od::value v;
    if (field.value().get(v) || !summarize_metadata(v, base, object_json, out)) {
      if (error) *error = "malformed metadata";
      return false;
    }
    break;
  }
  return true;
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
      read_string(v, meta.kind);
    } else if (key == "metadata") {
      od::object md;
      if (auto e = v.get_object().get(md)) return fail(e);
      for (auto mf : md) {
        std::string_view mk;
        if (auto e = mf.unescaped_key().get(mk)) return fail(e);
        od::value mv;
        if (auto e = mf.value().get(mv)) return fail(e);
        if (mk == "resourceVersion") read_string(mv, meta.resource_version);
        else if (mk == "continue") read_string(mv, meta.continue_token);
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
      line(chunk.substr(0, nl));
    } else {
      pending_.append(chunk.substr(0, nl));
      line(pending_);
      pending_.clear();
    }
    chunk.remove_prefix(nl + 1);
  }
}

void WatchDecoder::finish() {
  if (!pending_.empty()) {
    line(pending_);
    pending_.clear();
  }
}

void WatchDecoder::line(std::string_view l) {
  while (!l.empty() && (l.back() == '\r' || l.back() == ' ')) l.remove_suffix(1);
  if (l.empty()) return;
  auto skip = [&](std::string_view why) {
    ++skipped_;
    log::warn("skipping malformed watch event", {{"stream", what_}, {"error", why}, {"bytes", l.size()}});
  };
  auto psv = impl_->padded.view(l);
  od::document doc;
  if (auto e = impl_->parser.iterate(psv).get(doc)) return skip(sj::error_message(e));
  od::object obj;
  if (auto e = doc.get_object().get(obj)) return skip(sj::error_message(e));
  std::string type_name;
  std::string_view object_raw;
  for (auto field : obj) {
    std::string_view key;
    if (auto e = field.unescaped_key().get(key)) return skip(sj::error_message(e));
    od::value v;
    if (auto e = field.value().get(v)) return skip(sj::error_message(e));
    if (key == "type") {
      std::string_view t;
      if (auto e = v.get_string().get(t)) return skip(sj::error_message(e));
      type_name.assign(t);  // the parser's string buffer is reused by later fields
    } else if (key == "object") {
      od::object o;
      if (auto e = v.get_object().get(o)) return skip(sj::error_message(e));
      if (auto e = o.raw_json().get(object_raw)) return skip(sj::error_message(e));
      while (!object_raw.empty() && (object_raw.back() == ' ' || object_raw.back() == '\n')) object_raw.remove_suffix(1);
    }
  }
  EventType type;
  if (type_name == "ADDED") type = EventType::Added;
  else if (type_name == "MODIFIED") type = EventType::Modified;
  else if (type_name == "DELETED") type = EventType::Deleted;
  else if (type_name == "BOOKMARK") type = EventType::Bookmark;
  else if (type_name == "ERROR") type = EventType::Error;
  else return skip(type_name.empty() ? "missing type" : "unknown type " + type_name);
  if (object_raw.empty()) return skip("missing object");
  ++events_;
  handler_(type, object_raw);
}

}  // namespace capstan::json
