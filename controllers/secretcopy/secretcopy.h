// The smallest controller, and the example docs/architecture.md walks through: it copies a
// Secret into the namespaces a label selector picks, which cert-manager users ask for to share
// one certificate's Secret (cert-manager leaves it to reflector, kubed or trust-manager).
//
//   Source  a Secret labelled secretcopy.capstan.dev/source=true and annotated
//           secretcopy.capstan.dev/namespace-selector: "team=web" (a label selector; "" selects
//           every namespace).
//   Copies  a Secret of the same name, type and data in each selected namespace but the
//           source's own, labelled secretcopy.capstan.dev/copy=true and annotated
//           secretcopy.capstan.dev/source: <namespace>/<name>. A copy follows its source's data
//           and is deleted when the source goes or stops selecting its namespace. A Secret that
//           is not a copy is never overwritten (a Warning event on the source says so).
//
// Only labelled Secrets are cached (two narrowed informers), and Namespaces.
#pragma once

#include "runtime/plugin/plugin.h"

namespace capstan::secretcopy {

// "secretcopy", off by default (--controllers=*,secretcopy; chart controllers.secretcopy.enabled).
plugin::Plugin plugin();

}  // namespace capstan::secretcopy
