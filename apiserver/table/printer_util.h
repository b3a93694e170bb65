// Cell formatting helpers that mirror the small functions kube-apiserver's printers use:
// translateTimestampSince, labels.FormatLabels, metav1.FormatLabelSelector, layoutContainerCells.
#pragma once

#include "runtime/json/json.h"
#include "runtime/meta/time.h"

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace capstan::apiserver::table {

// k8s.io/apimachinery duration.HumanDuration: "<invalid>" more than a second in the future,
// "0s" up to that, then meta::human_duration ("5m", "3h", "2d").
std::string go_human_duration(std::chrono::nanoseconds d);

// Age of an RFC 3339 timestamp at `now`; "<unknown>" when empty or unparseable (a zero time).
std::string since(std::string_view rfc3339, meta::TimePoint now);
// The Age cell: since(metadata.creationTimestamp).
std::string age_of(const json::Value& obj, meta::TimePoint now);

// Parsed timestamp at `path`, if present and valid.
std::optional<meta::TimePoint> timestamp_at(const json::Value& obj, json::Path path);

// metav1.Time.UTC().Format(time.RFC3339) of metadata.creationTimestamp: "0001-01-01T00:00:00Z"
// when unset (the "Created At" cells).
std::string created_at(const json::Value& obj);

// helper.GetAccessModesAsString of the access modes at `path`: "RWO,ROX,RWX,RWOP" as present.
std::string access_modes_at(const json::Value& obj, json::Path path);
// helper.GetPersistentVolume(Claim)Class: the beta annotation, else spec.storageClassName.
std::string storage_class_of(const json::Value& obj);

// labels.FormatLabels: "a=b,c=d" sorted by key, "<none>" when empty or absent.
std::string format_labels(const json::Object* labels);

// metav1.LabelSelectorAsSelector(sel).String(): sorted requirements ("app=web,tier in (a,b)");
// "" for an absent or empty selector; nullopt when the selector is invalid.
std::optional<std::string> label_selector_string(const json::Value* selector);
// metav1.FormatLabelSelector: like label_selector_string but "<none>" when empty, "<error>" when invalid.
std::string format_label_selector(const json::Value* selector);

// layoutContainerCells: container names and images joined with ",".
std::pair<std::string, std::string> layout_containers(const json::Array* containers);

// status.loadBalancer.ingress as Service and Ingress print it: each entry's IP, else its hostname,
// sorted and de-duplicated, joined with ",". Never clipped: server-side printing is wide.
std::string load_balancer_ingress(const json::Value& obj);

// strings.Join.
std::string join(const std::vector<std::string>& parts, std::string_view sep);

// Small typed reads.
std::string str_at(const json::Value& obj, json::Path path);
std::int64_t int_at(const json::Value& obj, json::Path path, std::int64_t fallback = 0);
std::size_t size_at(const json::Value& obj, json::Path path);  // members of an object or elements of an array
std::vector<std::string> strings_at(const json::Value& obj, json::Path path);  // the strings of an array

}  // namespace capstan::apiserver::table
