// Validation of custom resources against a structural schema, as kube-apiserver 1.32 does it:
// kube-openapi's SchemaValidator (pkg/validation/validate) produces errors that apiextensions
// (pkg/apiserver/validation, kubeOpenAPIResultToFieldErrors) turns into field errors; then the
// embedded-resource checks (schema/objectmeta) and the list-type set/map uniqueness checks
// (schema/listtype) run. Message examples (exact):
//   spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"
//   spec.secretName: Required value
//   spec.privateKey.algorithm: Unsupported value: "DSA": supported values: "RSA", "ECDSA", "Ed25519"
//   spec.name: Invalid value: "Abc": spec.name in body should match '^[a-z]+$'
//   spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1
//   spec.name: Too long: may not be more than 5 bytes
//   spec.items: Too many: 3: must have at most 2 items
//
// Ordering: Go iterates maps in random order, so upstream's order of several errors varies; we
// visit schema properties in name order and object members in document order, which is one of the
// orders upstream can produce.
#pragma once

#include "runtime/validation/field.h"
#include "apiserver/schema/model.h"
#include "runtime/json/json.h"

#include <vector>

namespace capstan::apiserver::schema {

// OpenAPI schema validation only (apiservervalidation.ValidateCustomResource). `prefix` is the
// fldPath upstream passes: nil (default) for custom resources, so errors without a property path
// get the field "<nil>", exactly as kube-apiserver reports them.
std::vector<validation::Cause> validate(const json::Value& obj, const Schema& schema, const validation::FieldPath& prefix = {});

// x-kubernetes-embedded-resource checks (objectmeta.Validate): apiVersion and kind present and
// well-formed in every embedded object (the resource root itself is not checked).
std::vector<validation::Cause> validate_embedded_resources(const json::Value& obj, const Schema& schema,
                                               const validation::FieldPath& prefix = {}, bool is_resource_root = false);

// x-kubernetes-list-type set/map uniqueness (listtype.ValidateListSetsAndMaps), e.g.
//   spec.hosts[2]: Duplicate value: "a.example.com"
//   spec.ports[1]: Duplicate value: map[string]interface {}{"name":"http"}
std::vector<validation::Cause> validate_list_sets_and_maps(const json::Value& obj, const Schema& schema,
                                               const validation::FieldPath& prefix = {});

// Whether `schema` or any schema below it has x-kubernetes-validations (CEL) rules.
bool has_validation_rules(const Schema& schema);

// The cause kube-apiserver adds when schema errors kept it from running a CRD's CEL rules:
//   <nil>: Invalid value: null: some validation rules were not checked because ...
validation::Cause rules_not_checked();

// All of the above in the order customResourceStrategy.Validate appends them. Metadata validation
// (ObjectMeta name/labels rules), CEL rules and scale checks are the caller's.
std::vector<validation::Cause> validate_custom_resource(const json::Value& obj, const Schema& schema);

}  // namespace capstan::apiserver::schema
