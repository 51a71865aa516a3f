"""`todo ui` driven through a private tmux server (tmux -L NAME -f /dev/null), read only through
`tmux capture-pane -p`: each capture is one tmux client process (~2-3 ms, whose mean the tables
print), part of every ui figure. The server is stopped by kill-server on its socket."""
import os, re, shlex, subprocess, time

from .proc import wait_gone

SAMPLE_LIMIT_S = 5.0          # one sample that takes longer counts as timed out (recorded at this value)
LOAD_LIMIT_S = 240.0          # the whole list must be in `todo ui` by then (a million todos before issue 38: minutes)
# A todo row of `todo ui`: "> [ ]   12  2024-05-01  Buy milk" (the cursor's row starts with '>').
TODO_ROW = re.compile(r"^[> ] +\[([ x])\] +(\d+)  ", re.MULTILINE)


def cursor_box(text):
    """The check box (" " or "x") of the cursor's row on the screen, None when there is none."""
    match = TODO_ROW.match(next((line for line in text.splitlines() if line.startswith(">")), ""))
    return match.group(1) if match else None


def cursor_line(text):
    return next((line for line in text.splitlines() if line.startswith(">")), "")


def pause(index):
    """20-30 ms between samples, spread by the sample's index."""
    time.sleep(0.02 + 0.01 * (index * 7919 % 10) / 10)


class Tmux:
    """A private tmux server (its own socket, no config file) with one 100x30 window "ui"."""

    def __init__(self, name):
        self.name = name
        self.polls = 0
        self.poll_time = 0.0
        self.ui_pid = None

    def __call__(self, *args, check=True):
        result = subprocess.run(["tmux", "-L", self.name, "-f", "/dev/null"] + list(args), capture_output=True, text=True)
        if check and result.returncode != 0:
            raise RuntimeError(f"tmux {args[0]} failed: {result.stderr.strip()}")
        return result.stdout

    def __enter__(self):
        # The server and window exist before any launch is timed: a user's terminal is already open.
        self("new-session", "-d", "-s", "ui", "-x", "100", "-y", "30", "exec sleep 3600")
        self("set-option", "-t", "ui", "remain-on-exit", "on")  # a ui that dies leaves its screen
        return self

    def __exit__(self, *exc):
        self("kill-server", check=False)
        if self.ui_pid:
            wait_gone(self.ui_pid)

    @staticmethod
    def ui_command(todo, path, env=""):
        # The default sort (status) named, so that the sort a person's ui state file remembers
        # does not change what is measured.
        return f"{env}exec {shlex.quote(todo)} --db {shlex.quote(path)} ui --sort status"

    def screen(self):
        start = time.monotonic()
        text = self("capture-pane", "-p", "-t", "ui")
        self.polls += 1
        self.poll_time += time.monotonic() - start
        return text

    def poll(self, done, limit=SAMPLE_LIMIT_S):
        """Captures the pane until done(screen) is true; the time it took (s) and whether it did."""
        start = time.monotonic()
        while time.monotonic() - start < limit:
            if done(self.screen()):
                return time.monotonic() - start, True
        return limit, False

    def keys(self, *keys):
        self("send-keys", "-t", "ui", *keys)

    def pane_pid(self):
        return int(self("display-message", "-p", "-t", "ui", "#{pane_pid}").strip())

    def capture_ms(self):
        """The mean time of one capture-pane, ms."""
        return self.poll_time / max(self.polls, 1) * 1000

    def launch(self, command):
        """Replaces the pane's process by `command` (the one before gone first); returns when
        (time.monotonic()) respawn-pane was started."""
        previous = self.pane_pid()
        self("respawn-pane", "-k", "-t", "ui", "exec sleep 3600")
        wait_gone(previous)
        start = time.monotonic()
        self("respawn-pane", "-k", "-t", "ui", command)
        return start

    def adopt_ui(self):
        """Records the pane's process as the ui (stopped at the end); checks it is todo."""
        self.ui_pid = self.pane_pid()
        with open(f"/proc/{self.ui_pid}/comm") as f:
            if f.read().strip() != "todo":
                raise RuntimeError("the pane's process is not todo")
        return self.ui_pid

    def toggle(self, limit=SAMPLE_LIMIT_S):
        """Space on the cursor's todo: whether the cursor row showed the other box within `limit`."""
        box = cursor_box(self.screen())
        self.keys("Space")
        return self.poll(lambda text: cursor_box(text) not in (box, None), limit=limit)[1]

    def off_repeats(self):
        """Moves the cursor down (j) past repeating todos (a row with ↻): space on one moves it
        to its next date and leaves its box empty, so a toggle would never show."""
        for _ in range(50):
            line = cursor_line(self.screen())
            if "↻" not in line:
                return
            self.keys("j")
            self.poll(lambda text: cursor_line(text) != line)
        raise RuntimeError("no todo that does not repeat near the top of todo ui's list")

    def loaded(self, size):
        """A space pressed now takes effect once the whole list is in (todo ui loads it in slices
        after the first screen); a second one puts the todo back. Returns when (time.monotonic())
        the first one showed: an upper bound of the load's end. The cursor is moved off
        repeating todos first (off_repeats)."""
        self.off_repeats()
        if not self.toggle(LOAD_LIMIT_S):
            raise RuntimeError(f"todo ui did not load {size:,} todos in {LOAD_LIMIT_S} s")
        shown = time.monotonic()
        if not self.toggle():
            raise RuntimeError("todo ui did not toggle back")
        return shown


def tmux_name(what):
    return f"todo-bench-{os.getpid()}-{what}"
