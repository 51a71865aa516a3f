import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A web server from the system (nginx, Apache) run by a test as one unprivileged-config process:
/// its configuration, logs, pid file and temporary files in a temporary folder, listening on free
/// ports of 127.0.0.1 only, in the foreground and without worker processes (so the pid is the
/// whole server), and stopped by pid when released.
///
/// A missing binary is an error, not a skip: scripts/setup installs nginx and apache2.
public final class WebServer: @unchecked Sendable {
    public enum Kind: String, Sendable {
        case nginx, apache
        /// The binary Debian installs.
        public var binary: String { self == .nginx ? "/usr/sbin/nginx" : "/usr/sbin/apache2" }
        /// The Debian package that has it.
        public var package: String { self == .nginx ? "nginx" : "apache2" }
    }

    public let kind: Kind
    /// The ports it listens on, as asked for.
    public let ports: [Int]
    public let folder: TemporaryFolder
    private let process: Process
    private var stopped = false

    /// `http://127.0.0.1:<ports[index]>`.
    public func base(_ index: Int = 0, scheme: String = "http") -> String { "\(scheme)://127.0.0.1:\(ports[index])" }

    /// Its error log and its output.
    public var log: String {
        ["error.log", "server.log"].map { String(decoding: folder.contents(folder.file($0)) ?? Data(), as: UTF8.self) }
            .joined()
    }

    /// One request in the access log, which both servers write in the same shape:
    /// `PORT PROTOCOL METHOD PATH STATUS CONTENT-LENGTH auth="AUTHORIZATION"` (`-` for a header
    /// not sent).
    public struct Request: Sendable, CustomStringConvertible {
        /// The port of ours it came to.
        public let port: Int
        /// `HTTP/1.1`, `HTTP/2.0`…
        public let `protocol`: String
        public let method: String
        public let path: String
        public let status: Int
        /// The request's Content-Length, nil when it had none.
        public let length: Int?
        /// The Authorization header as received, nil when there was none.
        public let authorization: String?

        public var description: String {
            "\(port) \(`protocol`) \(method) \(path) \(status) \(length.map(String.init) ?? "-") auth=\(authorization.map { String($0.prefix(6)) + "…" } ?? "-")"
        }
    }

    /// The requests answered so far, in order (both servers log a request once answered).
    public var requests: [Request] {
        String(decoding: folder.contents(folder.file("access.log")) ?? Data(), as: UTF8.self).split(separator: "\n")
            .compactMap { line in
                let fields = line.split(separator: " ", maxSplits: 6)
                guard fields.count == 7, let port = Int(fields[0]), let status = Int(fields[4]),
                    fields[6].hasPrefix("auth=\""), fields[6].hasSuffix("\"")
                else { return nil }
                let authorization = String(fields[6].dropFirst(6).dropLast())
                return Request(
                    port: port, protocol: String(fields[1]), method: String(fields[2]), path: String(fields[3]),
                    status: status,
                    length: Int(fields[5]),
                    authorization: authorization == "-" || authorization.isEmpty ? nil : authorization)
            }
    }

    /// The requests that came to `port`.
    public func requests(to port: Int) -> [Request] { requests.filter { $0.port == port } }

    /// nginx with `http` as the body of its `http { }` block (server blocks, log formats),
    /// made by `configuration(folder, ports)` for `portCount` free ports. Temporary files and the
    /// error log go to the folder; `access_log` lines are the configuration's own.
    public static func nginx(ports portCount: Int, _ configuration: (TemporaryFolder, [Int]) throws -> String) throws
        -> WebServer
    {
        try start(.nginx, ports: portCount) { folder, ports in
            let http = try configuration(folder, ports)
            let temporary = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
                .map { "    \($0)_temp_path \(folder.file("temp-" + $0));" }.joined(separator: "\n")
            try Data(
                """
                error_log \(folder.file("error.log")) warn;
                events { worker_connections 64; }
                http {
                \(temporary)
                    log_format requests '$server_port $server_protocol $request_method $request_uri $status $content_length auth="$http_authorization"';
                    access_log \(folder.file("access.log")) requests;
                \(http)
                }

                """.utf8
            ).write(to: URL(fileURLWithPath: folder.file("nginx.conf")))
            // No daemon, no master: one process, the one started here.
            return [
                "-p", folder.path + "/", "-e", folder.file("error.log"), "-c", folder.file("nginx.conf"),
                "-g", "daemon off; master_process off; pid \(folder.file("nginx.pid"));"
            ]
        }
    }

