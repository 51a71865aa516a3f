"""A deliberately misbehaving CalDAV server for the sync tests: a reverse proxy on 127.0.0.1 in
front of a real server (Radicale), which forwards every request and, by the fault mode read from
a control file at each request, answers some of them wrongly. Python 3 standard library only.

    misbehaving_caldav.py UPSTREAM FOLDER [--time-limit SECONDS]

UPSTREAM is `http://host:port`. In FOLDER:
- `port`: written (atomically) once the proxy listens: its port on 127.0.0.1, chosen by the system.
- `control.json`: the fault mode, read at every request, `{"mode": "pass"}` when absent. Counters
  (the n-th PUT) start again whenever its text changes.
- `requests.log`: one JSON object per line and request: method, path, status, mode, kind (what the
  request is: propfind, sync-collection, calendar-query, calendar-query+data (one that asks for
  the objects), calendar-multiget, get, put, ...) and
  affected (the hrefs a fault touched); and no_trashbin, the X-NC-CalDAV-No-Trashbin header of a
  request that had one.

Modes (`{"mode": NAME, ...parameters}`):
- pass: forward everything.
- empty_listing: REPORT sync-collection answers 403 valid-sync-token (the client falls back to
  a full listing), REPORT calendar-query a 207 multistatus without responses.
- listing_without_list: both listings answer 207 with `body` ("declaration": an XML declaration
  alone, the default; "empty": nothing; "html": a well-formed document that is no multistatus).
- multiget_drop: calendar-multiget (and calendar-query+data) is forwarded; in every other
  response of its answer (the first, third, ...), by `how`: "drop" removes the response (the
  default), "strip" removes its calendar-data, "garbage" replaces its calendar-data by `not ical`;
  with `only`, just the requests of that kind.
- put_fail_nth: the `n`-th PUT (1-based, default 1) since the mode was set answers 500.
- alter_stored: each PUT is forwarded with trailing blanks trimmed from its SUMMARY value (as
  Cyrus stores it); the answer is upstream's.
- truncate_forever: REPORT sync-collection answers 207 with only the collection's own href at
  `507 Insufficient Storage` and a new sync-token each time.
- truncate_query: REPORT sync-collection answers 403 valid-sync-token (the client falls back to a
  full listing), REPORT calendar-query upstream's answer with every other response left out and
  the collection's own href at `507 Insufficient Storage`: a listing cut short (RFC 4791 7.8.1).
- inject_object: listings (sync-collection, calendar-query) also list `href` with `etag`
  (default "injected-1"); multiget and GET of it answer the object given by `object`: "nested"
  (`depth` BEGIN:X lines inside a VTODO, default 50,000), "huge" (`properties` X-A:1 lines in a
  VTODO, default 2,000,000), "garbage", or `text` itself. PUT and DELETE of it answer 404.
- status: the requests of `kind` (default "*", every request) answer `code` (default 503) with
  `Retry-After: 1` and a short text; with `forward` true, only after upstream has done the request
  (a write that landed, answered as failed); with `nth`, only the n-th request of that kind
  (1-based) since the mode was set.
- answer: the requests of `kind` (default "*"; a method's name in lower case for the others:
  mkcalendar, mkcol, proppatch, delete...) answer `code` (default 200) with `headers` (an object)
  and `body` repeated `repeat` times (default 1); with `forward` true, only after upstream has
  done the request (a collection made, answered wrongly); with `nth`, only the n-th request of
  that kind (1-based) since the mode was set.

Modes for the bounds on time and memory, each on the requests of `kind` (default
"sync-collection", the first request of a sync that holds a token); the others are forwarded:
- silent: no answer at all; the connection is held open until the client closes it.
- drip: upstream's answer, its status line and headers at once, then its body `bytes` (default
  1) at a time every `interval` seconds (default 1).
- bomb: a 207 `Content-Encoding: gzip` answer of about 1 MB that unpacks to a multistatus padded
  with `megabytes` MiB of spaces (default 1024).
- elements: a 207 multistatus of `megabytes` MB (default 50) of empty `<D:x/>` elements, sent
  chunked (no Content-Length: the client reads it until its own bound).
- deep: a 207 multistatus with `depth` elements nested in it (default 100,000).
- cut: upstream's answer cut short, then the connection closed: a connection lost mid-answer.
  With `at` "body" (the default), its head whole (Content-Length the whole body's) and half its
  body; with "head", its status line and first header line only (before Content-Length, which
  comes last), the head never ended.

Bounded: it exits by itself after the time limit (default 300 s) and as soon as its parent dies.
"""

