// Extension points of the REST core: admission (webhooks), version conversion, write guards.
#pragma once

#include "apiserver/registry/resource.h"
#include "apiserver/rest/user.h"
#include "runtime/json/json.h"

#include <string>
#include <vector>

namespace capstan::apiserver::rest {

struct AdmissionAttributes {
  const registry::ResourceInfo* resource = nullptr;
  std::string version;       // the version the object is expressed in
  std::string subresource;
  std::string operation;     // CREATE | UPDATE | DELETE
  std::string ns;
  std::string name;
  const json::Value* old_object = nullptr;
  const User* user = nullptr;
  bool dry_run = false;
  json::Value options;       // CreateOptions / UpdateOptions / DeleteOptions
};

class Admission {
 public:
  virtual ~Admission() = default;
  // Mutating webhooks, in order; may change `obj` (null object for DELETE). Throws ApiError.
  virtual void mutate(const AdmissionAttributes& a, json::Value* obj, std::vector<std::string>& warnings) = 0;
  // Validating webhooks. Throws ApiError on denial.
  virtual void validate(const AdmissionAttributes& a, const json::Value* obj, std::vector<std::string>& warnings) = 0;
};

class Converter {
 public:
  virtual ~Converter() = default;
  // Converts objects of `r` to `to_version` (objects already there are left alone). Throws
  // ApiError when a conversion webhook fails.
  virtual void convert(const registry::ResourceInfo& r, std::vector<json::Value*>& objects, std::string_view to_version) = 0;
};

// Checks a create or update against its final object, after mutating admission and before
// validation (kube's RBAC storage refuses privilege escalation there), or, with
// after_validation(), as a built-in validating admission plugin of kube-apiserver does: after
// the object's validation, before the validating webhooks. Throws ApiError.
class WriteGuard {
 public:
  virtual ~WriteGuard() = default;
  virtual void check(const AdmissionAttributes& a, const json::Value& obj) = 0;
  virtual bool after_validation() const { return false; }
};

}  // namespace capstan::apiserver::rest
