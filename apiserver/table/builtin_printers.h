// Table converters for the built-in kinds the embedded API server hosts, with the columns, column
// descriptions and cell formats of kube-apiserver's pkg/printers/internalversion/printers.go.
//
// Server-side printing is always "wide": every row carries the priority-1 cells too and kubectl
// hides those columns unless -o wide. Fields kube-apiserver would have defaulted before printing
// (spec.replicas = 1, Service type ClusterIP, port protocol TCP, Secret type Opaque, Namespace
// phase Active, CronJob suspend false) are treated as defaulted when absent.
//
// Covered (group/resource): namespaces, configmaps, secrets, services, endpoints,
// serviceaccounts, pods, events (core and events.k8s.io), persistentvolumeclaims; apps
// deployments, statefulsets, replicasets, daemonsets; batch jobs, cronjobs; policy
// poddisruptionbudgets; coordination.k8s.io leases; discovery.k8s.io endpointslices;
// networking.k8s.io ingresses, ingressclasses, networkpolicies; rbac.authorization.k8s.io
// rolebindings, clusterrolebindings; admissionregistration.k8s.io
// validating/mutatingwebhookconfigurations. Everything else (roles, clusterroles,
// customresourcedefinitions, ...) has no printer upstream and uses default_converter().
#pragma once

#include "apiserver/table/converter.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace capstan::apiserver::table {

// The printer for a built-in resource ("" for the core group), or nullptr when upstream has none.
const Converter* builtin_converter(std::string_view group, std::string_view resource);
// builtin_converter(), falling back to default_converter().
const Converter& converter_for(std::string_view group, std::string_view resource);
// Every (group, resource) with a printer.
std::vector<std::pair<std::string, std::string>> builtin_resources();

}  // namespace capstan::apiserver::table