import http.client
import http.server
import json
import os
import re
import select
import sys
import threading
import time
import urllib.parse
import zlib

HOP_BY_HOP = {"connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer",
              "trailers", "transfer-encoding", "upgrade", "expect", "content-length", "accept-encoding", "host"}

VALID_SYNC_TOKEN = b'<?xml version="1.0" encoding="utf-8"?>\n<D:error xmlns:D="DAV:"><D:valid-sync-token/></D:error>'
EMPTY_MULTISTATUS = b'<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:"></D:multistatus>'
MULTISTATUS_OPEN = b'<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:">'
MULTISTATUS_CLOSE = b"</D:multistatus>"
BOUND_MODES = ("silent", "drip", "bomb", "elements", "deep", "cut")
NOT_MULTISTATUS = {
    "declaration": b'<?xml version="1.0"?>',
    "empty": b"",
    "html": b'<?xml version="1.0"?>\n<html><body>Service Unavailable</body></html>',
}


def xml_text(text):
    """`text` as XML character data: markup escaped, every character outside printable ASCII
    as a character reference (control characters included, which XML 1.0 itself forbids)."""
    out = []
    for ch in text:
        if ch == "&":
            out.append("&amp;")
        elif ch == "<":
            out.append("&lt;")
        elif ch == ">":
            out.append("&gt;")
        elif " " <= ch <= "~":
            out.append(ch)
        else:
            out.append("&#x%X;" % ord(ch))
    return "".join(out)


def calendar_data_text(text):
    """An iCalendar text as XML character data: markup escaped, CR kept as `&#13;`."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")


class Proxy:
    def __init__(self, upstream, folder):
        parsed = urllib.parse.urlsplit(upstream)
        self.host = parsed.hostname
        self.port = parsed.port or 80
        self.folder = folder
        self.lock = threading.Lock()
        self.control_text = None
        self.control = {"mode": "pass"}
        self.puts = 0
        self.counted = 0
        self.token_counter = 0
        self.objects = {}
        self.log = open(os.path.join(folder, "requests.log"), "a", encoding="ascii")

    def read_control(self):
        """The current mode; counters restart when the control file changes."""
        try:
            with open(os.path.join(self.folder, "control.json"), encoding="utf-8") as handle:
                text = handle.read()
        except FileNotFoundError:
            text = '{"mode": "pass"}'
        with self.lock:
            if text != self.control_text:
                self.control_text = text
                try:
                    self.control = json.loads(text)
                except ValueError:
                    self.control = {"mode": "pass"}
                self.puts = 0
                self.counted = 0
            return dict(self.control)

    def next_put(self):
        with self.lock:
            self.puts += 1
            return self.puts

    def next_counted(self):
        with self.lock:
            self.counted += 1
            return self.counted

    def next_token(self):
        with self.lock:
            self.token_counter += 1
            return self.token_counter

    def record(self, entry):
        line = json.dumps(entry, ensure_ascii=True) + "\n"
        with self.lock:
            self.log.write(line)
            self.log.flush()

    def bomb(self, megabytes):
        """A gzip stream (made once per size) that unpacks to a multistatus padded with
        `megabytes` MiB of spaces: each MiB is one deflate block after a full flush, so the same
        bytes each time, repeated; the trailer's CRC and size are those of the whole."""
        with self.lock:
            cached = self.objects.get(("bomb", megabytes))
        if cached is not None:
            return cached
        padding = b" " * (1 << 20)
        deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
        head = deflate.compress(MULTISTATUS_OPEN) + deflate.flush(zlib.Z_FULL_FLUSH)
        block = deflate.compress(padding) + deflate.flush(zlib.Z_FULL_FLUSH)
        tail = deflate.compress(MULTISTATUS_CLOSE) + deflate.flush()
        crc = zlib.crc32(MULTISTATUS_OPEN)
        for _ in range(megabytes):
            crc = zlib.crc32(padding, crc)
        crc = zlib.crc32(MULTISTATUS_CLOSE, crc)
        size = (len(MULTISTATUS_OPEN) + megabytes * len(padding) + len(MULTISTATUS_CLOSE)) & 0xFFFFFFFF
        data = (b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff" + head + block * megabytes + tail
                + crc.to_bytes(4, "little") + size.to_bytes(4, "little"))
        with self.lock:
            self.objects[("bomb", megabytes)] = data
        return data

    def injected_text(self, control):
        """The injected object's text, made once per kind."""
        kind = control.get("object", "garbage")
        if "text" in control:
            return control["text"]
        key = (kind, control.get("depth"), control.get("properties"))
        with self.lock:
            cached = self.objects.get(key)
        if cached is not None:
            return cached
        head = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//misbehaving//EN\r\nBEGIN:VTODO\r\nUID:injected-object\r\nDTSTAMP:20240101T000000Z\r\nSUMMARY:injected\r\n"
        tail = "END:VTODO\r\nEND:VCALENDAR\r\n"
        if kind == "nested":
            depth = int(control.get("depth", 50000))
            text = head + "BEGIN:X\r\n" * depth + "END:X\r\n" * depth + tail
        elif kind == "huge":
            text = head + "X-A:1\r\n" * int(control.get("properties", 2000000)) + tail
        else:
            text = "this is not iCalendar at all <<<>>> &&& ]]>\r\nBEGIN:VCALENDAR\r\nBEGIN:VTODO\r\ngarbage"
        with self.lock:
            self.objects[key] = text
        return text