    /// Apache httpd (`-X`: one process, in the foreground) with `modules` loaded (names as in
    /// /usr/lib/apache2/modules/mod_NAME.so, besides mpm_event) and `body` after the server's own
    /// lines (Listen on each port, logs and pid in the folder), made by
    /// `configuration(folder, ports)` for `portCount` free ports.
    public static func apache(
        ports portCount: Int, modules: [String],
        _ configuration: (TemporaryFolder, [Int]) throws -> String
    ) throws -> WebServer {
        try start(.apache, ports: portCount) { folder, ports in
            let body = try configuration(folder, ports)
            let loads = (["mpm_event"] + modules).map {
                "LoadModule \($0)_module /usr/lib/apache2/modules/mod_\($0).so"
            }
            let lines =
                [
                    "ServerRoot \(folder.path)", "ServerName 127.0.0.1", "PidFile \(folder.file("httpd.pid"))",
                    "DefaultRuntimeDir \(folder.path)", "ErrorLog \(folder.file("error.log"))", "LogLevel warn"
                ]
                + ports.map { "Listen 127.0.0.1:\($0)" } + loads
                + [
                    #"LogFormat "%{local}p %H %m %U %>s %{Content-Length}i auth=\"%{Authorization}i\"" requests"#,
                    "CustomLog \(folder.file("access.log")) requests"
                ]
            try Data((lines.joined(separator: "\n") + "\n" + body + "\n").utf8).write(
                to: URL(fileURLWithPath: folder.file("httpd.conf")))
            return ["-X", "-d", folder.path, "-f", folder.file("httpd.conf")]
        }
    }

    /// Starts `kind` with the arguments `prepare(folder, ports)` gives, and waits (at most 10 s)
    /// until every port answers; tries other ports when it dies at start (a clash).
    private static func start(
        _ kind: Kind, ports portCount: Int,
        _ prepare: (TemporaryFolder, [Int]) throws -> [String]
    ) throws -> WebServer {
        guard FileManager.default.isExecutableFile(atPath: kind.binary) else {
            throw ServerDidNotStart(
                description: "\(kind.binary) is missing: scripts/setup installs it (Debian package \(kind.package))")
        }
        var lastError: Error?
        for _ in 0..<3 {
            let folder = TemporaryFolder()
            var ports: [Int] = []
            while ports.count < portCount {
                let port = try CalDAVServer.freePort()
                if !ports.contains(port) { ports.append(port) }
            }
            let process = try Process.startServer(
                kind.binary, try prepare(folder, ports),
                environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C"],
                log: folder.file("server.log"))
            let server = WebServer(kind: kind, ports: ports, folder: folder, process: process)
            let deadline = Date(timeIntervalSinceNow: 10)
            while process.isRunning && !ports.allSatisfy(CalDAVServer.portAnswers) && Date() < deadline {
                usleep(10_000)
            }
            if process.isRunning && ports.allSatisfy(CalDAVServer.portAnswers) { return server }
            lastError = ServerDidNotStart(
                description: "\(kind) on ports \(ports) did not start: \(server.log.suffix(2_000))")
            server.stop()
        }
        throw lastError ?? ServerDidNotStart(description: "\(kind) did not start")
    }

    private init(kind: Kind, ports: [Int], folder: TemporaryFolder, process: Process) {
        self.kind = kind
        self.ports = ports
        self.folder = folder
        self.process = process
    }

    deinit { stop() }

    /// SIGTERM (both stop at once on it), then SIGKILL after 2 s, by pid.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        process.stopByPID()
    }
}
