// mujoco_bench: MuJoCo's side of tools/bench_vs_mujoco (benchmark, not a test).
//
//   mujoco_bench version
//   mujoco_bench info MODEL.xml                  model summary as JSON (tools/bench_vs_mujoco
//                                                checks it against sim's model of the same system)
//   mujoco_bench time MODEL.xml [--seconds S] [--warmup S] [--reset-after T] [--integrator rk4|euler]
//                                                time mj_step; prints one "key=value ..." line
//
// The forcing that sim's scenarios apply is declared in the MJCF as <custom><numeric> fields
// (README.md in this folder) and applied from mjcb_control, which mj_forward calls once per
// RK4 stage with that stage's kinematics: buoyancy at each centre of buoyancy, constant
// body-frame wrenches, constant joint efforts. The models are written in sim's NED world frame
// (gravity along +z), so their numbers are sim's numbers.
#include <mujoco/mujoco.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <time.h>

namespace {

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "mujoco_bench: %s\n", message.c_str());
  std::exit(1);
}

void on_mujoco_error(const char* message) { fail(std::string("MuJoCo error: ") + message); }

int g_printed_warnings = 0;
void on_mujoco_warning(const char* message) {
  if (g_printed_warnings++ < 3) std::fprintf(stderr, "mujoco_bench: MuJoCo warning: %s\n", message);
}

// ---------------------------------------------------------------- forcing declared in the model

struct Buoyancy {  // ρ V |g| against gravity, at the centre of buoyancy
  int body;
  double volume;
  double p_BoBcb_B[3];
};

struct BodyWrench {  // constant force and moment in body axes, the force at a body-frame point
  int body;
  double f_B[3], m_B[3], p_BoP_B[3];
};

struct JointEffort {
  int dof;
  double effort;
};

struct Forcing {
  double water_density = 1000.0;
  std::vector<Buoyancy> buoyancy;
  std::vector<BodyWrench> wrenches;
  std::vector<JointEffort> efforts;
  std::vector<int> forced_bodies;  // bodies whose xfrc_applied the callback writes
};

Forcing* g_forcing = nullptr;

bool starts_with(const char* text, const char* prefix) {
  return std::strncmp(text, prefix, std::strlen(prefix)) == 0;
}

int find_id(const mjModel* m, int type, const char* name, const char* field) {
  const int id = mj_name2id(m, type, name);
  if (id < 0) fail(std::string("custom field '") + field + "' names '" + name + "', which the model does not have");
  return id;
}

void expect_size(const char* field, int size, int expected) {
  if (size != expected)
    fail(std::string("custom field '") + field + "' has " + std::to_string(size) + " numbers, expected " +
         std::to_string(expected));
}

// Fields: water_density [ρ]; buoyancy:BODY [V, x, y, z]; wrench:BODY [fx fy fz mx my mz px py pz];
// effort:JOINT [τ] (a hinge or slide joint).
Forcing read_forcing(const mjModel* m) {
  Forcing f;
  for (int i = 0; i < m->nnumeric; ++i) {
    const char* name = m->names + m->name_numericadr[i];
    const double* v = m->numeric_data + m->numeric_adr[i];
    const int n = m->numeric_size[i];
    if (std::strcmp(name, "water_density") == 0) {
      expect_size(name, n, 1);
      f.water_density = v[0];
    } else if (starts_with(name, "buoyancy:")) {
      expect_size(name, n, 4);
      f.buoyancy.push_back({find_id(m, mjOBJ_BODY, name + 9, name), v[0], {v[1], v[2], v[3]}});
    } else if (starts_with(name, "wrench:")) {
      expect_size(name, n, 9);
      f.wrenches.push_back(
          {find_id(m, mjOBJ_BODY, name + 7, name), {v[0], v[1], v[2]}, {v[3], v[4], v[5]}, {v[6], v[7], v[8]}});
    } else if (starts_with(name, "effort:")) {
      expect_size(name, n, 1);
      const int joint = find_id(m, mjOBJ_JOINT, name + 7, name);
      if (m->jnt_type[joint] != mjJNT_HINGE && m->jnt_type[joint] != mjJNT_SLIDE)
        fail(std::string("custom field '") + name + "': an effort needs a hinge or slide joint");
      f.efforts.push_back({m->jnt_dofadr[joint], v[0]});
    } else {
      fail(std::string("unknown custom field '") + name + "'");
    }
  }
  for (const auto& b : f.buoyancy) f.forced_bodies.push_back(b.body);
  for (const auto& w : f.wrenches) f.forced_bodies.push_back(w.body);
  std::sort(f.forced_bodies.begin(), f.forced_bodies.end());
  f.forced_bodies.erase(std::unique(f.forced_bodies.begin(), f.forced_bodies.end()), f.forced_bodies.end());
  return f;
}

