#include "lib/common/settings.h"

#include <cstdlib>
#include <iostream>

namespace metropolis::services {

Settings::Settings(std::string program, std::string summary, std::string env_prefix)
    : flags_("", "[flags]", std::move(summary)), env_prefix_(std::move(env_prefix)), program_(std::move(program)) {
  flags_.set_program(program_);
}

std::string Settings::EnvName(std::string_view name) const {
  std::string env = env_prefix_;
  for (char c : name) env.push_back(c == '-' ? '_' : char(std::toupper(static_cast<unsigned char>(c))));
  return env;
}

void Settings::Add(std::string name, std::string value_name, std::string default_value, std::string help) {
  help += " (env " + EnvName(name) + (default_value.empty() ? "" : "; default " + default_value) + ")";
  flags_.Add({name, value_name, help});
  entries_.push_back({std::move(name), std::move(default_value)});
}

bool Settings::Parse(int argc, char** argv, int* exit_code) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string error;
  if (!flags_.Parse(args, &error)) {
    std::cerr << program_ << ": " << error << "\n(see --help)\n";
    *exit_code = 2;
    return false;
  }
  if (flags_.Help()) {
    std::cout << flags_.Usage();
    *exit_code = 0;
    return false;
  }
  return true;
}

std::string Settings::Get(std::string_view name) const {
  if (flags_.Has(name)) return flags_.Get(name);
  if (const char* env = std::getenv(EnvName(name).c_str())) return env;
  for (const Entry& e : entries_)
    if (e.name == name) return e.default_value;
  return "";
}

bool Settings::GetInt(std::string_view name, int64_t min, int64_t max, int64_t* out, std::string* error) const {
  const std::string text = Get(name);
  if (!cli::ParseInt(text, min, max, out)) {
    *error = "--" + std::string(name) + " (or " + EnvName(name) + "): '" + text + "' is not an integer in " +
             std::to_string(min) + ".." + std::to_string(max);
    return false;
  }
  return true;
}

}  // namespace metropolis::services
