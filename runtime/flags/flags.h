// Command-line flags in the Kubernetes style (pflag's, as kube-controller-manager takes them): --name=value or --name value, booleans as
// --name / --name=false, -v=N; unknown flags and bad values are usage errors (exit 2).
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::flags {

class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& what, std::string usage = {})
      : std::runtime_error(what), usage_(std::move(usage)) {}
  // The command's flags (FlagSet::usage()) when the error is that a flag is unknown.
  const std::string& usage() const { return usage_; }

 private:
  std::string usage_;
};

// A boolean flag's value as Go's flag package reads it here: true|1|"" (the bare flag), false|0;
// anything else is a UsageError naming --`name`.
bool parse_bool(const std::string& name, const std::string& v);

class FlagSet {
 public:
  explicit FlagSet(std::string command) : command_(std::move(command)) {}

  void add_string(const std::string& name, std::string* target, const std::string& help);
  void add_bool(const std::string& name, bool* target, const std::string& help);
  // An integer within [min, max] (a UsageError names the bounds).
  void add_int(const std::string& name, long long* target, const std::string& help,
               long long min = std::numeric_limits<long long>::min(), long long max = std::numeric_limits<long long>::max());
  void add_double(const std::string& name, double* target, const std::string& help);
  // A value parsed by `parse` (which throws UsageError with a message on bad input).
  void add_custom(const std::string& name, std::function<void(const std::string&)> parse, const std::string& help,
                  const std::string& default_text, bool boolean = false);

  // A Go duration ("500ms", "1m30s"), at least 0; `default_text` is shown in usage().
  void add_duration(const std::string& name, std::chrono::milliseconds* target, const std::string& help,
                    const std::string& default_text);
  // A size in bytes as Kubernetes quantities write it ("256Mi", "1Gi", "500M", "1048576"),
  // at least 0; `default_text` is shown in usage().
  void add_bytes(const std::string& name, std::function<void(std::size_t)> set, const std::string& help,
                 const std::string& default_text);
  // Parses args; returns positional arguments. Throws UsageError (carrying usage() for an
  // unknown flag). Sets help_requested().
  std::vector<std::string> parse(const std::vector<std::string>& args);
  bool help_requested() const { return help_; }
  // Whether `name` was given on a parsed command line (or set()).
  bool changed(const std::string& name) const { return changed_.count(name) != 0; }
  // Sets `name` as if given as --name=value (UsageError on an unknown name or a bad value).
  void set(const std::string& name, const std::string& value);
  std::string usage() const;

 private:
  struct Flag {
    std::string help;
    std::string default_text;
    bool boolean = false;
    std::function<void(const std::string&)> set;
  };
  std::string command_;
  std::map<std::string, Flag> flags_;
  std::vector<std::string> order_;
  std::set<std::string> changed_;
  bool help_ = false;
};

// "a, b,,c" -> {"a", "b", "c"}: a comma-separated flag value, items trimmed, empty ones dropped.
std::vector<std::string> split_csv(std::string_view s);

}  // namespace capstan::flags