// Adds force F_W acting at world point p_W to body b's xfrc_applied (force, then torque about
// the body's centre of mass, as MuJoCo applies it).
void add_force_at(const mjData* d, int b, const double F_W[3], const double p_W[3], double* xfrc) {
  double r[3], torque[3];
  mju_sub3(r, p_W, d->xipos + 3 * b);
  mju_cross(torque, r, F_W);
  mju_addTo3(xfrc, F_W);
  mju_addTo3(xfrc + 3, torque);
}

void body_point_in_world(const mjData* d, int b, const double p_B[3], double p_W[3]) {
  mju_rotVecMat(p_W, p_B, d->xmat + 9 * b);
  mju_addTo3(p_W, d->xpos + 3 * b);
}

// mj_forward calls this once per RK4 stage, after the stage's kinematics.
void apply_forcing(const mjModel* m, mjData* d) {
  const Forcing& f = *g_forcing;
  for (int b : f.forced_bodies) mju_zero(d->xfrc_applied + 6 * b, 6);
  for (const auto& b : f.buoyancy) {
    double F_W[3], p_W[3];
    mju_scl3(F_W, m->opt.gravity, -f.water_density * b.volume);
    body_point_in_world(d, b.body, b.p_BoBcb_B, p_W);
    add_force_at(d, b.body, F_W, p_W, d->xfrc_applied + 6 * b.body);
  }
  for (const auto& w : f.wrenches) {
    double F_W[3], M_W[3], p_W[3];
    double* xfrc = d->xfrc_applied + 6 * w.body;
    mju_rotVecMat(F_W, w.f_B, d->xmat + 9 * w.body);
    mju_rotVecMat(M_W, w.m_B, d->xmat + 9 * w.body);
    body_point_in_world(d, w.body, w.p_BoP_B, p_W);
    add_force_at(d, w.body, F_W, p_W, xfrc);
    mju_addTo3(xfrc + 3, M_W);
  }
  for (const auto& e : f.efforts) d->qfrc_applied[e.dof] = e.effort;
}

// ---------------------------------------------------------------- helpers

mjModel* load(const char* path) {
  char error[1000] = "";
  mjModel* m = mj_loadXML(path, nullptr, error, sizeof error);
  if (!m) fail(std::string("cannot load ") + path + ": " + error);
  if (error[0]) std::fprintf(stderr, "mujoco_bench: %s: %s\n", path, error);
  return m;
}

double thread_cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

int warning_count(const mjData* d) {
  int n = 0;
  for (int i = 0; i < mjNWARNING; ++i) n += d->warning[i].number;
  return n;
}

const char* joint_type(int type) {
  switch (type) {
    case mjJNT_FREE: return "free";
    case mjJNT_BALL: return "ball";
    case mjJNT_SLIDE: return "slide";
    case mjJNT_HINGE: return "hinge";
  }
  return "?";
}

void print_vector(const char* key, const double* v, int n, bool comma = true) {
  std::printf("\"%s\": [", key);
  for (int i = 0; i < n; ++i) std::printf("%s%.17g", i ? ", " : "", v[i]);
  std::printf("]%s", comma ? ", " : "");
}

// ---------------------------------------------------------------- info

