"""A static CalDAV collection for the syncread part: /tasks/ holding one VTODO of about SIZE bytes,
its DESCRIPTION folded at 75 octets with CRLF (as calendar data is), answering what todo-sync asks
at setup (discovery's PROPFIND) and on a first sync (PROPFIND, sync-collection or calendar-query,
calendar-multiget, GET; PUT and DELETE sensibly). HTTP/1.1, keep-alive.

  python3 caldav_stub.py SIZE LIFETIME

prints "PORT OBJECT_BYTES" once it listens on 127.0.0.1 (a port the kernel picked), logs nothing,
exits by itself after LIFETIME seconds (the bench stops it by pid before that)."""
import os, re, sys, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from xml.sax.saxutils import escape

COLLECTION, HREF, ETAG, TOKEN = "/tasks/", "/tasks/big.ics", '"big-1"', "http://bench.invalid/sync/1"


def calendar(size):
    head = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//todo//bench syncread//EN\r\nBEGIN:VTODO\r\n"
            "UID:big@bench.invalid\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:A todo with a large description\r\n"
            "STATUS:NEEDS-ACTION\r\n")
    tail = "END:VTODO\r\nEND:VCALENDAR\r\n"
    words = "Lorem ipsum dolor sit amet\\, consectetur adipiscing elit\\; sed do eiusmod tempor incididunt\\n"
    length = max(0, (size - len(head) - len(tail)) * 74 // 77)  # the folds add 3 octets every 74
    line = "DESCRIPTION:" + (words * (length // len(words) + 1))[:length]
    folded = [line[:75]] + [" " + line[i:i + 74] for i in range(75, len(line), 74)]
    return head + "\r\n".join(folded) + "\r\n" + tail


def answers(text):
    ms = '<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">'
    ok = "<D:status>HTTP/1.1 200 OK</D:status>"
    def response(href, props):
        return f"<D:response><D:href>{href}</D:href><D:propstat><D:prop>{props}</D:prop>{ok}</D:propstat></D:response>"
    etag = f"<D:getetag>{escape(ETAG)}</D:getetag>"
    return {
        "propfind": ms + response(COLLECTION, "<D:resourcetype><D:collection/><C:calendar/></D:resourcetype>"
                                  '<C:supported-calendar-component-set><C:comp name="VTODO"/></C:supported-calendar-component-set>'
                                  f"<D:sync-token>{TOKEN}</D:sync-token><D:displayname>tasks</D:displayname>") + "</D:multistatus>",
        "query": ms + response(HREF, etag) + "</D:multistatus>",
        "multiget": ms + response(HREF, f"{etag}<C:calendar-data>{escape(text)}</C:calendar-data>") + "</D:multistatus>",
        "nothing_new": ms + f"<D:sync-token>{TOKEN}</D:sync-token></D:multistatus>",
        "everything": ms + response(HREF, etag) + f"<D:sync-token>{TOKEN}</D:sync-token></D:multistatus>",
    }


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def body(self):
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def answer(self, status, name=None, body=b"", kind="application/xml; charset=utf-8", headers={}):
        body = ANSWERS[name] if name else body
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for header, value in headers.items():
            self.send_header(header, value)
        self.end_headers()
        self.wfile.write(body)

    def do_OPTIONS(self):
        self.body()
        self.answer(200, headers={"DAV": "1, 2, calendar-access", "Allow": "OPTIONS, GET, PUT, DELETE, PROPFIND, REPORT"})

    def do_PROPFIND(self):
        self.body()
        self.answer(207, "propfind") if self.path.rstrip("/") == COLLECTION.rstrip("/") else self.answer(404)

    def do_REPORT(self):
        request = self.body()
        if b"calendar-multiget" in request:
            self.answer(207, "multiget")
        elif b"calendar-query" in request:
            self.answer(207, "query")
        elif b"sync-collection" in request:
            token = re.search(rb"<[A-Za-z]*:?sync-token>([^<]*)<", request)
            self.answer(207, "nothing_new" if token and token.group(1).decode() == TOKEN else "everything")
        else:
            self.answer(400)

    def do_GET(self):
        if self.path == HREF:
            self.answer(200, body=TEXT.encode(), kind="text/calendar; charset=utf-8", headers={"ETag": ETAG})
        else:
            self.answer(404)

    def do_PUT(self):
        self.body()
        self.answer(201, headers={"ETag": f'"put-{abs(hash(self.path))}"'})

    def do_DELETE(self):
        self.answer(204)


if __name__ == "__main__":
    size, lifetime = int(sys.argv[1]), float(sys.argv[2])
    threading.Timer(lifetime, lambda: os._exit(0)).start()
    TEXT = calendar(size)
    ANSWERS = {name: text.encode() for name, text in answers(TEXT).items()}
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], len(TEXT.encode()), flush=True)
    server.serve_forever()