RESPONSE = re.compile(rb"<((?:[\w.-]+:)?)response\b[^>]*>.*?</\1response\s*>", re.S)
HREF = re.compile(rb"<((?:[\w.-]+:)?)href\b[^>]*>(.*?)</\1href\s*>", re.S)
CALENDAR_DATA = re.compile(rb"(<((?:[\w.-]+:)?)calendar-data\b[^>]*?)(?:/>|>.*?</\2calendar-data\s*>)", re.S)
ROOT_KIND = re.compile(rb"<(?:[\w.-]+:)?(sync-collection|calendar-query|calendar-multiget)\b")
MULTISTATUS_END = re.compile(rb"</((?:[\w.-]+:)?)multistatus\s*>\s*$")
SUMMARY = re.compile(r"^(SUMMARY(?:;[^:\r\n]*)?:)([^\r\n]*(?:\r?\n[ \t][^\r\n]*)*)", re.M)


ENTITY = re.compile(r"&(?:#[xX]([0-9a-fA-F]+)|#([0-9]+)|(amp|lt|gt|quot|apos));")
NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


def unescape(text):
    """XML character data as text: every character reference, control characters included
    (which html.unescape would drop or remap)."""
    def one(match):
        if match.group(3):
            return NAMED[match.group(3)]
        code = int(match.group(1), 16) if match.group(1) else int(match.group(2))
        return chr(code) if code <= 0x10FFFF else "\ufffd"
    return ENTITY.sub(one, text)


def href_of(response):
    match = HREF.search(response)
    return unescape(match.group(2).decode("utf-8", "replace")).strip() if match else ""


def same_href(a, b):
    return urllib.parse.unquote(a) == urllib.parse.unquote(b)


def injected_response(href, etag, text=None):
    """One DAV:response for the injected object (with its calendar-data when `text` is given)."""
    data = "" if text is None else '<C:calendar-data xmlns:C="urn:ietf:params:xml:ns:caldav">' + calendar_data_text(text) + "</C:calendar-data>"
    return ('<D:response xmlns:D="DAV:"><D:href>' + xml_text(href) + "</D:href><D:propstat><D:prop><D:getetag>"
            + xml_text(etag) + "</D:getetag>" + data + "</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response>").encode("utf-8")


