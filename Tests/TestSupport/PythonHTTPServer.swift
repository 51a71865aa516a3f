import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The bare HTTP servers the tests write in Python (a server without calendar-multiget, one that
/// redirects, one over TLS asking for Digest): what they share.
public enum PythonHTTPServer {
    /// Prepended to a script: `AnswerHandler`, an HTTP/1.1 request handler that logs nothing and
    /// has `answer(status, body, headers)` (with its Content-Length); and `calendar(href)`, a
    /// PROPFIND answer (207) saying that `href` is a calendar collection for VTODO with the
    /// sync token `t1`; and `serve(Handler, port, cert, key, seconds)`, which serves on
    /// 127.0.0.1:`port` (over TLS unless `cert` is "-") for `seconds`, then returns: the script ends.
    public static let answerHandler = #"""
        import http.server, ssl, threading, time
        def serve(handler, port, cert, key, seconds):
            server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
            if cert != "-":
                context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
                context.load_cert_chain(cert, key)
                server.socket = context.wrap_socket(server.socket, server_side=True)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            time.sleep(seconds)
        def calendar(href):
            return ('<?xml version="1.0"?><d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">'
                    '<d:response><d:href>%s</d:href><d:propstat><d:prop><d:resourcetype><d:collection/><c:calendar/>'
                    '</d:resourcetype><c:supported-calendar-component-set><c:comp name="VTODO"/></c:supported-calendar-component-set>'
                    '<d:sync-token>t1</d:sync-token></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>'
                    '</d:multistatus>' % href).encode()
        class AnswerHandler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args): pass
            def answer(self, status, body=b"", headers={}):
                self.send_response(status)
                for k, v in headers.items(): self.send_header(k, v)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
        """# + "\n"

    /// Runs `answerHandler` + `script` with the system's Python and `arguments`, and waits (at
    /// most `seconds`) until each of `ports` on 127.0.0.1 answers. The caller kills it by pid;
    /// the script should end by itself too (a bounded sleep).
    public static func start(_ script: String, _ arguments: [String], ports: [Int], seconds: TimeInterval = 15) throws
        -> Process
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CalDAVServer.python)
        process.arguments = ["-c", answerHandler + script] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !ports.allSatisfy(CalDAVServer.portAnswers) && Date() < deadline { usleep(20_000) }
        return process
    }
}
