// `sim validate FILE...`: check scenario files completely without running them.
#pragma once

#include <string>
#include <vector>

namespace uwsim::app {

// Every problem of every file goes to stderr as file:line:column: error: …; a valid file gets
// one "FILE: valid" line on stdout unless quiet, after the warnings `sim run` would print
// (the scenario's, and for a scenario, not a part, rk4's stiffness: app/rk4_stiffness.h).
// Returns 0 if all are valid, else 2.
int validate_scenarios(const std::vector<std::string>& paths, const std::vector<std::string>& overrides,
                       bool quiet);

}  // namespace uwsim::app
