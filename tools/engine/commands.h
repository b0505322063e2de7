// The subcommands of metropolis-engine. Each takes the arguments after its
// name and returns the process exit code (common.h).
#pragma once

#include <string>
#include <vector>

namespace metropolis::cli {

int RunSim(const std::vector<std::string>& args);
int RunReplay(const std::vector<std::string>& args);
int RunApply(const std::vector<std::string>& args);
int RunPerft(const std::vector<std::string>& args);
int RunArena(const std::vector<std::string>& args);
int RunGolden(const std::vector<std::string>& args);
int RunSeaMap(const std::vector<std::string>& args);
int RunVerify(const std::vector<std::string>& args);
int RunAnalyse(const std::vector<std::string>& args);
int RunReference(const std::vector<std::string>& args);

}  // namespace metropolis::cli
