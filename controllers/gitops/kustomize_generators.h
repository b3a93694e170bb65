// kustomize's generators: `configMapGenerator` and `secretGenerator` (with `generatorOptions`) of
// a kustomization.yaml, as kustomize v5 makes them:
//   - entries: name, namespace, behavior (create, merge, replace: merged into or replacing an
//     object of the same kind, namespace and name from the resources), literals ("key=value",
//     a value in matching quotes unquoted), files ("path" keyed by its base name, or
//     "key=path"), envs (KEY=VALUE lines; comments and blank lines skipped), options (labels,
//     annotations, disableNameSuffixHash, immutable) and, for Secrets, type (Opaque);
//   - a ConfigMap value that is not UTF-8 goes to binaryData; Secret values are base64;
//   - generated objects get kustomize's content hash as a name suffix at the end of the build
//     (add_name_hashes), and references to them follow (kustomize_names.h).
// An env line without '=' (kustomize would read the variable from its own environment) is
// refused: a controller's environment is not the repository's to read.
#pragma once

#include "runtime/json/json.h"

#include <functional>
#include <string>
#include <vector>

namespace capstan::gitops::kustomize {

// The repository file at a path relative to the kustomization's directory (throws BuildError
// when it does not exist or leaves the repository).
using ReadFile = std::function<std::string(const std::string&)>;

// Runs the generators of `kustomization` (read from `file`) over `objects`: new objects are
// appended, merge/replace change the ones there. Throws BuildError naming the entry.
// `read_secret_source` reads secretGenerator's files and env files (the build decrypts those).
void run_generators(std::vector<json::Value>& objects, const json::Value& kustomization, const std::string& file, const ReadFile& read,
                    const ReadFile& read_secret_source);

// kustomize's content hash of a ConfigMap or Secret: ten characters from SHA-256 over kind, type,
// data and binaryData as Go's encoding/json writes them.
std::string content_hash(const json::Value& obj);

// "-<content hash>" on the name of every generated object that wants one.
void add_name_hashes(std::vector<json::Value>& objects);

}  // namespace capstan::gitops::kustomize
