// Service configuration: every setting is a flag and an environment variable.
// A flag given on the command line wins over the variable, which wins over
// the default; --help lists both names.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "lib/flags/flags.h"

namespace metropolis::services {

class Settings {
 public:
  // `env_prefix` e.g. "METROPOLIS_GAMEHOST_": flag "decision-ms" reads
  // METROPOLIS_GAMEHOST_DECISION_MS.
  Settings(std::string program, std::string summary, std::string env_prefix);

  // Declares a setting with its default (shown in --help).
  void Add(std::string name, std::string value_name, std::string default_value, std::string help);

  // A switch without a value (flag only).
  void AddSwitch(std::string name, std::string help) { flags_.Add({std::move(name), "", std::move(help)}); }
  bool Has(std::string_view name) const { return flags_.Has(name); }

  // Parses argv; on --help prints the usage and returns false with *exit_code 0;
  // on an error prints it with the usage hint and returns false with *exit_code 2.
  bool Parse(int argc, char** argv, int* exit_code);

  std::string Get(std::string_view name) const;
  // Typed reads; false with *error naming the flag and the variable.
  bool GetInt(std::string_view name, int64_t min, int64_t max, int64_t* out, std::string* error) const;

  std::string EnvName(std::string_view name) const;
  const cli::Flags& flags() const { return flags_; }

 private:
  struct Entry {
    std::string name, default_value;
  };
  cli::Flags flags_;
  std::string env_prefix_;
  std::string program_;
  std::vector<Entry> entries_;
};

}  // namespace metropolis::services
