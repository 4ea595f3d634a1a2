// The numbers of a URDF part as the reader checks them before urdfdom reads them (urdfdom takes
// a mass of "nan", "0,35" or "1e400" as no mass, so that a link fixed to another vanished
// without a word, and a link a joint moves was reported as having no <inertial>), and the
// bound on one element's attributes (TinyXML's duplicate check made 60 000 of them take 30 s).
// Every problem is named at its attribute's line and column, with what is wrong.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "scenario/urdf_part.h"

using namespace uwsim::scenario;

namespace {

// Line 3 holds the tip's inertial, line 4 the joint: each case replaces one of the fields.
struct Robot {
  std::string mass = "1", ixx = "1", type = "fixed", xyz = "0 0 0.1", effort = "1", damping = "0";
  std::string inertia_rest = "iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"";
  std::string mass_element() const { return "<mass value=\"" + mass + "\"/>"; }
  std::vector<std::string> lines() const {
    return {"<robot name=\"r\">",
            "  <link name=\"base\"><inertial><mass value=\"1\"/><inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" "
            "ixz=\"0\" iyz=\"0\"/></inertial></link>",
            "  <link name=\"tip\"><inertial>" + (mass == "none" ? std::string() : mass_element()) +
                (ixx == "none" ? std::string() : "<inertia ixx=\"" + ixx + "\" " + inertia_rest + "/>") + "</inertial></link>",
            "  <joint name=\"j\" type=\"" + type + "\"><parent link=\"base\"/><child link=\"tip\"/><origin xyz=\"" +
                xyz + "\"/><limit lower=\"-1\" upper=\"1\" effort=\"" + effort +
                "\" velocity=\"1\"/><dynamics damping=\"" + damping + "\"/></joint>",
            "</robot>"};
  }
  std::string text() const {
    std::string t;
    for (const std::string& l : lines()) t += l + "\n";
    return t;
  }
};

std::vector<Diagnostic> problems(const std::string& text) {
  std::vector<Diagnostic> out;
  const auto part = read_urdf_part("r.urdf", text, out);
  CHECK(part.has_value() == out.empty());
  return out;
}

// The one problem of `robot`: at line `line`, at the column where `at` starts in that line,
// with `message` in it.
void check_one(const Robot& robot, int line, const std::string& at, const std::string& message) {
  const std::vector<Diagnostic> ds = problems(robot.text());
  REQUIRE(ds.size() == 1);
  CAPTURE(ds[0].message);
  CHECK(ds[0].line == line);
  const std::size_t column = robot.lines()[static_cast<std::size_t>(line - 1)].find(at);
  REQUIRE(column != std::string::npos);
  CHECK(ds[0].column == static_cast<int>(column) + 1);
  CHECK(ds[0].message.find(message) != std::string::npos);
}

}  // namespace

TEST_CASE("urdf values: the robot the cases change reads") {
  Robot robot;
  CHECK(problems(robot.text()).empty());
  robot.type = "revolute";
  CHECK(problems(robot.text()).empty());
}

TEST_CASE("urdf values: a mass that is no number is named at its attribute, fixed or moving") {
  for (const char* type : {"fixed", "revolute"}) {
    CAPTURE(type);
    Robot robot;
    robot.type = type;
    robot.mass = "nan";
    check_one(robot, 3, "value=\"nan\"",
              "link 'tip': <mass value=\"nan\">: \"nan\" is not a finite number; expected a mass (kg; 0 for a frame");
    robot.mass = "0,35";
    check_one(robot, 3, "value=\"0,35\"", "\"0,35\" is not a number (the decimal point is '.', not ',')");
    robot.mass = "1e400";
    check_one(robot, 3, "value=\"1e400\"", "\"1e400\" is beyond the range of a double");
    robot.mass = "inf";
    check_one(robot, 3, "value=\"inf\"", "\"inf\" is not a finite number");
    robot.mass = "";
    check_one(robot, 3, "value=\"\"", "<mass value=\"\">: it holds no number");
    robot.mass = "1 2";
    check_one(robot, 3, "value=\"1 2\"", "it holds 2 numbers, one expected");
    robot.mass = "-0.5";
    check_one(robot, 3, "value=\"-0.5\"", "it is negative; expected a mass");
    robot.mass = "none";
    check_one(robot, 3, "<inertial>", "link 'tip': <inertial> has no <mass value=...>");
  }
}

TEST_CASE("urdf values: inertia, origin, limit and dynamics numbers are checked where they are written") {
  Robot robot;
  robot.ixx = "nan";
  check_one(robot, 3, "ixx=\"nan\"", "<inertia ixx=\"nan\">: \"nan\" is not a finite number; expected a moment of inertia");
  robot.ixx = "-1";
  check_one(robot, 3, "ixx=\"-1\"", "it is negative; expected a moment of inertia");
  robot.ixx = "none";  // no <inertia>: said once, not once for each of its six attributes
  check_one(robot, 3, "<inertial>", "link 'tip': <inertial> has no <inertia ixx=...>");
  robot.ixx = "1";
  robot.inertia_rest = "iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\"";
  check_one(robot, 3, "<inertia ", "link 'tip': <inertia> has no iyz");
  robot = Robot{};
  robot.xyz = "1 2";
  check_one(robot, 4, "xyz=\"1 2\"", "joint 'j': <origin xyz=\"1 2\">: it holds 2 numbers, 3 expected, separated by spaces");
  robot.xyz = "0 nan 0";
  check_one(robot, 4, "xyz=\"0 nan 0\"", "\"nan\" is not a finite number; expected the joint's position");
  robot = Robot{};
  robot.type = "revolute";
  robot.effort = "-1";  // read as "no effort limit" before, silently
  check_one(robot, 4, "effort=\"-1\"", "it is negative; expected the largest effort");
  robot.effort = "1";
  robot.damping = "-0.1";  // dropped as no damping before
  check_one(robot, 4, "damping=\"-0.1\"", "it is negative; expected a damping");
}

TEST_CASE("urdf values: a link of mass 0 that a joint moves is said to have mass 0, not no inertial") {
  Robot robot;
  robot.type = "revolute";
  robot.mass = "0";
  const std::vector<Diagnostic> ds = problems(robot.text());
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].message.find("link 'tip' has no mass (its <mass> is 0) and joint 'j' moves it") != std::string::npos);
}

TEST_CASE("urdf values: an element with over 100 attributes is refused at the element, before the parsers") {
  auto with_attributes = [](int n) {
    std::string attributes;
    for (int k = 1; k < n; ++k) attributes += " a" + std::to_string(k) + "=\"1\"";
    return "<robot name=\"r\">\n  <link name=\"base\"" + attributes +
           "><inertial><mass value=\"1\"/><inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" "
           "iyz=\"0\"/></inertial></link>\n</robot>\n";
  };
  CHECK(problems(with_attributes(100)).empty());  // name and 99 more
  const std::vector<Diagnostic> ds = problems(with_attributes(60000));
  REQUIRE(ds.size() == 1);
  CHECK(ds[0].line == 2);
  CHECK(ds[0].column == 3);
  CHECK(ds[0].message ==
        "an element with 60000 attributes; a URDF element takes at most 100 (<inertia> has six, the most of any)");
  // An '=' in a quoted value is no attribute.
  CHECK(problems("<robot name=\"a=b=c\">\n  <link name=\"base\"><inertial><mass value=\"1\"/><inertia ixx=\"1\" "
                 "iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>\n</robot>\n")
            .empty());
}
