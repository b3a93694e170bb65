// `capstan certs`: renew, approve, deny, status and inspect against any cluster, with kubectl's
// kubeconfig conventions (--kubeconfig, $KUBECONFIG, ~/.kube/config, --context, -n, -o).
#pragma once

#include <string>
#include <vector>

namespace capstan::manager {

int certs_command(const std::vector<std::string>& args);

}  // namespace capstan::manager
