"""The binaries measured, built when a part first needs them.

A measured run (full or --quick) builds release binaries:
  todo, TodoBench   static (--static-swift-stdlib -static-executable) in .build: the core figures,
                    the scale table and the ui filter
  todo, todo-sync   as scripts/install builds them, todo static in .build-bench and todo-sync (libcurl
                    and libxml2 do not link statically) in .build-companion, copied side by side into
                    the run's temporary folder (`todo sync` runs the todo-sync beside its own
                    executable): the sync, syncread and transport parts
  bench-baseline    scripts/bench-baseline.c, cc -O2, on libsqlite3
--smoke builds nothing of Swift: it takes todo, TodoBench and todo-sync from the debug build that
scripts/test has made (`swift build --show-bin-path`), where todo-sync is beside todo already.
"""
import os, shutil, subprocess

from .proc import ROOT, log, run

STATIC = ["-c", "release", "--static-swift-stdlib", "-Xswiftc", "-static-executable"]
COMPANION = ["-c", "release", "--static-swift-stdlib"]


class Binaries:
    def __init__(self, work, smoke):
        self.work, self.smoke = work, smoke
        self._core = self._sync = self._baseline = self._debug = None
        self._set_up = smoke  # scripts/test ran scripts/setup already

    def setup(self):
        """Installs what is missing: scripts/setup-tests where there is one (the servers, tmux and
        tools the parts run, once setup installs only what a build needs), else scripts/setup."""
        if not self._set_up:
            tests = os.path.join(ROOT, "scripts", "setup-tests")
            subprocess.run([tests if os.path.exists(tests) else os.path.join(ROOT, "scripts", "setup")], check=True)
            self._set_up = True

    def debug_folder(self):
        if self._debug is not None:
            return self._debug
        folder = run(["swift", "build", "--show-bin-path"], cwd=ROOT).strip()
        missing = [name for name in ("todo", "TodoBench", "todo-sync") if not os.access(os.path.join(folder, name), os.X_OK)]
        if missing:
            raise RuntimeError(f"--smoke runs the debug build, which lacks {', '.join(missing)} in {folder}: "
                               f"run TODO_OPTIMISED_TESTS=1 swift build --build-tests first (scripts/test does)")
        self._debug = folder
        return folder

    def baseline(self):
        """The C baseline, compiled into the run's folder (a smoke run) or .build."""
        if self._baseline is None:
            self.setup()
            self._baseline = os.path.join(self.work if self.smoke else os.path.join(ROOT, ".build"), "bench-baseline")
            subprocess.run(["cc", "-O2", "-o", self._baseline, os.path.join(ROOT, "scripts", "bench-baseline.c"),
                            "-lsqlite3"], check=True)
        return self._baseline

    def core(self):
        """(TodoBench, todo) of the core figures, the scale table and the ui filter."""
        if self._core is None:
            self.setup()
            if self.smoke:
                folder = self.debug_folder()
            else:
                log("bench: building release binaries...")
                for product in ("todo", "TodoBench"):
                    subprocess.run(["swift", "build"] + STATIC + ["--product", product], cwd=ROOT, check=True,
                                   stdout=subprocess.DEVNULL)
                folder = run(["swift", "build"] + STATIC + ["--show-bin-path"], cwd=ROOT).strip()
            self._core = os.path.join(folder, "TodoBench"), os.path.join(folder, "todo")
        return self._core

    def sync_todo(self):
        """The `todo` of the sync parts, with its todo-sync beside it."""
        if self._sync is None:
            self.setup()
            if self.smoke:
                self._sync = os.path.join(self.debug_folder(), "todo")
            else:
                self._sync = self._build_sync()
        return self._sync

    def _build_sync(self):
        log("bench: building todo and todo-sync for the sync parts (as scripts/install does)...")
        folder = os.path.join(self.work, "bin")
        os.makedirs(folder, exist_ok=True)
        for flags, product, scratch in ((STATIC, "todo", ".build-bench"), (COMPANION, "todo-sync", ".build-companion")):
            scratch = os.path.join(ROOT, scratch)
            for attempt in range(2):  # a second try: the tree may have been caught mid-edit
                built = subprocess.run(["swift", "build"] + flags + ["--product", product, "--scratch-path", scratch],
                                       cwd=ROOT, capture_output=True, text=True, timeout=1800)
                if built.returncode == 0:
                    break
            else:
                raise RuntimeError(f"building {product} failed:\n{(built.stdout + built.stderr)[-3000:]}")
            bin_dir = run(["swift", "build"] + flags + ["--scratch-path", scratch, "--show-bin-path"], cwd=ROOT).strip()
            shutil.copy2(os.path.join(bin_dir, product), os.path.join(folder, product))
        return os.path.join(folder, "todo")