int info(const char* path) {
  mjModel* m = load(path);
  mjData* d = mj_makeData(m);
  Forcing forcing = read_forcing(m);
  g_forcing = &forcing;
  mjcb_control = apply_forcing;
  mj_forward(m, d);  // world poses and accelerations at qpos0, at rest, forcing applied
  std::printf("{\"model\": \"%s\", \"nq\": %d, \"nv\": %d, \"neq\": %d, \"timestep\": %.17g, ", m->names, m->nq,
              m->nv, m->neq, m->opt.timestep);
  print_vector("gravity", m->opt.gravity, 3);
  std::printf("\"water_density\": %.17g,\n \"bodies\": [", forcing.water_density);
  for (int b = 1; b < m->nbody; ++b) {
    // Inertia about the CoM in body axes: R diag(I) Rᵀ with R from body_iquat.
    double R[9], I_B[9], tmp[9], D[9] = {0};
    mju_quat2Mat(R, m->body_iquat + 4 * b);
    for (int k = 0; k < 3; ++k) D[4 * k] = m->body_inertia[3 * b + k];
    mju_mulMatMat(tmp, R, D, 3, 3, 3);
    mju_mulMatMatT(I_B, tmp, R, 3, 3, 3);
    double quat_WB[4];
    mju_mat2Quat(quat_WB, d->xmat + 9 * b);
    std::printf("%s\n  {\"name\": \"%s\", \"parent\": \"%s\", \"mass\": %.17g, ", b > 1 ? "," : "",
                m->names + m->name_bodyadr[b], m->names + m->name_bodyadr[m->body_parentid[b]], m->body_mass[b]);
    print_vector("center_of_mass", m->body_ipos + 3 * b, 3);
    print_vector("inertia", I_B, 9);
    print_vector("position", d->xpos + 3 * b, 3);
    print_vector("quaternion", quat_WB, 4, false);
    std::printf("}");
  }
  std::printf("],\n \"joints\": [");
  for (int j = 0; j < m->njnt; ++j) {
    std::printf("%s\n  {\"name\": \"%s\", \"type\": \"%s\", \"body\": \"%s\", \"damping\": %.17g, ", j ? "," : "",
                m->names + m->name_jntadr[j], joint_type(m->jnt_type[j]),
                m->names + m->name_bodyadr[m->jnt_bodyid[j]], m->dof_damping[m->jnt_dofadr[j]]);
    print_vector("axis", m->jnt_axis + 3 * j, 3);
    const double* qacc = d->qacc + m->jnt_dofadr[j];
    if (m->jnt_type[j] == mjJNT_FREE) {
      // sim's body acceleration: the derivative of the body-frame velocity of the origin; at
      // rest that is the origin's world acceleration (MuJoCo's free-joint qacc) in body axes.
      double a_B[6];
      mju_rotVecMatT(a_B, qacc, d->xmat + 9 * m->jnt_bodyid[j]);
      mju_copy3(a_B + 3, qacc + 3);  // MuJoCo's free-joint angular DOFs are in body axes already
      print_vector("acceleration", a_B, 6, false);
    } else {
      print_vector("acceleration", qacc, m->jnt_type[j] == mjJNT_BALL ? 3 : 1, false);
    }
    std::printf("}");
  }
  std::printf("],\n \"welds\": [");
  for (int e = 0; e < m->neq; ++e) {
    if (m->eq_type[e] != mjEQ_WELD) fail("info: only weld equality constraints are supported");
    std::printf("%s[\"%s\", \"%s\"]", e ? ", " : "", m->names + m->name_bodyadr[m->eq_obj1id[e]],
                m->names + m->name_bodyadr[m->eq_obj2id[e]]);
  }
  std::printf("],\n \"buoyancy\": [");
  for (std::size_t i = 0; i < forcing.buoyancy.size(); ++i) {
    const auto& b = forcing.buoyancy[i];
    std::printf("%s{\"body\": \"%s\", \"volume\": %.17g, ", i ? ", " : "", m->names + m->name_bodyadr[b.body],
                b.volume);
    print_vector("center", b.p_BoBcb_B, 3, false);
    std::printf("}");
  }
  std::printf("],\n \"wrenches\": [");
  for (std::size_t i = 0; i < forcing.wrenches.size(); ++i) {
    const auto& w = forcing.wrenches[i];
    std::printf("%s{\"body\": \"%s\", ", i ? ", " : "", m->names + m->name_bodyadr[w.body]);
    print_vector("force", w.f_B, 3);
    print_vector("moment", w.m_B, 3);
    print_vector("point", w.p_BoP_B, 3, false);
    std::printf("}");
  }
  std::printf("],\n \"efforts\": {");
  for (std::size_t i = 0; i < forcing.efforts.size(); ++i) {
    int joint = 0;
    while (m->jnt_dofadr[joint] != forcing.efforts[i].dof) ++joint;
    std::printf("%s\"%s\": %.17g", i ? ", " : "", m->names + m->name_jntadr[joint], forcing.efforts[i].effort);
  }
  std::printf("}}\n");
  mjcb_control = nullptr;
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}

