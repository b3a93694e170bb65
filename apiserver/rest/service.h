// The REST semantics of kube-apiserver over the store: create/get/list/update/patch/delete
// with metadata management (uid, generation, finalizers, deletionTimestamp), status and
// scale subresources, optimistic concurrency, managed fields and server-side apply,
// schema defaulting/pruning/validation for CRDs, built-in strategies and admission.
// HTTP-independent: the HTTP handlers and the in-server controllers both use it.
#pragma once

#include "apiserver/registry/resource.h"
#include "apiserver/rest/api_error.h"
#include "apiserver/rest/hooks.h"
#include "apiserver/storage/store.h"
#include "runtime/meta/selector.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace capstan::apiserver::rest {

struct Target {
  registry::ResourcePtr res;
  std::string version;      // requested version ("v1")
  std::string ns;
  std::string name;
  std::string subresource;  // "", "status", "scale"
};

struct WriteOptions {
  std::string field_manager;
  bool dry_run = false;
  std::string field_validation = "Warn";  // Ignore | Warn | Strict
  User user = User::system();
  std::vector<std::string> warnings;      // filled in
  // Members the request body repeats ("metadata.name"), found while reading it: reported as
  // strict decoding errors or warnings per field_validation.
  std::vector<std::string> duplicate_fields;
};

enum class PatchType { Json, Merge, Strategic, Apply };

struct DeleteOptions {
  std::string propagation;          // "" (type default) | Orphan | Background | Foreground
  std::optional<std::int64_t> grace_period;
  std::string precondition_uid;
  std::string precondition_rv;
  bool dry_run = false;
  User user = User::system();
};

struct ListOptions {
  meta::LabelSelector labels;
  meta::FieldSelector fields;
  std::size_t limit = 0;
  std::string continue_token;
  std::string resource_version;
  std::string resource_version_match;
};

struct ListResult {
  std::vector<json::Value> items;  // in the requested version
  std::string resource_version;
  std::string continue_token;
  std::optional<std::int64_t> remaining;
};

class Service {
 public:
  Service(storage::Store& store, registry::Registry& registry);

  void set_admission(Admission* a) { admission_ = a; }
  void set_converter(Converter* c) { converter_ = c; }
  // Guards run in the order added; clear_write_guards() before they go.
  void add_write_guard(WriteGuard* g) { guards_.push_back(g); }
  void clear_write_guards() { guards_.clear(); }
  // Runs the guards of that stage (WriteGuard::after_validation).
  void run_guards(const AdmissionAttributes& a, const json::Value& obj, bool after_validation) {
    for (auto* g : guards_)
      if (g->after_validation() == after_validation) g->check(a, obj);
  }
  storage::Store& store() { return store_; }
  registry::Registry& registry() { return registry_; }

  json::Value get(const Target& t);
  ListResult list(const Target& t, const ListOptions& o);
  // The same page as stored objects (shared, with their serialised JSON), for responses that
  // need no conversion: t.version must be the storage version.
  struct RawList {
    std::vector<storage::Object> items;
    std::string resource_version;
    std::string continue_token;
    std::optional<std::int64_t> remaining;
  };
  RawList list_raw(const Target& t, const ListOptions& o);

  // Waits briefly for the store to reach resourceVersion `rv` (as the watch cache waits for a
  // resourceVersion from the future); throws kube's 504 "Too large resource version" otherwise.
  void wait_for_resource_version(std::int64_t rv);

  struct WriteResult {
    json::Value object;
    bool created = false;
  };
  WriteResult create(const Target& t, json::Value body, WriteOptions& o);
  WriteResult update(const Target& t, json::Value body, WriteOptions& o);
  WriteResult patch(const Target& t, PatchType type, std::string_view body, bool force, WriteOptions& o);

