#include "runtime/controller/status.h"

#include "runtime/client/client.h"
#include "runtime/client/errors.h"
#include "runtime/controller/memory_budget.h"
#include "runtime/events/event.h"
#include "runtime/meta/object.h"

#include <algorithm>
#include <mutex>
#include <string>
#include <unordered_map>

namespace capstan::controller {
namespace {

// metav1.Condition's bound on message (32768 bytes): a longer one would fail the status write.
constexpr std::size_t kMaxConditionMessage = 32768;

std::string bounded_message(std::string_view message) { return events::truncate_utf8(message, kMaxConditionMessage); }

// `now`, with null for every member of `old` it lacks (recursively where both hold objects): as a
// JSON merge patch it leaves `now` on the server, where `now` alone would keep what it dropped
// (an omitted empty list, a cleared optional field).
json::Value replacing(const json::Value* old, const json::Value& now) {
  if (!old || !old->is_object() || !now.is_object()) return now;
  json::Object out = now.as_object();
  for (const auto& [key, value] : old->as_object()) {
    auto* kept = out.if_contains(key);
    if (!kept) out[key] = nullptr;
    else if (value.is_object() && kept->is_object()) *kept = replacing(&value, *kept);
  }
  return out;
}

}  // namespace

json::Object& status_of(json::Value& obj) {
  auto& o = obj.as_object();
  auto* s = o.if_contains("status");
  if (!s || !s->is_object()) s = &(o["status"] = json::Object());
  return s->as_object();
}

void set_condition(json::Value& obj, std::string_view type, std::string_view status, std::string_view reason,
                   std::string_view message) {
  meta::set_condition(obj, meta::Condition{std::string(type), std::string(status), std::string(reason), bounded_message(message),
                                           meta::generation_of(obj), ""});
}

void remove_condition(json::Value& obj, std::string_view type) {
  auto& status = status_of(obj);
  auto* conditions = status.if_contains("conditions");
  if (!conditions || !conditions->is_array()) return;
  auto& a = conditions->as_array();
  a.erase(std::remove_if(a.begin(), a.end(), [&](const json::Value& c) { return json::get_string(c, {"type"}) == type; }), a.end());
}

bool set_condition(std::vector<meta::Condition>& conditions, std::string_view type, std::string_view status, std::string_view reason,
                   std::string_view message, std::int64_t observed_generation, meta::TimePoint now) {
  meta::Condition next{std::string(type), std::string(status), std::string(reason), bounded_message(message), observed_generation, ""};
  for (auto& c : conditions) {
    if (c.type != type) continue;
    next.last_transition_time =
        c.status == status && !c.last_transition_time.empty() ? c.last_transition_time : meta::format_rfc3339(now);
    if (c.status == next.status && c.reason == next.reason && c.message == next.message &&
        c.observed_generation == next.observed_generation && c.last_transition_time == next.last_transition_time)
      return false;
    c = std::move(next);
    return true;
  }
  next.last_transition_time = meta::format_rfc3339(now);
  conditions.push_back(std::move(next));
  return true;
}

bool remove_condition(std::vector<meta::Condition>& conditions, std::string_view type) {
  auto it = std::remove_if(conditions.begin(), conditions.end(), [&](const meta::Condition& c) { return c.type == type; });
  const bool changed = it != conditions.end();
  conditions.erase(it, conditions.end());
  return changed;
}

bool condition_is(const std::vector<meta::Condition>& conditions, std::string_view type, std::string_view status) {
  return std::any_of(conditions.begin(), conditions.end(), [&](const meta::Condition& c) { return c.type == type && c.status == status; });
}

bool condition_current(const json::Value& obj, std::string_view type, std::string_view status) {
  auto c = meta::find_condition(obj, type);
  return c && c->status == status && c->observed_generation == meta::generation_of(obj);
}

namespace {

// The resourceVersion each object got from this process's last status write, until the cache
// shows that version. A reconcile retried right after a write (a failure's condition) may read
// the object from a cache that has not seen that write yet: "unchanged" against it is not to be
// trusted, or the object keeps the failure's status. Bounded: past the bound the record is
// dropped, which only costs redundant writes.
class RecentWrites {
 public:
  static RecentWrites& get() {
    static RecentWrites w;
    return w;
  }
  // Whether `before` (a cached object) may be stale against our last write of it.
  bool stale(const std::string& key, std::string_view cached_rv) {
    std::lock_guard lock(mu_);
    auto it = written_.find(key);
    if (it == written_.end()) return false;
    if (it->second == cached_rv) {
      written_.erase(it);  // the cache has caught up
      return false;
    }
    return true;
  }
  void record(std::string key, std::string rv) {
    std::lock_guard lock(mu_);
    if (written_.size() >= kMaxEntries) written_.clear();
    written_[std::move(key)] = std::move(rv);
  }

 private:
  static constexpr std::size_t kMaxEntries = 10'000;
  std::mutex mu_;
  std::unordered_map<std::string, std::string> written_;
};

}  // namespace

bool write_status(client::Client& client, const meta::GroupVersionResource& gvr, const json::Value& before, json::Value& obj) {
  // A reconcile past its memory budget did not finish its work, whatever its own error handling
  // made of the std::bad_alloc (a BuildFailed, a NotReady...): the controller records the fault
  // on the object once the reconcile is over, so the reconciler's own status is not written.
  if (MemoryBudget::tripped()) return false;
  status_of(obj);
  const std::string key = gvr.str() + "/" + std::string(meta::namespace_of(obj)) + "/" + std::string(meta::name_of(obj));
  const json::Value* old = json::find(before, {"status"});
  if (old && *old == obj.at("status") && !RecentWrites::get().stale(key, meta::resource_version_of(before))) return false;
  json::Value written;
  try {
    written = client.patch(gvr, meta::namespace_of(obj), meta::name_of(obj), client::PatchType::Merge,
                           json::Value(json::Object{{"status", replacing(old, obj.at("status"))}}),
                           client::PatchOptions{.subresource = "status"});
  } catch (const client::ApiError& e) {
    // Deleted while it was reconciled: there is no status left to write (its deletion event
    // reaches the controller next).
    if (client::is_not_found(e)) return false;
    throw;
  }
  if (auto rv = written.is_object() ? meta::resource_version_of(written) : std::string_view(); !rv.empty())
    RecentWrites::get().record(key, std::string(rv));
  return true;
}

}  // namespace capstan::controller
