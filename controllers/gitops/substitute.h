// Flux's post-build variable substitution (spec.postBuild) on the built objects:
//   - `${VAR}`, `${VAR:=default}` / `${VAR:-default}` (the default when VAR is unset or empty),
//     `${VAR=default}` / `${VAR-default}` (when unset); an unset VAR without a default is "";
//     `$${...}` is a literal `${...}`; `$VAR` without braces is left alone (as Flux, so shell
//     scripts in ConfigMaps keep theirs). Other forms (`${VAR^^}`, `${VAR:1:2}`, ...) and names
//     that are not [_a-zA-Z][_a-zA-Z0-9]* fail, naming the object and the text.
//   - Flux substitutes in each object's YAML text, where a plain scalar that was only `${VAR}`
//     reads back as what the value is (`replicas: ${N}` becomes the number 3) and a quoted one
//     stays a string (`value: "${PORT}"`). The build marks the quoted scalars that hold `${`
//     (mark_quoted) so the same happens here.
//   - objects annotated gitops.capstan.dev/substitute: disabled are left as they are (Flux's
//     kustomize.toolkit.fluxcd.io/substitute).
#pragma once

#include "runtime/json/json.h"

#include <map>
#include <string>
#include <string_view>

namespace capstan::gitops {

using Variables = std::map<std::string, std::string>;

inline constexpr std::string_view kSubstituteAnnotation = "gitops.capstan.dev/substitute";

// The quoted-string hook of the build's YAML reader (json::QuotedStringHook).
void mark_quoted(std::string& s);

// Substitutes `variables` into `obj` (see above); throws BuildError naming `what`.
void substitute_variables(json::Value& obj, const Variables& variables, const std::string& what);

// Drops the marks of mark_quoted (an object that is not substituted).
void drop_quote_marks(json::Value& obj);

}  // namespace capstan::gitops
