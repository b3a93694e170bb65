// Small pieces the workload controllers share: template hashing as the controllers name
// their children, int-or-percent resolution, pod readiness/availability as apps controllers
// judge it, pods built from templates, and controller-reference adoption ("claiming").
#pragma once

#include "apiserver/simulator/api.h"
#include "apiserver/simulator/loop.h"
#include "runtime/json/json.h"
#include "runtime/meta/pod.h"
#include "runtime/meta/selector.h"
#include "runtime/meta/time.h"

#include <chrono>
#include <functional>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::simulator {

// Well-known labels and annotations.
inline constexpr std::string_view kPodTemplateHashLabel = "pod-template-hash";
inline constexpr std::string_view kRevisionAnnotation = "deployment.kubernetes.io/revision";
inline constexpr std::string_view kRevisionHistoryAnnotation = "deployment.kubernetes.io/revision-history";
inline constexpr std::string_view kDesiredReplicasAnnotation = "deployment.kubernetes.io/desired-replicas";
inline constexpr std::string_view kMaxReplicasAnnotation = "deployment.kubernetes.io/max-replicas";
inline constexpr std::string_view kStsPodNameLabel = "statefulset.kubernetes.io/pod-name";
inline constexpr std::string_view kStsPodIndexLabel = "apps.kubernetes.io/pod-index";
inline constexpr std::string_view kControllerRevisionHashLabel = "controller-revision-hash";
inline constexpr std::string_view kPodDeletionCostAnnotation = "controller.kubernetes.io/pod-deletion-cost";
// Capstan's own switch, standing in for a readiness probe: a pod annotated
// `workloads.capstan.dev/ready: "false"` runs but never becomes Ready, and one annotated "true"
// is Ready at once, whatever the ready delay (lets tests decide when a pod is Ready, e.g. once the
// process they run for it answers).
inline constexpr std::string_view kSimulateReadyAnnotation = "workloads.capstan.dev/ready";

// JSON with object members sorted by key at every level: equal documents give equal text
// whatever order their members were written in.
std::string canonical_json(const json::Value& v);
// 32-bit FNV-1a and FNV-1 (what hash/fnv's New32a / New32 compute).
std::uint32_t fnv32a(std::string_view data, std::uint32_t h = 2166136261u);
std::uint32_t fnv32(std::string_view data, std::uint32_t h = 2166136261u);
// apimachinery's rand.SafeEncodeString: each byte mapped into "bcdfghjklmnpqrstvwxz2456789".
std::string safe_encode(std::string_view s);
// The pod-template-hash of a pod template (FNV-1a of its canonical JSON, plus the
// collision count when given), encoded like the deployment controller encodes it.
std::string pod_template_hash(const json::Value& pod_template, std::optional<std::int64_t> collision_count);

// Resolves an IntOrString ("25%" or 3) against `total`: percentages round up or down as
// asked. Throws std::invalid_argument naming the bad value.
int scaled_value(const json::Value* v, int total, bool round_up);

std::int64_t int_at(const json::Value& v, json::Path p, std::int64_t fallback = 0);

// Pods (whether one is Ready: meta::pod_ready, shared with the Kafka controller).
std::string_view pod_phase(const json::Value& pod);
bool pod_terminal(const json::Value& pod);  // Succeeded or Failed
bool pod_active(const json::Value& pod);    // not terminal and not being deleted
std::optional<meta::TimePoint> pod_ready_since(const json::Value& pod);
// Ready for more than min_ready_seconds (Ready suffices when it is 0).
bool pod_available(const json::Value& pod, std::int64_t min_ready_seconds, meta::TimePoint now);
// How long until a Ready pod becomes available (nullopt: not ready, or already available).
std::optional<std::chrono::milliseconds> until_available(const json::Value& pod, std::int64_t min_ready_seconds,
                                                         meta::TimePoint now);
// The pod a controller creates from `pod_template` (labels, annotations, finalizers, spec)
// with a controller reference to `owner`. Name left to the caller (name or generateName).
json::Value pod_from_template(const json::Value& pod_template, const json::Value& owner);

// Ownership.
bool controlled_by(const json::Value& obj, std::string_view owner_uid);
bool has_controller(const json::Value& obj);
// The objects of `resource` in the owner's namespace that the owner controls, after
// adopting orphans matching `selector` (when `can_adopt`) and releasing controlled objects
// that no longer match it, as ControllerRefManager does. Objects being deleted are neither
// adopted nor released.
// `member`, when given, further restricts which objects may be claimed at all.
std::vector<Object> claim(Api& w, const std::string& resource, const json::Value& owner,
                                   const meta::LabelSelector& selector, bool can_adopt,
                                   const std::function<bool(const json::Value&)>& member = {});
// The names of the `owner_resource` objects in `orphan`'s namespace whose selector matches it
// (the candidates to adopt an object that has no controller). An owner with an empty or
// unparsable selector adopts nothing.
std::vector<std::string> owners_selecting(Api& w, const std::string& owner_resource, const json::Value& orphan);

// Watch-event mapping: keys of `owner_resource` for the controllers of kind `owner_kind`
// named by the event's object and its previous state. With `orphan_resource`, an object
// without any controller maps to Key{orphan_resource, ns, name} instead (so the owner
// candidates are looked up by the loop, not in the watch callback).
std::vector<Key> controller_keys(const Event& e, std::string_view owner_kind, const std::string& owner_resource,
                                 const std::string& orphan_resource = {});

// Sorts by metadata.creationTimestamp, then name (oldest first).
void sort_by_age(std::vector<Object>& objs);

}  // namespace capstan::simulator
