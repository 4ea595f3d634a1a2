"""Frame conversions into sim's conventions: world NED, body FRD, R_WB = Rz(yaw) Ry(pitch) Rx(roll),
quaternions [w x y z] rotating body to world (README "Frames, names and sign conventions").

A log names its own axes by three letters, one per log axis x, y, z: world axes from N S E W U D
(ROS REP 103: ENU; ArduPilot: NED), body axes from F B L R U D (REP 103: FLU; ArduPilot: FRD).
C_W maps a log-world vector into NED, C_B a log-body vector into FRD; then
    p_NED = C_W p_log,   v_FRD = C_B v_logbody,   R_NED,FRD = C_W R_log C_Bᵀ."""
import math

from .errors import UsageError

_WORLD = {"N": (1, 0, 0), "S": (-1, 0, 0), "E": (0, 1, 0), "W": (0, -1, 0), "D": (0, 0, 1), "U": (0, 0, -1)}
_BODY = {"F": (1, 0, 0), "B": (-1, 0, 0), "R": (0, 1, 0), "L": (0, -1, 0), "D": (0, 0, 1), "U": (0, 0, -1)}


def _det(m):
    return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))


def axes_matrix(code, body, option):
    """The 3x3 matrix whose column k is where the log's axis k points, in NED (world) or FRD (body)."""
    table = _BODY if body else _WORLD
    letters = code.upper()
    if len(letters) != 3 or any(c not in table for c in letters):
        raise UsageError(f"{option} {code}: expected three letters from {' '.join(table)} (one per axis x, y, z)")
    cols = [table[c] for c in letters]
    m = [[cols[k][i] for k in range(3)] for i in range(3)]
    d = _det(m)
    if d == 0:
        raise UsageError(f"{option} {code}: two axes point the same way")
    if d < 0:
        raise UsageError(f"{option} {code}: a left-handed frame (a mirror image cannot be a rotation)")
    return m


def matmul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def transpose(a):
    return [[a[j][i] for j in range(3)] for i in range(3)]


def apply(a, v):
    return (a[0][0] * v[0] + a[0][1] * v[1] + a[0][2] * v[2], a[1][0] * v[0] + a[1][1] * v[1] + a[1][2] * v[2],
            a[2][0] * v[0] + a[2][1] * v[1] + a[2][2] * v[2])


def rotation_from_quaternion(w, x, y, z):
    """R of a unit quaternion (normalised here: logs round them)."""
    n = math.sqrt(w * w + x * x + y * y + z * z)
    if not n > 0.0 or not math.isfinite(n):
        return None
    w, x, y, z = w / n, x / n, y / n, z / n
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]


def rotation_from_euler(roll, pitch, yaw):
    """R = Rz(yaw) Ry(pitch) Rx(roll)."""
    cr, sr, cp, sp, cy, sy = math.cos(roll), math.sin(roll), math.cos(pitch), math.sin(pitch), math.cos(yaw), math.sin(yaw)
    return [[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
            [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
            [-sp, cp * sr, cp * cr]]


def euler_from_rotation(r):
    """roll, pitch, yaw of R = Rz Ry Rx, as sim writes them (src/spatial/rotation.h)."""
    sin_pitch = max(-1.0, min(1.0, -r[2][0]))
    return math.atan2(r[2][1], r[2][2]), math.asin(sin_pitch), math.atan2(r[1][0], r[0][0])


def wrap(angle):
    """Into (−π, π]."""
    a = math.fmod(angle, 2.0 * math.pi)
    if a <= -math.pi:
        a += 2.0 * math.pi
    elif a > math.pi:
        a -= 2.0 * math.pi
    return a


def rz(angle):
    c, s = math.cos(angle), math.sin(angle)
    return [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]


class Frames:
    """The conversions one import applies, and the sentences that state them in a CSV's header."""

    def __init__(self, world, body, zero_heading=False, zero_position=False, defaults_from=""):
        self.world_code, self.body_code = world.upper(), body.upper()
        self.C_W = axes_matrix(world, False, "--world-axes")
        self.C_B = axes_matrix(body, True, "--body-axes")
        self.zero_heading, self.zero_position = zero_heading, zero_position
        self.defaults_from = defaults_from
        self.heading0 = None     # set by the first attitude when zero_heading
        self.position0 = None    # set by the first position when zero_position
        self._Z = None

    def identity(self):
        """True when attitudes pass unchanged: log axes NED and FRD, no heading zeroed."""
        eye = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
        return self.C_W == eye and self.C_B == eye and not self.zero_heading

    def attitude(self, R_log):
        """R_NED,FRD of a log attitude, with the zeroed heading if asked for."""
        R = matmul(matmul(self.C_W, R_log), transpose(self.C_B))
        if self.zero_heading:
            if self.heading0 is None:
                self.heading0 = euler_from_rotation(R)[2]
                self._Z = rz(-self.heading0)
            R = matmul(self._Z, R)
        return R

    def position(self, p_log):
        p = apply(self.C_W, p_log)
        if self.zero_position:
            if self.position0 is None:
                self.position0 = p
            p = (p[0] - self.position0[0], p[1] - self.position0[1], p[2] - self.position0[2])
        if self.zero_heading and self._Z is not None:
            p = apply(self._Z, p)
        return p

    def body_vector(self, v_logbody):
        return apply(self.C_B, v_logbody)

    def world_vector_to_body(self, v_logworld, R_NED_FRD):
        """A log-world vector (a world-frame twist) in body FRD, through the converted attitude."""
        v = apply(self.C_W, v_logworld)
        if self.zero_heading and self._Z is not None:
            v = apply(self._Z, v)
        return apply(transpose(R_NED_FRD), v)

    def describe(self):
        lines = [f"world axes of the log: {self.world_code} (x, y, z point {', '.join(_name(c) for c in self.world_code)})"
                 f" -> NED; body axes: {self.body_code} -> FRD" + (f" ({self.defaults_from})" if self.defaults_from else ""),
                 "euler: roll, pitch, yaw of R_NED,FRD = Rz(yaw) Ry(pitch) Rx(roll), rad; velocity: body FRD, "
                 "u v w m/s, p q r rad/s"]
        if self.zero_heading:
            lines.append("heading zeroed: the world is turned about down by minus the first sample's yaw"
                         + (f" ({self.heading0:.6f} rad)" if self.heading0 is not None else "")
                         + "; positions turn with it")
        if self.zero_position:
            lines.append("positions from the first sample's position")
        return lines


def _name(c):
    return {"N": "north", "S": "south", "E": "east", "W": "west", "U": "up", "D": "down", "F": "forward",
            "B": "back", "L": "left", "R": "right"}[c]
