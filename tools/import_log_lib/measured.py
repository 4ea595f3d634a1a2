"""One measured row in sim's series: bodies/<body>/position/north|east|down [m],
…/euler/roll|pitch|yaw [rad], …/velocity/u|v|w [m/s] and p|q|r [rad/s] (the columns of sim's
datasets, `sim describe`), from whatever a log holds at one time, through the import's Frames."""
from . import frames as fr

POSITION = ("north", "east", "down")
EULER = ("roll", "pitch", "yaw")
LINEAR = ("u", "v", "w")
ANGULAR = ("p", "q", "r")


def columns(body, have):
    """Header cells for the groups in `have` (a set of 'position', 'down', 'euler', 'linear', 'angular')."""
    out = []
    base = f"bodies/{body}/"
    if "position" in have:
        out += [f"{base}position/{c} [m]" for c in POSITION]
    elif "down" in have:
        out.append(f"{base}position/down [m]")
    if "euler" in have:
        out += [f"{base}euler/{c} [rad]" for c in EULER]
    if "linear" in have:
        out += [f"{base}velocity/{c} [m/s]" for c in LINEAR]
    if "angular" in have:
        out += [f"{base}velocity/{c} [rad/s]" for c in ANGULAR]
    return out


class Row:
    """Converts one time's log values into the row's cells, in the order of columns()."""

    def __init__(self, frames, have):
        self.frames, self.have = frames, have

    def cells(self, R_log=None, p_log=None, down=None, lin=None, lin_world=False, ang=None, ang_world=False,
              euler_log=None):
        """R_log, or euler_log (roll, pitch, yaw of R_log = Rz Ry Rx): when no axes change, the
        angles are written as they are (wrapped), not recomputed from R."""
        f = self.frames
        R = eul = None
        if euler_log is not None and f.identity():
            eul = tuple(fr.wrap(a) for a in euler_log)
            if lin_world or ang_world:
                R = fr.rotation_from_euler(*euler_log)
        elif euler_log is not None or R_log is not None:
            R = f.attitude(R_log if R_log is not None else fr.rotation_from_euler(*euler_log))
            eul = fr.euler_from_rotation(R)
        out = []
        if "position" in self.have:
            out += f.position(p_log)
        elif "down" in self.have:
            out.append(down)
        if "euler" in self.have:
            out += eul
        for group, vec, world in (("linear", lin, lin_world), ("angular", ang, ang_world)):
            if group in self.have:
                out += f.world_vector_to_body(vec, R) if world else f.body_vector(vec)
        return out
