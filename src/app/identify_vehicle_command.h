// `sim identify --vehicle`: a free vehicle's hydrodynamic and thruster parameters from whole
// recordings, by output error with multiple shooting (app/vehicle_fit.h builds the residuals,
// analysis/output_error.h fits them).
//   sim identify --vehicle --record SCENARIO MEASURED [--record …] [--validate SCENARIO MEASURED]…
//                --unknown NAME… [--body NAME] [--window S] [--from S] [--to S]
//                [-o REPORT] [--write-part PART.yaml]
// Each SCENARIO replays its recording's inputs (CSV channels) on the vehicle; MEASURED holds the
// vehicle's measured velocities and attitude (tools/import_log writes it). The unknowns are
// shared by every recording and start from the first scenario's values.
#pragma once

#include <string>
#include <vector>

namespace uwsim::app {

// Parses the command line after "identify" (args[0] is the program) and runs it; the exit code.
int identify_vehicle_main(std::vector<char*> args, const std::string& command_line);

}  // namespace uwsim::app
