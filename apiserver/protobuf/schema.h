// The message schemas: for each Kubernetes protobuf message, its fields by number with their JSON
// name, type and cardinality, transcribed from the field numbers of the generated.proto files of
// k8s.io/api and k8s.io/apimachinery and the json tags of the Go types. Fields are listed in Go
// struct order, which is the JSON member order.
//
// Tables live in one file per API group (schema_core.cpp, schema_apps.cpp, ...); kinds.cpp maps
// apiVersion + kind to the top-level message.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace capstan::apiserver::protobuf::schema {

enum class Type : std::uint8_t {
  String,   // length-delimited UTF-8
  Bytes,    // length-delimited, JSON base64
  Bool,     // varint
  Int32,    // varint (negative values are sign-extended to 10 bytes)
  Int64,    // varint
  Double,   // fixed64
  Float,    // fixed32
  Message,  // length-delimited nested message (Field::message)
};

enum class Card : std::uint8_t {
  Single,
  Repeated,  // JSON array; numeric lists may be packed or not
  Map,       // map<string, T>: repeated entry messages {1: key, 2: value}; JSON object
};

enum Flag : std::uint8_t {
  kNoFlags = 0,
  // The Go field is a pointer (*int32, *bool, *string) or has no `omitempty`: a zero value on the
  // wire is meaningful and kept in the JSON. Without it, zero scalars are dropped. On a list or
  // map field: no `omitempty`, so a nil list or map is serialised as null.
  kKeepZero = 1,
  // The Go field is embedded with `json:",inline"`: its members are merged into the parent object.
  kInline = 2,
  // A struct field held by value (not a pointer; `default: {}` in kube's OpenAPI): every decoded
  // object has it, {} when empty, and kube-apiserver always serialises it (e.g. "status": {}).
  kValue = 4,
};

// Messages whose JSON form is not an object.
enum class Special : std::uint8_t {
  None,
  Time,          // metav1.Time {1: seconds, 2: nanos} -> "2006-01-02T15:04:05Z" | null
  MicroTime,     // metav1.MicroTime -> "2006-01-02T15:04:05.000000Z" | null
  Duration,      // metav1.Duration {1: nanoseconds} -> "1h0m0s"
  Quantity,      // resource.Quantity {1: string} -> "500m"
  IntOrString,   // intstr.IntOrString {1: type, 2: intVal, 3: strVal} -> 80 | "http"
  RawExtension,  // runtime.RawExtension {1: raw} -> embedded JSON
  FieldsV1,      // metav1.FieldsV1 {1: raw} -> embedded JSON
  StringList,    // ExtraValue {1: repeated string} -> ["a", "b"]
};

struct Message;

struct Field {
  std::uint32_t number;
  std::string_view json;
  Type type;
  Card card = Card::Single;
  std::uint8_t flags = kNoFlags;
  const Message* message = nullptr;  // for Type::Message (map values too)

  constexpr bool keep_zero() const { return (flags & kKeepZero) != 0; }
  constexpr bool inlined() const { return (flags & kInline) != 0; }
  constexpr bool by_value() const { return (flags & kValue) != 0; }
};

struct Message {
  std::string_view name;  // fully qualified proto name, for error messages
  std::span<const Field> fields;
  Special special = Special::None;

  const Field* find(std::uint32_t number) const {
    for (const auto& f : fields)
      if (f.number == number) return &f;
    return nullptr;
  }
};

// --- Table-building helpers -----------------------------------------------------------------------
constexpr Field str(std::uint32_t n, std::string_view json, std::uint8_t flags = kNoFlags) {
  return {n, json, Type::String, Card::Single, flags};
}
constexpr Field bytes(std::uint32_t n, std::string_view json, std::uint8_t flags = kNoFlags) {
  return {n, json, Type::Bytes, Card::Single, flags};
}
constexpr Field boolean(std::uint32_t n, std::string_view json, std::uint8_t flags = kNoFlags) {
  return {n, json, Type::Bool, Card::Single, flags};
}
constexpr Field i32(std::uint32_t n, std::string_view json, std::uint8_t flags = kNoFlags) {
  return {n, json, Type::Int32, Card::Single, flags};
}
constexpr Field i64(std::uint32_t n, std::string_view json, std::uint8_t flags = kNoFlags) {
  return {n, json, Type::Int64, Card::Single, flags};
}
constexpr Field f64(std::uint32_t n, std::string_view json, std::uint8_t flags = kNoFlags) {
  return {n, json, Type::Double, Card::Single, flags};
}
constexpr Field msg(std::uint32_t n, std::string_view json, const Message& m, std::uint8_t flags = kNoFlags) {
  return {n, json, Type::Message, Card::Single, flags, &m};
}
// A Go field embedded with `json:",inline"`.
constexpr Field inlined(std::uint32_t n, const Message& m) {
  return {n, "", Type::Message, Card::Single, kInline, &m};
}
constexpr Field list(Field f) {
  f.card = Card::Repeated;
  return f;
}
constexpr Field map_of(Field f) {
  f.card = Card::Map;
  return f;
}