  struct DeleteResult {
    json::Value body;       // the object (pending or returned) or a Status
    bool deleted = false;   // removed from storage now
  };
  DeleteResult remove(const Target& t, const DeleteOptions& o);
  json::Value delete_collection(const Target& t, const ListOptions& lo, const DeleteOptions& o);

  // Converts stored objects of `r` into `version` (CRD conversion strategy).
  void to_version(const registry::ResourceInfo& r, std::vector<json::Value*>& objs, std::string_view version);
  json::Value to_version(const registry::ResourceInfo& r, json::Value obj, std::string_view version);

  // Whether an object passes field selector terms (metadata.name, metadata.namespace and the
  // per-kind fields kube supports). Throws ApiError(400) for unsupported fields.
  static bool field_match(const registry::ResourceInfo& r, const json::Value& obj, const meta::FieldSelector& fs);
  static void check_field_selector(const registry::ResourceInfo& r, const meta::FieldSelector& fs);

 private:
  WriteResult create_impl(const Target& t, json::Value body, WriteOptions& o, bool managed_fields_set);
  // Turns a requested new state into the object to store (storage version): subresource
  // rules, preserved metadata, finalizer rules, strategy, CRD schema, admission, validation,
  // generation and (unless already done by server-side apply) managed fields.
  json::Value prepare_update_object(const Target& t, const json::Value& old, json::Value next, WriteOptions& o,
                                    bool managed_fields_set);
  // Stores `next` over `current` (compare-and-swap); deletes instead when a pending deletion
  // lost its last finalizer. Throws storage::StaleError on a concurrent write.
  WriteResult commit_update(const Target& t, const storage::Object& current, json::Value next);
  void prepare_custom_resource(const registry::ResourceInfo& r, std::string_view version, json::Value& obj,
                               WriteOptions& o, bool is_patch);
  // Throws the 422 for an invalid object; adds warnings (ratcheted CEL failures, a CRD's rules
  // that are not evaluated here) to `warnings`.
  void validate_object(const registry::ResourceInfo& r, std::string_view version, const json::Value& obj,
                       const json::Value* old, std::vector<std::string>& warnings);
  void check_namespace_for_create(const registry::ResourceInfo& r, std::string_view ns);
  // Built-in kinds decoded as their Go structs (service_decode.cpp): unknown members dropped and
  // reported per o.field_validation, wrong types refused. A create/update body (400 "... cannot be
  // handled as a ..."), a patched object (422 invalid `patch`), a server-side apply configuration
  // (500 "failed to create typed patch object").
  void decode_body(const registry::ResourceInfo& r, std::string_view version, json::Value& body, WriteOptions& o);
  // The body of a create or update is of the URL's type: a built-in body's missing apiVersion
  // and kind come from the URL, a body of another type is refused as kube's decoder refuses it.
  void check_body_type(const registry::ResourceInfo& r, std::string_view version, json::Value& body);
  void decode_patched(const registry::ResourceInfo& r, std::string_view version, PatchType type,
                      const json::Value& patch_doc, json::Value& patched, WriteOptions& o);
  void check_apply(const registry::ResourceInfo& r, std::string_view version, const json::Value& doc);
  DeleteResult finalize_delete(const Target& t, const storage::Object& current, const DeleteOptions& o);

  storage::Store& store_;
  registry::Registry& registry_;
  Admission* admission_ = nullptr;
  Converter* converter_ = nullptr;
  std::vector<WriteGuard*> guards_;
};

// The list merge semantics for SSA / strategic merge of a resource version.
const patch::ListTypes& list_types_for(const registry::ResourceInfo& r, std::string_view version);

// A random RFC 4122 v4 UUID.
std::string new_uid();
// Removes empty metadata maps and lists (labels, annotations, finalizers, ...), which the Go
// types omit when empty.
void drop_empty_metadata(json::Value& obj);
// Whether two objects differ outside metadata and status (what bumps metadata.generation).
bool spec_differs(const json::Value& a, const json::Value& b);

}  // namespace capstan::apiserver::rest