// ---------------------------------------------------------------- time

double parse_number(const char* option, const char* text) {
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  if (end == text || *end != '\0' || !std::isfinite(v) || v < 0)
    fail(std::string(option) + ": expected a number >= 0, got '" + text + "'");
  return v;
}

int time_steps(int argc, char** argv) {
  const char* path = argv[0];
  double seconds = 1.0, warmup = 0.2, reset_after = 30.0;
  std::string integrator = "rk4";
  for (int i = 1; i < argc; ++i) {
    const std::string option = argv[i];
    if (i + 1 >= argc) fail(option + ": missing value");
    const char* value = argv[++i];
    if (option == "--seconds") seconds = parse_number(argv[i - 1], value);
    else if (option == "--warmup") warmup = parse_number(argv[i - 1], value);
    else if (option == "--reset-after") reset_after = parse_number(argv[i - 1], value);
    else if (option == "--integrator") integrator = value;
    else fail("unknown option " + option);
  }
  mjModel* m = load(path);
  if (integrator == "rk4") m->opt.integrator = mjINT_RK4;
  else if (integrator == "euler") m->opt.integrator = mjINT_EULER;
  else fail("--integrator: expected rk4 or euler, got '" + integrator + "'");
  mjData* d = mj_makeData(m);
  Forcing forcing = read_forcing(m);
  g_forcing = &forcing;
  mjcb_control = apply_forcing;

  // Every `reset_after` simulated seconds (sim's run length) the state goes back to qpos0, so
  // MuJoCo spends its time in the same span of motion as sim, however long it is timed.
  const long steps_per_reset = std::max(1L, std::lround(reset_after / m->opt.timestep));
  long since_reset = 0;
  auto step = [&] {
    mj_step(m, d);
    if (++since_reset == steps_per_reset) {
      since_reset = 0;
      mju_copy(d->qpos, m->qpos0, m->nq);
      mju_zero(d->qvel, m->nv);
      d->time = 0;
    }
  };
  using Clock = std::chrono::steady_clock;
  auto elapsed = [](Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); };

  // Warm-up (caches, branch predictors, the solver's warm start), which also sizes the timed run.
  long warm_steps = 0;
  const auto warm_start = Clock::now();
  do {
    for (int i = 0; i < 50; ++i) step();
    warm_steps += 50;
  } while (elapsed(warm_start) < warmup || warm_steps < 100);
  const double estimate = elapsed(warm_start) / static_cast<double>(warm_steps);
  const long steps = std::max(100L, std::lround(seconds / estimate));

  const double cpu_start = thread_cpu_seconds();
  const auto start = Clock::now();
  for (long i = 0; i < steps; ++i) step();
  const double wall = elapsed(start);
  const double cpu = thread_cpu_seconds() - cpu_start;
  std::printf("us_per_step=%.4f cpu_us_per_step=%.4f steps=%ld nv=%d neq=%d nefc=%d solver_iter=%d warnings=%d\n",
              1e6 * wall / static_cast<double>(steps), 1e6 * cpu / static_cast<double>(steps), steps, m->nv, m->neq,
              d->nefc, d->solver_iter, warning_count(d));
  mjcb_control = nullptr;
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  mju_user_error = on_mujoco_error;
  mju_user_warning = on_mujoco_warning;
  if (mj_version() != mjVERSION_HEADER) fail("MuJoCo library and header versions differ");
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "version") {
    std::printf("MuJoCo %s\n", mj_versionString());
    return 0;
  }
  if (command == "info" && argc == 3) return info(argv[2]);
  if (command == "time" && argc >= 3) return time_steps(argc - 2, argv + 2);
  std::fprintf(stderr,
               "usage: mujoco_bench version\n"
               "       mujoco_bench info MODEL.xml\n"
               "       mujoco_bench time MODEL.xml [--seconds S] [--warmup S] [--reset-after T]"
               " [--integrator rk4|euler]\n");
  return 1;
}
