import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The bare HTTP servers the tests write in Python (a server without calendar-multiget, one that
/// redirects, one over TLS asking for Digest): what they share.
public enum PythonHTTPServer {
    /// Prepended to a script: `AnswerHandler`, an HTTP/1.1 request handler that logs nothing and
    /// has `answer(status, body, headers)` (with its Content-Length).
    public static let answerHandler = #"""
        import http.server
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
    public static func start(_ script: String, _ arguments: [String], ports: [Int], seconds: TimeInterval = 15) throws -> Process {
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
