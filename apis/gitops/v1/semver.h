// Semantic versions and the range constraints of GitRepository spec.ref.semver, as Flux reads
// them (Masterminds/semver v3):
//   - versions: "1.2.3", "v1.2.3", "1.2" and "1" (missing parts are 0), "-pre.release" and
//     "+build" suffixes; precedence as semver 2.0 (build metadata ignored);
//   - constraints: comparators =, !=, >, <, >=, <=, ~ (~1.2.3 is >=1.2.3 <1.3.0), ^ (^1.2.3 is
//     >=1.2.3 <2.0.0, ^0.2.3 is >=0.2.3 <0.3.0), x/X/* wildcards (1.2.x is >=1.2.0 <1.3.0),
//     hyphen ranges (1.2 - 1.4.5), AND by spaces or commas, OR by "||";
//   - a pre-release version matches only a constraint group that names a pre-release.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::apis::gitops::v1 {

struct Version {
  long major = 0, minor = 0, patch = 0;
  std::vector<std::string> prerelease;
  std::string original;

  // nullopt when `text` is not a version.
  static std::optional<Version> parse(std::string_view text);
  // <0, 0, >0 by semver precedence.
  int compare(const Version& other) const;
};

class SemverConstraint {
 public:
  // Throws std::invalid_argument naming the part that is not a constraint.
  static SemverConstraint parse(std::string_view text);
  bool matches(const Version& v) const;

  struct Bound {
    enum class Op { kEq, kNe, kGt, kGe, kLt, kLe } op;
    Version version;
  };

 private:
  std::vector<std::vector<Bound>> any_of_;  // OR of ANDs
};

}  // namespace capstan::apis::gitops::v1
