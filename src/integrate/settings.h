// How the driver integrates (driver.h): plain data, filled by whoever runs it (the app, from a
// scenario's `simulation` section: scenario::integration_settings).
#pragma once

namespace uwsim::integrate {

enum class Method { rk4, dopri5 };

struct Settings {
  Method method = Method::rk4;
  double duration = 10.0;     // s
  double step = 1e-3;         // s: rk4 step; dopri5 first trial step
  double max_step = 0.0;      // s: dopri5 step bound (0: none)
  double abs_tol = 1e-8;
  double rel_tol = 1e-8;
  double output_rate = 50.0;  // Hz
};

}  // namespace uwsim::integrate
