"""Running and timing processes, and stopping every one started (by pid or process group), on
errors and on SIGTERM/SIGHUP too: `install_signal_handlers` turns those signals into SystemExit,
which unwinds every part's `finally`, and `stop` is what each of them calls."""
import contextlib, os, resource, signal, socket, subprocess, sys, threading, time

from .stats import p50

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROCESS_LIMIT_S = 600         # any one measured process (a sync, vdirsyncer, a helper) is killed after this long
SERVER_START_LIMIT_S = 15     # a server must answer on its port by then


def log(message):
    print(message, file=sys.stderr, flush=True)


def install_signal_handlers():
    """A stop signal unwinds like an error, so every process started is stopped."""
    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, lambda n, frame: sys.exit(128 + n))


def run(command, **kwargs):
    """A process run to its end, which must succeed: its stdout."""
    return subprocess.run(command, check=True, capture_output=True, text=True, **kwargs).stdout


def stop(process, grace=5):
    """Stops a child by pid: SIGTERM, then SIGKILL after `grace` seconds."""
    if process is not None and process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def kill_group(process):
    """Kills a child started with start_new_session=True, and its children, by its group's id."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()


def watchdog(process, limit=PROCESS_LIMIT_S):
    """A started timer that kills the process's group past `limit` seconds; cancel it after."""
    def fire():
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    timer = threading.Timer(limit, fire)
    timer.daemon = True
    timer.start()
    return timer


def run_timed(command, env=None, input=None, limit=PROCESS_LIMIT_S):
    """Runs a whole process (in its own process group, so a time-out also stops its children,
    by that group's id): its wall seconds, the CPU seconds of it and the children it waited for
    (user + system), and its stdout. Fails when it fails or outlives `limit`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = process.communicate(input=input.encode() if input is not None else None, timeout=limit)
    except subprocess.TimeoutExpired:
        kill_group(process)
        raise RuntimeError(f"{os.path.basename(command[0])} {command[1:3]} took over {limit} s")
    except BaseException:
        kill_group(process)
        raise
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(command[:4])}... exited {process.returncode}: {err.decode(errors='replace')[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu, out.decode(errors="replace")


@contextlib.contextmanager
def environment(**values):
    """Runs the block with `values` set in os.environ (what wall_ms's processes inherit), and
    puts back what was there before, on errors too."""
    saved = {key: os.environ.get(key) for key in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def wall_ms(command):
    """The wall time of one whole process, in ms."""
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return (time.perf_counter() - start) * 1000


def side_by_side_ms(ours, theirs, runs):
    """p50 wall ms of two commands run in turn `runs` times each, so that drift (cache, CPU
    frequency) hits both alike."""
    a, b = [], []
    for _ in range(runs):
        a.append(wall_ms(ours))
        b.append(wall_ms(theirs))
    return p50(a), p50(b)


def peak_rss_mib(command):
    """Peak resident memory of a command, through GNU time: a child's ru_maxrss taken with
    os.wait4 would report this Python process's size, which survives fork and exec."""
    result = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, check=True)
    return int(result.stderr.strip().splitlines()[-1]) / 1024


def memory_mib(pid):
    """VmRSS and VmHWM of a process, in MiB."""
    with open(f"/proc/{pid}/status") as f:
        fields = dict(line.split(":", 1) for line in f)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def wait_gone(pid, limit=5.0):
    """Waits for a process that is not our child to exit; kills it if it does not."""
    deadline = time.monotonic() + limit
    while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return
        except OSError:
            return
        time.sleep(0.005)
    if os.path.exists(f"/proc/{pid}"):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_answers(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False