// Declares and defines `const Message var` with the given fields (the field array gets internal
// linkage). Usage: PB_MESSAGE(kConfigMap, "k8s.io.api.core.v1.ConfigMap", msg(1, "metadata", ...), ...)
#define PB_MESSAGE(var, proto_name, ...)                                  \
  namespace {                                                             \
  constexpr ::capstan::apiserver::protobuf::schema::Field var##_fields[] = {__VA_ARGS__}; \
  }                                                                       \
  constinit const Message var { proto_name, var##_fields }
#define PB_SPECIAL(var, proto_name, special, ...)                         \
  namespace {                                                             \
  constexpr ::capstan::apiserver::protobuf::schema::Field var##_fields[] = {__VA_ARGS__}; \
  }                                                                       \
  constinit const Message var { proto_name, var##_fields, special }

// --- Messages shared across files -----------------------------------------------------------------
// meta.k8s.io/v1, intstr, resource, runtime (schema_meta.cpp)
extern const Message kTime, kMicroTime, kDuration, kQuantity, kIntOrString, kRawExtension, kFieldsV1;
extern const Message kObjectMeta, kOwnerReference, kManagedFieldsEntry, kLabelSelector,
    kLabelSelectorRequirement, kFieldSelectorRequirement, kCondition, kDeleteOptions, kPreconditions;

// core/v1 (schema_core.cpp)
extern const Message kConfigMap, kSecret, kNamespace, kService, kServiceAccount, kPod, kPodTemplate,
    kReplicationController, kResourceQuota, kLimitRange, kPersistentVolumeClaim, kEndpoints, kBinding;
extern const Message kPodTemplateSpec, kPodSpec, kObjectReference, kLocalObjectReference,
    kTypedLocalObjectReference, kPersistentVolumeClaimSpec;

// apps/v1 (schema_apps.cpp), autoscaling/v1 (schema_autoscaling.cpp), batch/v1 (schema_batch.cpp)
extern const Message kDeployment, kStatefulSet, kDaemonSet, kReplicaSet, kControllerRevision;
extern const Message kScale, kHorizontalPodAutoscaler;
extern const Message kJob, kCronJob;

// networking.k8s.io/v1, policy/v1, rbac.authorization.k8s.io/v1, scheduling.k8s.io/v1
extern const Message kIngress, kIngressClass;
extern const Message kPodDisruptionBudget, kEviction;
extern const Message kRole, kClusterRole, kRoleBinding, kClusterRoleBinding;
extern const Message kPriorityClass;

// authentication.k8s.io/v1, authorization.k8s.io/v1 (schema_auth.cpp), certificates.k8s.io/v1
extern const Message kTokenRequest, kTokenReview, kSelfSubjectReview;
extern const Message kSelfSubjectAccessReview, kSelfSubjectRulesReview, kSubjectAccessReview,
    kLocalSubjectAccessReview;
extern const Message kCertificateSigningRequest;
extern const Message kLease;  // coordination.k8s.io/v1 (schema_coordination.cpp)

// core/v1 Event and the messages other groups share (schema_core.cpp); events.k8s.io/v1,
// discovery.k8s.io/v1, networking.k8s.io/v1 NetworkPolicy, storage.k8s.io/v1,
// admissionregistration.k8s.io/v1
extern const Message kEvent, kEventSource, kTopologySelectorTerm;
extern const Message kEventsEvent;
extern const Message kEndpointSlice;
extern const Message kNetworkPolicy;
extern const Message kStorageClass;
extern const Message kValidatingWebhookConfiguration, kMutatingWebhookConfiguration;

// --- Kinds (kinds.cpp) ----------------------------------------------------------------------------
struct KindEntry {
  std::string_view api_version;
  std::string_view kind;
  const Message* message;
};
std::span<const KindEntry> kinds();
// The top-level message for apiVersion + kind, or nullptr. Option kinds (DeleteOptions) are
// accepted under every group version that has a kind here, and under meta.k8s.io/v1.
const Message* find_kind(std::string_view api_version, std::string_view kind);

}  // namespace capstan::apiserver::protobuf::schema
