// CustomResourceDefinition defaults and validation (apiextensions-apiserver's strategy).
#pragma once

#include "apiserver/builtin/strategy.h"

namespace capstan::apiserver::builtin {

class CrdStrategy : public Strategy {
 public:
  void prepare_create(json::Value& obj) override;
  void prepare_update(json::Value& obj, const json::Value& old) override;
  std::vector<validation::Cause> validate(const json::Value& obj, const json::Value* old) override;
  // One per x-kubernetes-validations rule the embedded server does not evaluate (outside its CEL
  // subset): kube-apiserver accepts such a CRD, so we do too, but the client is told.
  std::vector<std::string> warnings(const json::Value& obj, const json::Value* old) override;
};

inline constexpr std::string_view kCrdCleanupFinalizer = "customresourcecleanup.apiextensions.k8s.io";

}  // namespace capstan::apiserver::builtin
