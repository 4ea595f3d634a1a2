// `type: ardusub_mixer` (README "Controllers"): ArduSub's MANUAL mode from six RC channels onto
// the scenario's thrusters (control/ardusub_mixer.h). Motor k drives the thruster named in
// `thrusters` (k-th), else the one named `motork`, else the one thruster whose name ends in
// `/motork` (a part included under a name).
#include <algorithm>
#include <string>

#include "scenario/actuation_sections.h"
#include "scenario/controller_sections.h"

namespace uwsim::scenario {

namespace {

// The thrusters named `motork` (1-based), or else ending in `/motork`, for each motor: one name,
// several (ambiguous) or none.
std::vector<std::vector<std::string>> motor_candidates(const ControllerContext& cx, int motors) {
  std::vector<std::vector<std::string>> found(static_cast<std::size_t>(motors));
  for (int k = 1; k <= motors; ++k) {
    const std::string own = "motor" + std::to_string(k), suffix = "/" + own;
    auto& names = found[static_cast<std::size_t>(k - 1)];
    if (std::find(cx.thruster_names.begin(), cx.thruster_names.end(), own) != cx.thruster_names.end()) {
      names.push_back(own);
      continue;
    }
    for (const std::string& name : cx.thruster_names)
      if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
        names.push_back(name);
  }
  return found;
}

// Without `thrusters`: motor k drives its one candidate; none or several is one error.
void default_motor_thrusters(Reader& r, const Field& at, const ControllerContext& cx, ControllerSpec& c) {
  const auto found = motor_candidates(cx, control::motor_count(c.mixer.frame));
  std::string missing;
  bool ambiguous = false;
  for (std::size_t k = 0; k < found.size(); ++k) {
    if (found[k].size() == 1) {
      c.thrusters.push_back(found[k].front());
      continue;
    }
    c.thrusters.emplace_back();
    if (found[k].empty()) {
      missing += (missing.empty() ? "" : ", ") + std::to_string(k + 1);
    } else if (!ambiguous) {  // the first ambiguous motor stands for the others
      r.error(at, "motor " + std::to_string(k + 1) + ": several thrusters end in '/motor" + std::to_string(k + 1) +
                      "' (" + quoted_names(found[k]) + "): name the mixer's own in 'thrusters' (motor 1 first)");
      ambiguous = true;
    }
  }
  if (!missing.empty())
    r.error(at, "no thruster for motor(s) " + missing + ": motor k drives the thruster named 'motork', or the one "
                "whose name ends in '/motork' (a part included under a name); name them in 'thrusters' (motor 1 first)");
}

void read_mixer_thrusters(Reader& r, Mapping& m, const Field& type, const ControllerContext& cx, ControllerSpec& c) {
  const int n = control::motor_count(c.mixer.frame);
  const Field list = m.get("thrusters");
  if (!list.present()) {
    default_motor_thrusters(r, type, cx, c);
    return;
  }
  auto items = r.sequence(list);
  if (!items) return;
  if (items->size() != static_cast<std::size_t>(n)) {
    r.error(list, "expected " + std::to_string(n) + " thruster names, motor 1 first (the frame has " +
                      std::to_string(n) + " motors), got " + std::to_string(items->size()));
    return;
  }
  for (const Field& item : *items) {
    auto s = r.string(item);
    if (!s) {
      c.thrusters.emplace_back();
      continue;
    }
    if (std::find(cx.thruster_names.begin(), cx.thruster_names.end(), *s) == cx.thruster_names.end())
      r.error(item, did_you_mean("thruster", *s, cx.thruster_names));
    else if (std::find(c.thrusters.begin(), c.thrusters.end(), *s) != c.thrusters.end())
      r.error(item, "thruster '" + *s + "' is listed twice");
    c.thrusters.push_back(*s);
  }
}

void read_directions(Reader& r, const Field& f, control::SubMixerSettings& s) {
  if (!f.present()) return;
  const int n = control::motor_count(s.frame);
  const auto d = r.numbers(f, n, Sign::any, "");
  if (!d) return;
  for (int k = 0; k < n; ++k) {
    if ((*d)[k] != 1.0 && (*d)[k] != -1.0) {
      r.error(f, "expected each MOTk_DIRECTION as 1 or -1, got " + to_text((*d)[k]) + " for motor " + std::to_string(k + 1));
      return;
    }
    s.direction[static_cast<std::size_t>(k)] = (*d)[k];
  }
}

}  // namespace

void read_ardusub_mixer(Reader& r, Mapping& m, const ControllerContext& cx, ControllerSpec& c) {
  control::SubMixerSettings& s = c.mixer;
  const Field frame = m.require("frame");
  const auto f = r.choice(frame, {"vectored", "vectored_6dof"});
  if (!f) return;
  s.frame = *f == 0 ? control::SubFrame::vectored : control::SubFrame::vectored_6dof;
  read_commands(r, m.require("rc"), cx.channels, c.rc, 6);
  read_mixer_thrusters(r, m, frame, cx, c);
  read_directions(r, m.get("directions"), s);
  const Field range = m.get("rc_range");
  if (auto v = r.numbers(range, 3, Sign::positive, "us")) {
    if (!((*v)[0] < (*v)[1] && (*v)[1] < (*v)[2]))
      r.error(range, "expected [min, trim, max] increasing (ArduSub's RCn_MIN, RCn_TRIM, RCn_MAX)");
    else
      s.rc_min = (*v)[0], s.rc_trim = (*v)[1], s.rc_max = (*v)[2];
  }
  m.read("dead_zone", s.dead_zone, Sign::non_negative, "us");
  if (s.dead_zone >= std::min(s.rc_trim - s.rc_min, s.rc_max - s.rc_trim))
    r.error(m.get("dead_zone"), "expected a dead zone inside the stick's travel (" + to_text(s.rc_trim - s.rc_min) + " us), got " + to_text(s.dead_zone));
  m.read("yaw_scale", s.yaw_scale, Sign::non_negative, "");
  const Field coupling = m.get("forward_vertical_coupling");
  if (coupling.present() && s.frame != control::SubFrame::vectored)
    r.error(coupling, "applies to frame 'vectored' only (ArduSub's MOT_FV_CPLNG_K acts in output_armed_stabilizing_vectored())");
  else
    m.read("forward_vertical_coupling", s.forward_vertical_coupling, Sign::non_negative, "");
  const Field pwm = m.get("pwm_limits");
  if (auto v = r.numbers(pwm, 2, Sign::positive, "us")) {
    if (!((*v)[0] < 1500.0 && 1500.0 < (*v)[1]))
      r.error(pwm, "expected [MOT_PWM_MIN, MOT_PWM_MAX] around the neutral 1500 us, got [" + to_text((*v)[0]) + ", " + to_text((*v)[1]) + "]");
    else
      s.pwm_min = (*v)[0], s.pwm_max = (*v)[1];
  }
}

}  // namespace uwsim::scenario
