"""The CalDAV servers the sync and transport parts run (Debian's Radicale and Xandikos, through
/usr/bin/python3), each on a free port of 127.0.0.1 with its data in its own temporary folder,
stopped by pid (SIGTERM, SIGKILL after 5 s); `stop_all` stops those still running. And what
every sync figure shares: the databases made by `todo import`, the same todos as VTODOs, the
environment `todo sync` runs in."""
import base64, http.client, json, os, re, subprocess, tempfile, time

from . import userdata
from .proc import PROCESS_LIMIT_S, SERVER_START_LIMIT_S, free_port, port_answers, run, run_timed, stop

SERVER_PYTHON = "/usr/bin/python3"   # the Debian python, which has radicale and xandikos (a pyenv python3 may not)
MKCOL_VTODO = ('<?xml version="1.0" encoding="utf-8"?>\n<D:mkcol xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">'
               '<D:set><D:prop><D:resourcetype><D:collection/><C:calendar/></D:resourcetype>'
               '<D:displayname>tasks</D:displayname><C:supported-calendar-component-set><C:comp name="VTODO"/>'
               '</C:supported-calendar-component-set></D:prop></D:set></D:mkcol>')
RUNNING = []                         # servers started and not yet stopped
USER, PASSWORD = "alice", "secret"   # Radicale's plain htpasswd user


def stop_all():
    for server in list(RUNNING):
        server.stop()


