#include "apiserver/table/builtin_printers.h"

#include "apiserver/table/printers_internal.h"

namespace capstan::apiserver::table {
namespace {

const std::vector<printers::Entry>& registry() {
  static const std::vector<printers::Entry> entries = [] {
    std::vector<printers::Entry> e;
    printers::add_core(e);
    printers::add_workloads(e);
    printers::add_others(e);
    printers::add_nodes(e);
    printers::add_storage(e);
    printers::add_autoscaling(e);
    return e;
  }();
  return entries;
}

}  // namespace

const Converter* builtin_converter(std::string_view group, std::string_view resource) {
  for (const auto& e : registry())
    if (e.group == group && e.resource == resource) return &e.converter;
  return nullptr;
}

const Converter& converter_for(std::string_view group, std::string_view resource) {
  if (const auto* c = builtin_converter(group, resource)) return *c;
  return default_converter();
}

std::vector<std::pair<std::string, std::string>> builtin_resources() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& e : registry()) out.emplace_back(e.group, e.resource);
  return out;
}

}  // namespace capstan::apiserver::table
