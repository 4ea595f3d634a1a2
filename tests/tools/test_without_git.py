#!/usr/bin/python3
"""The tools and the build work where git is not installed and the code came as a tarball
(issue 43, trap 0: on a Debian 12 minbase, `tools/quickstart test` died in tools/bench_vs_mujoco
calling `git describe`).

  test_without_git.py SOURCE_DIR SIM BENCH_STEP MUJOCO_BENCH

Every program on PATH but git is linked into a folder that becomes the only PATH, so any
`git` a tool runs is "not found", as on that machine. Then:
  1. tools/bench_vs_mujoco --dry-run (as the ctest smoke test runs it) exits 0, or 77 where
     MuJoCo is missing, and its report names sim's version and says that the commit is unknown;
  2. tools/mutate's copy of the tree, made without git, holds exactly the files git lists
     (tracked and untracked, not ignored, without build/), where git is here to ask;
  3. that copy, a tree without .git as a tarball is, configures with CMake, and the generated
     version header carries the project's version.
"""
import importlib.machinery
import importlib.util
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile


def path_without_git(folder):
    """A folder of links to every program on PATH except git (first on PATH wins)."""
    folder.mkdir()
    for entry in os.environ.get("PATH", "").split(os.pathsep):
        if not entry or not os.path.isdir(entry):
            continue
        for name in os.listdir(entry):
            if name == "git" or name.startswith("git-") or (folder / name).exists():
                continue
            program = os.path.join(entry, name)
            if os.path.isfile(program) and os.access(program, os.X_OK):
                (folder / name).symlink_to(program)
    return str(folder)


def load_mutate(root):
    loader = importlib.machinery.SourceFileLoader("mutate_tool", str(root / "tools" / "mutate"))
    spec = importlib.util.spec_from_loader("mutate_tool", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def main():
    root, sim, bench_step, mujoco_bench = (pathlib.Path(a).resolve() for a in sys.argv[1:5])
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        no_git = path_without_git(tmp / "bin")
        env = dict(os.environ, PATH=no_git)
        probe = subprocess.run(["/bin/sh", "-c", "command -v git"], env=env, capture_output=True)
        if probe.returncode == 0:
            print("the PATH without git still finds git:", probe.stdout.decode(), file=sys.stderr)
            return 1

        # 1. the benchmark's dry run
        bench = subprocess.run(
            ["/usr/bin/python3", str(root / "tools" / "bench_vs_mujoco"), "--dry-run", "--no-build", "--modules", "2,3",
             "--sim", str(sim), "--bench-step", str(bench_step), "--mujoco-bench", str(mujoco_bench),
             "--work-dir", str(tmp / "bench"), "--skip-status", "77"],
            env=env, capture_output=True, text=True)
        version = subprocess.run([str(sim), "--version"], capture_output=True, text=True).stdout.strip()
        if bench.returncode not in (0, 77):
            failures.append(f"bench_vs_mujoco --dry-run without git exited {bench.returncode}:\n"
                            f"{bench.stderr[-3000:]}")
        elif f"{version} (no git here: commit unknown)" not in bench.stdout:
            failures.append(f"bench_vs_mujoco's report does not say '{version} (no git here: commit unknown)':\n"
                            f"{bench.stdout[-2000:]}")
        else:
            print(f"bench_vs_mujoco --dry-run without git: exit {bench.returncode}, '{version}' named")

        # 2. tools/mutate's copy of the tree, made with git hidden
        mutate = load_mutate(root)
        saved = os.environ["PATH"]
        os.environ["PATH"] = no_git
        try:
            copy = tmp / "tarball"
            copy.mkdir()
            mutate.copy_tree(str(copy))
        finally:
            os.environ["PATH"] = saved
        copied = sorted(str(p.relative_to(copy)) for p in copy.rglob("*") if p.is_file())
        if shutil.which("git") and (root / ".git").exists():
            listed = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--others",
                                     "--exclude-standard"], capture_output=True, check=True).stdout.decode()
            expected = sorted(rel for rel in listed.split("\0")
                              if rel and not rel.startswith("build/") and (root / rel).is_file())
            if copied != expected:
                extra = sorted(set(copied) - set(expected))[:10]
                missing = sorted(set(expected) - set(copied))[:10]
                failures.append(f"tools/mutate's copy without git differs from git's list: extra {extra}, missing {missing}")
            else:
                print(f"tools/mutate without git copies the {len(copied)} files git lists")
        elif "CMakeLists.txt" not in copied or any(rel.startswith("build/") for rel in copied):
            failures.append("tools/mutate's copy without git lacks CMakeLists.txt or holds build/")

        # 3. the copy (no .git: a tarball) configures without git
        configure = subprocess.run(["cmake", "-S", str(copy), "-B", str(tmp / "build"), "-DCMAKE_BUILD_TYPE=Release"],
                                   env=env, capture_output=True, text=True)
        cmake_version = re.search(r"project\(uwsim VERSION (\S+)", (root / "CMakeLists.txt").read_text()).group(1)
        header = tmp / "build" / "generated" / "version.h"
        if configure.returncode != 0:
            failures.append(f"cmake on a tree without .git and without git exited {configure.returncode}:\n"
                            f"{configure.stderr[-3000:]}")
        elif f'"{cmake_version}"' not in header.read_text():
            failures.append(f"{header} does not carry version {cmake_version}")
        else:
            print(f"a tree without .git configures without git; version.h says {cmake_version}")

    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
