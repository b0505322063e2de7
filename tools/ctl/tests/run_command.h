// Runs one metropolisctl command in-process, as its main would: the server's
// address and the token from the environment, stdout and stderr captured. What
// the command tests against real services share.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "tools/ctl/commands.h"

namespace metropolis::ctl::testing {

struct Outcome {
  int code = -1;
  std::string out, err;
};

using RunFn = int (*)(const std::vector<std::string>&, const GetEnv&);

// METROPOLIS_HOST is `host`; METROPOLIS_TOKEN is `token` unless it is empty.
inline Outcome RunCommand(RunFn run, const std::vector<std::string>& args, const std::string& host,
                          const std::string& token) {
  std::map<std::string, std::string> vars = {{"METROPOLIS_HOST", host}};
  if (!token.empty()) vars["METROPOLIS_TOKEN"] = token;
  const GetEnv env = [vars](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
  Outcome o;
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  o.code = run(args, env);
  o.err = ::testing::internal::GetCapturedStderr();
  o.out = ::testing::internal::GetCapturedStdout();
  return o;
}

}  // namespace metropolis::ctl::testing