class Server:
    """A server process on a free port (three tries: a port clash makes it die), its log in its
    folder. Subclasses say how to start it (`command`) and whether it asks for a password."""
    user = password = None
    kind = "server"

    def __init__(self, work, name):
        self.process = None
        for attempt in range(3):
            self.folder = tempfile.mkdtemp(prefix=f"{self.kind}-{name}-", dir=work)
            self.port = free_port()
            self.log_path = os.path.join(self.folder, "server.log")
            command = self.command()
            with open(self.log_path, "w") as log_file:
                self.process = subprocess.Popen(command, stdout=log_file, stderr=log_file, stdin=subprocess.DEVNULL,
                                                env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": self.folder})
            RUNNING.append(self)
            deadline = time.monotonic() + SERVER_START_LIMIT_S
            while self.process.poll() is None and not port_answers(self.port) and time.monotonic() < deadline:
                time.sleep(0.02)
            if self.process.poll() is None and port_answers(self.port):
                return
            self.stop()  # a port clash (it died) or too slow: try another port
        raise RuntimeError(f"{self.kind} did not start: {self.log()[-1000:]}")

    def command(self):
        raise NotImplementedError

    def headers(self):
        if self.user is None:
            return {}
        return {"Authorization": "Basic " + base64.b64encode(f"{self.user}:{self.password}".encode()).decode()}

    def request(self, method, path, body=None, headers={}, timeout=30):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers={**self.headers(), **headers})
            response = connection.getresponse()
            response.read()
            return response.status
        finally:
            connection.close()

    def mkcol(self, path):
        """A fresh VTODO collection at `path`, by extended MKCOL."""
        status = self.request("MKCOL", path, MKCOL_VTODO.encode(), {"Content-Type": "application/xml; charset=utf-8"})
        if status != 201:
            raise RuntimeError(f"MKCOL {path} on {self.kind} answered {status}")
        return path

    def log(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def stop(self):
        if self in RUNNING:
            RUNNING.remove(self)
        stop(self.process)


class Radicale(Server):
    """Radicale with a plain htpasswd user alice:secret, logging at info level (one line per
    request received, one per answer with the time Radicale spent on it: how requests are
    counted), and a VTODO collection /alice/tasks/ made by extended MKCOL."""
    kind = "radicale"
    user, password = USER, PASSWORD
    LINE = re.compile(r"\] ([A-Z]+) (request|response status) for '[^']*'(?: with depth '[^']*')?(?: in ([0-9.]+) seconds)?")

    def __init__(self, work, name):
        super().__init__(work, name)
        self.url = f"http://127.0.0.1:{self.port}/{self.user}/tasks/"
        self.mkcol(f"/{self.user}/tasks/")
        self.collection = os.path.join(self.storage, "collection-root", self.user, "tasks")

    def command(self):
        users, config = os.path.join(self.folder, "users"), os.path.join(self.folder, "config")
        self.storage = os.path.join(self.folder, "storage")
        with open(users, "w") as f:
            f.write(f"{self.user}:{self.password}\n")
        with open(config, "w") as f:
            f.write(f"[server]\nhosts = 127.0.0.1:{self.port}\n"
                    f"[auth]\ntype = htpasswd\nhtpasswd_filename = {users}\nhtpasswd_encryption = plain\ndelay = 0\n"
                    f"[storage]\nfilesystem_folder = {self.storage}\n"
                    f"[logging]\nlevel = info\nmask_passwords = True\n")
        return [SERVER_PYTHON, "-m", "radicale", "--config", config]

    def mark(self):
        """Where the log is now: requests() counts from here."""
        return os.path.getsize(self.log_path)

    def requests(self, since):
        """Requests received since the mark, by method, and the seconds Radicale reports having
        spent answering them (summed: requests in flight together overlap)."""
        with open(self.log_path, errors="replace") as f:
            f.seek(since)
            text = f.read()
        methods, seconds = {}, 0.0
        for match in self.LINE.finditer(text):
            if match.group(2) == "request":
                methods[match.group(1)] = methods.get(match.group(1), 0) + 1
            elif match.group(3):
                seconds += float(match.group(3))
        return methods, seconds

    def stored(self):
        return sum(1 for name in os.listdir(self.collection) if name.endswith(".ics"))


class Xandikos(Server):
    """Xandikos (--defaults, --route-prefix /), no authentication; collections under
    /user/calendars/."""
    kind = "xandikos"

    def command(self):
        return [SERVER_PYTHON, "-m", "xandikos.web", "--defaults", "-d", os.path.join(self.folder, "data"),
                "-l", "127.0.0.1", "--port", str(self.port), "--route-prefix", "/"]


def server_version(kind):
    return run([SERVER_PYTHON, "-c", f"import {kind}; print(getattr({kind}, 'VERSION', None) or "
                f"'.'.join(map(str, {kind}.__version__)))"]).strip()


def todo_env(work, password=True):
    """The environment `todo sync` runs in: its own HOME and XDG_DATA_HOME, Radicale's password
    (none for a server that asks for none)."""
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": work, "XDG_DATA_HOME": os.path.join(work, "xdg")}
    if password:
        env["TODO_SYNC_PASSWORD"] = PASSWORD
    return env


def sync_json(output):
    """The report of `todo sync --json`: its last line."""
    return json.loads(output.strip().splitlines()[-1])


def noop_sync(todo, db, env, server, limit=60):
    """One `todo sync --json` that must find nothing to do (an error if it did something): its
    wall seconds, and the requests Radicale logged for it, by method, with the seconds it spent."""
    mark = server.mark()
    seconds, _, out = run_timed([todo, "--db", db, "sync", "--json"], env=env, limit=limit)
    report = sync_json(out)
    if report["sent"] or report["received"] or report["deleted"]:
        raise RuntimeError(f"a sync with nothing to do did something: {report}")
    methods, server_seconds = server.requests(mark)
    return seconds, methods, server_seconds


def make_database(todo, work, name, count):
    """A database of `count` user-like todos (userdata.records: priorities, tags, notes, repeats,
    a third subtasks, in one list) made by `todo import` (one transaction)."""
    path, source = os.path.join(work, f"{name}.sqlite"), os.path.join(work, f"{name}.json")
    with open(source, "w") as f:
        json.dump(userdata.records(todo, work, count), f)
    run([todo, "--db", path, "import", source], env=todo_env(work), timeout=120)
    return path


def vtodo_objects(todo, work, name, count):
    """The same todos as make_database's, as one iCalendar object each ({uid: text}): `todo
    export --format ics` of a copy (its own file, so the todo contender's UIDs are new), split at
    each VTODO into a VCALENDAR of its own, as todo sync sends them."""
    path = make_database(todo, work, name, count)
    text = run([todo, "--db", path, "export", "--format", "ics"], env=todo_env(work), timeout=120)
    newline = "\r\n" if "\r\n" in text else "\n"
    header = f"BEGIN:VCALENDAR{newline}VERSION:2.0{newline}PRODID:-//todo//todo//EN{newline}"
    objects = {}
    for block in re.findall(r"BEGIN:VTODO.*?END:VTODO\r?\n", text, re.S):
        uid = re.search(r"^UID:(.*?)\r?$", block, re.M).group(1)
        objects[uid] = header + block + f"END:VCALENDAR{newline}"
    if len(objects) != count:
        raise RuntimeError(f"todo export gave {len(objects)} VTODOs, not {count}")
    return objects


def write_objects(folder, objects):
    """Each object as FOLDER/UID.ics, byte for byte."""
    for uid, text in objects.items():
        with open(os.path.join(folder, f"{uid}.ics"), "w", newline="") as f:
            f.write(text)


def setup_and_sync(todo, db, url, env, user=None, limit=PROCESS_LIMIT_S):
    """`todo sync setup URL` (not timed), then one `todo sync --json` timed: its wall and CPU
    seconds and its report."""
    run_timed([todo, "--db", db, "sync", "setup", url] + (["--user", user] if user else []), env=env, limit=120)
    seconds, cpu, out = run_timed([todo, "--db", db, "sync", "--json"], env=env, limit=limit)
    return seconds, cpu, sync_json(out)
