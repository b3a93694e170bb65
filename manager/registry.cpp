#include "manager/registry.h"

#include "controllers/certificates/plugin.h"
#include "controllers/gitops/plugin.h"
#include "controllers/kafka/plugin.h"
#include "controllers/monitoring/plugin.h"
#include "controllers/secretcopy/secretcopy.h"

namespace capstan::manager {

plugin::Registry all_controllers() {
  plugin::Registry r;
  // A new controller adds its plug-in here (and its library to manager/CMakeLists.txt).
  r.add(certificates::plugin());
  r.add(monitoring::plugin());
  r.add(kafka::plugin());
  r.add(gitops::plugin());
  r.add(secretcopy::plugin());
  return r;
}

}  // namespace capstan::manager