def insert_before_end(body, extra):
    """`extra` inserted just before the closing tag of a multistatus."""
    match = MULTISTATUS_END.search(body)
    if not match:
        return body
    return body[:match.start()] + extra + body[match.start():]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # An answer leaves in one piece, at once: buffered (flushed after each request) and without
    # Nagle's delay, which against the client's delayed ACK costs 40 ms a request.
    wbufsize = -1
    disable_nagle_algorithm = True
    server_version = "misbehaving-caldav"
    sys_version = ""

    def log_message(self, format, *args):
        pass

    def setup(self):
        super().setup()
        self.upstream = None

    def finish(self):
        super().finish()
        if self.upstream is not None:
            self.upstream.close()

    def read_body(self):
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            chunks = []
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return b"".join(chunks)
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def forward(self, body):
        """The request sent upstream as it came (with `body`): (status, headers, body)."""
        headers = {name: value for name, value in self.headers.items() if name.lower() not in HOP_BY_HOP}
        headers["Host"] = "%s:%d" % (proxy.host, proxy.port)
        headers["Content-Length"] = str(len(body))
        for attempt in range(2):
            if self.upstream is None:
                self.upstream = http.client.HTTPConnection(proxy.host, proxy.port, timeout=60)
            try:
                self.upstream.request(self.command, self.path, body=body, headers=headers)
                answer = self.upstream.getresponse()
                data = answer.read()
                kept = [(name, value) for name, value in answer.getheaders() if name.lower() not in HOP_BY_HOP]
                if answer.getheader("Connection", "").lower() == "close":
                    self.upstream.close()
                    self.upstream = None
                return answer.status, kept, data
            except (http.client.HTTPException, OSError):
                self.upstream.close()
                self.upstream = None
                if attempt == 1:
                    raise

    def answer(self, status, headers, body):
        self.send_response(status)
        for name, value in headers:
            if name.lower() not in ("content-length", "server", "date"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def handle_one(self):
        body = self.read_body()
        control = proxy.read_control()
        mode = control.get("mode", "pass")
        kind = self.command.lower()
        if self.command == "REPORT":
            match = ROOT_KIND.search(body)
            kind = match.group(1).decode() if match else "report"
            if kind == "calendar-query" and CALENDAR_DATA.search(body):
                kind = "calendar-query+data"
        if mode in BOUND_MODES and kind == control.get("kind", "sync-collection"):
            proxy.record({"method": self.command, "path": self.path, "status": 0 if mode == "silent" else 207,
                          "mode": mode, "kind": kind, "affected": [self.path]})
            self.close_connection = True
            getattr(self, "bound_" + mode)(control, body)
            return
        affected = []
        status, headers, data = self.misbehave(mode, control, kind, body, affected)
        # Logged before answering: when the client has its answer, the log has the request.
        entry = {"method": self.command, "path": self.path, "status": status, "mode": mode,
                 "kind": kind, "affected": affected}
        if self.headers.get("X-NC-CalDAV-No-Trashbin") is not None:
            entry["no_trashbin"] = self.headers.get("X-NC-CalDAV-No-Trashbin")
        proxy.record(entry)
        self.answer(status, headers, data)

    def misbehave(self, mode, control, kind, body, affected):
        xml = [("Content-Type", 'application/xml; charset="utf-8"')]
        if mode == "empty_listing":
            if kind == "sync-collection":
                return 403, xml, VALID_SYNC_TOKEN
            if kind == "calendar-query":
                return 207, xml, EMPTY_MULTISTATUS
        elif mode == "listing_without_list":
            if kind in ("sync-collection", "calendar-query"):
                return 207, xml, NOT_MULTISTATUS[control.get("body", "declaration")]
        elif mode == "multiget_drop":
            if kind in ("calendar-multiget", "calendar-query+data") and control.get("only", kind) == kind:
                status, headers, data = self.forward(body)
                if status == 207:
                    data = self.spoil_multiget(data, control.get("how", "drop"), affected)
                return status, headers, data
        elif mode == "put_fail_nth":
            if self.command == "PUT" and proxy.next_put() == int(control.get("n", 1)):
                affected.append(self.path)
                return 500, [("Content-Type", "text/plain")], b"Internal Server Error (misbehaving on purpose)"
        elif mode == "alter_stored":
            if self.command == "PUT":
                text = body.decode("utf-8", "surrogateescape")

                def trimmed(match):
                    value = re.sub(r"\r?\n[ \t]", "", match.group(2)).rstrip(" \t")
                    return match.group(1) + value
                altered = SUMMARY.sub(trimmed, text, count=1).encode("utf-8", "surrogateescape")
                if altered != body:
                    affected.append(self.path)
                return self.forward(altered)
        elif mode == "truncate_forever":
            if kind == "sync-collection":
                counter = proxy.next_token()
                data = ('<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:"><D:response><D:href>'
                        + xml_text(urllib.parse.urlsplit(self.path).path)
                        + "</D:href><D:status>HTTP/1.1 507 Insufficient Storage</D:status></D:response>"
                        + "<D:sync-token>http://x/sync/%d</D:sync-token></D:multistatus>" % counter).encode()
                return 207, xml, data
        elif mode == "truncate_query":
            if kind == "sync-collection":
                return 403, xml, VALID_SYNC_TOKEN
            if kind == "calendar-query":
                status, headers, data = self.forward(body)
                if status == 207:
                    data = self.truncate_listing(data, affected)
                return status, headers, data
        elif mode == "inject_object":
            return self.inject(control, kind, body, affected)
        elif mode == "answer":
            if control.get("kind", "*") in ("*", kind) and (
                    "nth" not in control or proxy.next_counted() == int(control["nth"])):
                if control.get("forward"):
                    self.forward(body)
                affected.append(self.path)
                headers = list(control.get("headers", {}).items())
                data = control.get("body", "").encode("utf-8") * int(control.get("repeat", 1))
                return int(control.get("code", 200)), headers, data
        elif mode == "status":
            if control.get("kind", "*") in ("*", kind) and (
                    "nth" not in control or proxy.next_counted() == int(control["nth"])):
                if control.get("forward"):
                    self.forward(body)
                affected.append(self.path)
                code = int(control.get("code", 503))
                return code, [("Content-Type", "text/plain"), ("Retry-After", "1")], b"Unavailable (misbehaving on purpose)"
        return self.forward(body)

    def truncate_listing(self, data, affected):
        """A listing cut short: every other response left out, and the collection at 507."""
        out = []
        position = 0
        for index, match in enumerate(RESPONSE.finditer(data)):
            out.append(data[position:match.start()])
            position = match.end()
            if index % 2 == 1:
                affected.append(href_of(match.group(0)))
                continue
            out.append(match.group(0))
        out.append(data[position:])
        data = b"".join(out)
        end = MULTISTATUS_END.search(data)
        cut = ('<D:response xmlns:D="DAV:"><D:href>' + xml_text(urllib.parse.urlsplit(self.path).path)
               + "</D:href><D:status>HTTP/1.1 507 Insufficient Storage</D:status></D:response>").encode()
        return data[:end.start()] + cut + data[end.start():] if end else data

    def spoil_multiget(self, data, how, affected):
        """Every other response of a multiget answer dropped, stripped or spoiled."""
        out = []
        position = 0
        for index, match in enumerate(RESPONSE.finditer(data)):
            out.append(data[position:match.start()])
            position = match.end()
            response = match.group(0)
            if index % 2 == 0 and CALENDAR_DATA.search(response):
                affected.append(href_of(response))
                if how == "drop":
                    continue
                if how == "strip":
                    response = CALENDAR_DATA.sub(b"", response, count=1)
                else:
                    response = CALENDAR_DATA.sub(lambda found: found.group(1) + b">not ical</" + found.group(2) + b"calendar-data>",
                                                 response, count=1)
            out.append(response)
        out.append(data[position:])
        return b"".join(out)

    def inject(self, control, kind, body, affected):
        href = control.get("href", "/injected.ics")
        etag = control.get("etag", '"injected-1"')
        xml = [("Content-Type", 'application/xml; charset="utf-8"')]
        path = urllib.parse.urlsplit(self.path).path
        if self.command in ("PUT", "DELETE", "GET") and same_href(path, href):
            affected.append(href)
            if self.command != "GET":
                return 404, [("Content-Type", "text/plain")], b"Not Found"
            return 200, [("Content-Type", "text/calendar; charset=utf-8"), ("ETag", etag)], proxy.injected_text(control).encode("utf-8")
        if kind in ("sync-collection", "calendar-query"):
            status, headers, data = self.forward(body)
            if status == 207:
                affected.append(href)
                data = insert_before_end(data, injected_response(href, etag))
            return status, headers, data
        if kind == "calendar-multiget":
            asked = [m for m in HREF.finditer(body)]
            ours = [m for m in asked if same_href(unescape(m.group(2).decode("utf-8", "replace")).strip(), href)]
            if not ours:
                return self.forward(body)
            affected.append(href)
            if len(ours) == len(asked):
                status, headers, data = 207, xml, EMPTY_MULTISTATUS
            else:
                rest = body
                for m in reversed(ours):
                    rest = rest[:m.start()] + rest[m.end():]
                status, headers, data = self.forward(rest)
            if status == 207:
                data = insert_before_end(data, injected_response(href, etag, proxy.injected_text(control)))
            return status, headers, data
        return self.forward(body)

    # The bounds on time and memory: answers written raw on the socket, which the client may close
    # at any moment (each ends when a write fails).

    def bound_silent(self, control, body):
        """Nothing, until the client closes the connection (at most 120 s)."""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            readable, _, _ = select.select([self.connection], [], [], 0.5)
            if readable and not self.connection.recv(4096):
                return

    def bound_cut(self, control, body):
        """Upstream's answer cut short: in its head (after its first header line) or in its body."""
        status, headers, data = self.forward(body)
        lines = ["HTTP/1.1 %d %s" % (status, self.responses.get(status, ("",))[0])]
        lines += ["%s: %s" % (name, value) for name, value in headers if name.lower() not in ("content-length", "date", "server")]
        if control.get("at", "body") == "head":
            self.connection.sendall("\r\n".join(lines[:2] + [""]).encode("latin-1"))
            return
        lines += ["Content-Length: %d" % len(data), "", ""]
        self.connection.sendall("\r\n".join(lines).encode("latin-1") + data[:len(data) // 2])

    def bound_drip(self, control, body):
        """Upstream's answer: its head at once, then its body a few bytes at a time (at most 600 s)."""
        status, headers, data = self.forward(body)
        lines = ["HTTP/1.1 %d %s" % (status, self.responses.get(status, ("",))[0])]
        lines += ["%s: %s" % (name, value) for name, value in headers if name.lower() not in ("content-length", "date", "server")]
        lines += ["Content-Length: %d" % len(data), "Connection: close", "", ""]
        self.connection.sendall("\r\n".join(lines).encode("latin-1"))
        step, interval = int(control.get("bytes", 1)), float(control.get("interval", 1.0))
        deadline = time.monotonic() + 600
        for start in range(0, len(data), step):
            time.sleep(interval)
            self.connection.sendall(data[start:start + step])
            if time.monotonic() > deadline:
                return

    def bound_bomb(self, control, body):
        data = proxy.bomb(int(control.get("megabytes", 1024)))
        self.connection.sendall(("HTTP/1.1 207 Multi-Status\r\nContent-Type: application/xml; charset=utf-8\r\n"
                                 "Content-Encoding: gzip\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % len(data)).encode())
        self.connection.sendall(data)

    def bound_elements(self, control, body):
        total = int(control.get("megabytes", 50)) * 1000 * 1000
        self.connection.sendall(b"HTTP/1.1 207 Multi-Status\r\nContent-Type: application/xml; charset=utf-8\r\n"
                                b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
        def chunk(data):
            self.connection.sendall(b"%x\r\n" % len(data) + data + b"\r\n")
        chunk(MULTISTATUS_OPEN)
        piece = b"<D:x/>" * 10000
        for _ in range(total // len(piece)):
            chunk(piece)
        chunk(MULTISTATUS_CLOSE)
        self.connection.sendall(b"0\r\n\r\n")

    def bound_deep(self, control, body):
        depth = int(control.get("depth", 100000))
        data = MULTISTATUS_OPEN + b"<D:x>" * depth + b"</D:x>" * depth + MULTISTATUS_CLOSE
        self.connection.sendall(("HTTP/1.1 207 Multi-Status\r\nContent-Type: application/xml; charset=utf-8\r\n"
                                 "Content-Length: %d\r\nConnection: close\r\n\r\n" % len(data)).encode() + data)

    def do_ANY(self):
        try:
            self.handle_one()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        except Exception as error:  # a bug here answers 502, logged, instead of a dropped connection
            message = ("proxy failure: %r" % error).encode()
            try:
                self.answer(502, [("Content-Type", "text/plain")], message)
            except OSError:
                self.close_connection = True
            proxy.record({"method": self.command, "path": self.path, "status": 502, "mode": "error",
                          "kind": "proxy-failure", "affected": [repr(error)]})

    do_GET = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = do_MKCOL = do_OPTIONS = do_HEAD = do_POST = do_PROPPATCH = do_MOVE = do_COPY = do_MKCALENDAR = do_ANY


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def watchdog(parent, deadline):
    """Exits when the parent dies or the time limit passes."""
    while True:
        if os.getppid() != parent or time.monotonic() > deadline:
            os._exit(3)
        time.sleep(0.2)


def main():
    arguments = sys.argv[1:]
    limit = 300.0
    if "--time-limit" in arguments:
        index = arguments.index("--time-limit")
        limit = float(arguments[index + 1])
        del arguments[index:index + 2]
    upstream, folder = arguments
    parent = os.getppid()
    global proxy
    proxy = Proxy(upstream, folder)
    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=watchdog, args=(parent, time.monotonic() + limit), daemon=True).start()
    port_file = os.path.join(folder, "port")
    with open(port_file + ".tmp", "w") as handle:
        handle.write(str(server.server_address[1]))
    os.rename(port_file + ".tmp", port_file)
    server.serve_forever(poll_interval=0.2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
