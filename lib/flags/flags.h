// Command-line flags of one subcommand: declared with their help text, parsed
// strictly (an unknown flag or a missing value is an error), and printed as
// the subcommand's usage.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace metropolis::cli {

struct FlagSpec {
  std::string name;        // without the leading "--"
  std::string value_name;  // empty for a switch that takes no value
  std::string help;
  bool repeatable = false;
};

class Flags {
 public:
  // `synopsis` follows the program and subcommand names in the usage line,
  // e.g. "[flags] [ACTION...]"; `summary` is the paragraph under it.
  Flags(std::string command, std::string synopsis, std::string summary);

  void Add(FlagSpec spec);
  // Positional arguments are refused unless allowed.
  void AllowPositionals() { allow_positionals_ = true; }

  // Accepts "--name value", "--name=value" and "--" (everything after it is
  // positional). "--help" is always known.
  bool Parse(const std::vector<std::string>& args, std::string* error);

  bool Help() const { return Has("help"); }
  bool Has(std::string_view name) const;
  std::string Get(std::string_view name, std::string fallback = "") const;  // the last value given
  std::vector<std::string> GetAll(std::string_view name) const;
  const std::vector<std::string>& positionals() const { return positionals_; }

  // Typed reads of a flag's value, with an error naming the flag.
  bool GetInt(std::string_view name, int64_t min, int64_t max, int64_t* out, std::string* error) const;
  bool GetUint64(std::string_view name, uint64_t* out, std::string* error) const;

  std::string Usage() const;
  // The program named in the usage line ("metropolis-engine" unless set): the
  // services' programs share this parser and have no subcommand.
  void set_program(std::string program) { program_ = std::move(program); }
  const std::string& command() const { return command_; }

 private:
  const FlagSpec* Find(std::string_view name) const;

  std::string program_ = "metropolis-engine";
  std::string command_, synopsis_, summary_;
  std::vector<FlagSpec> specs_;
  bool allow_positionals_ = false;
  std::map<std::string, std::vector<std::string>, std::less<>> values_;
  std::vector<std::string> positionals_;
};

// Parses an integer with nothing around it; false if it is not one or is out
// of [min, max].
bool ParseInt(std::string_view text, int64_t min, int64_t max, int64_t* out);
bool ParseUint64(std::string_view text, uint64_t* out);

// Splits "a,b,c" on commas (empty items kept, so that errors can name them).
std::vector<std::string> SplitCommas(std::string_view text);

}  // namespace metropolis::cli
