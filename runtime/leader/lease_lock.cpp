#include "runtime/leader/lease_lock.h"

#include "runtime/client/client.h"

#include <stdexcept>

namespace capstan::leader {
namespace {

const meta::GroupVersionResource kLeases{"coordination.k8s.io", "v1", "leases"};

meta::TimePoint read_time(const json::Value& spec, std::string_view field) {
  auto s = json::get_string(spec, {field});
  if (s.empty()) return {};
  return meta::parse_rfc3339(s).value_or(meta::TimePoint{});
}

}  // namespace

json::Object record_to_spec(const Record& r) {
  return json::Object{{"holderIdentity", r.holder_identity},
                      {"leaseDurationSeconds", r.lease_duration_seconds},
                      {"acquireTime", meta::format_rfc3339_micro(r.acquire_time)},
                      {"renewTime", meta::format_rfc3339_micro(r.renew_time)},
                      {"leaseTransitions", r.leader_transitions}};
}

Record record_from_spec(const json::Value& spec) {
  Record r;
  if (!spec.is_object()) return r;
  r.holder_identity = std::string(json::get_string(spec, {"holderIdentity"}));
  r.lease_duration_seconds = json::get_int(spec, {"leaseDurationSeconds"}).value_or(0);
  r.acquire_time = read_time(spec, "acquireTime");
  r.renew_time = read_time(spec, "renewTime");
  r.leader_transitions = json::get_int(spec, {"leaseTransitions"}).value_or(0);
  return r;
}

LeaseLock::LeaseLock(client::Client& client, std::string ns, std::string name, std::map<std::string, std::string> labels)
    : client_(client), ns_(std::move(ns)), name_(std::move(name)), labels_(std::move(labels)) {}

std::pair<Record, std::string> LeaseLock::get() {
  json::Value lease = client_.get(kLeases, ns_, name_);
  const json::Value* spec = json::find(lease, {"spec"});
  json::Value spec_value = spec ? *spec : json::Value(json::Object{});
  Record r = record_from_spec(spec_value);
  // Compared field by field as written: the observer's notion of "the lease changed".
  std::string raw = json::serialize(record_to_spec(r));
  lease_ = std::move(lease);
  return {std::move(r), std::move(raw)};
}

void LeaseLock::create(const Record& r) {
  json::Object md{{"name", name_}, {"namespace", ns_}};
  if (!labels_.empty()) {
    json::Object labels;
    for (const auto& [k, v] : labels_) labels[k] = v;
    md["labels"] = std::move(labels);
  }
  json::Value lease = json::Object{{"apiVersion", "coordination.k8s.io/v1"},
                                   {"kind", "Lease"},
                                   {"metadata", std::move(md)},
                                   {"spec", record_to_spec(r)}};
  lease_ = client_.create(kLeases, ns_, lease);
}

void LeaseLock::update(const Record& r) {
  if (!lease_) throw std::logic_error("lease " + describe() + " not initialized, call get or create first");
  json::Value lease = *lease_;
  lease.as_object()["spec"] = record_to_spec(r);
  if (!labels_.empty()) {
    auto& labels = json::ensure_object(lease, {"metadata", "labels"});
    for (const auto& [k, v] : labels_) labels[k] = v;
  }
  lease_ = client_.update(kLeases, ns_, lease);
}

json::Value LeaseLock::lease() const { return lease_ ? *lease_ : json::Value(); }

}  // namespace capstan::leader
