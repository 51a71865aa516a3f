import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// A real CalDAV server (Radicale or Xandikos, run by the system's Python) on a free port of
/// 127.0.0.1, with its storage in a temporary folder; stopped by pid when released.
public final class CalDAVServer: @unchecked Sendable {
    public enum Kind: String, Sendable, CustomStringConvertible {
        case radicale, xandikos
        public var description: String { rawValue }
    }

    /// The Debian python, which has radicale, xandikos and caldav (a pyenv `python3` may not).
    public static let python = "/usr/bin/python3"

    public let kind: Kind
    public let port: Int
    public let folder: TemporaryFolder
    /// Users and passwords (Radicale; Xandikos has no authentication).
    public let users: [String: String]
    /// Radicale takes the user from an `X-Remote-User` header that a reverse proxy in front of it
    /// sets once it has authenticated the request (`auth type = http_x_remote_user`), instead of
    /// checking passwords itself; ``request(_:_:body:headers:user:)`` sends that header.
    public private(set) var userFromProxy = false
    private var process: Process
    /// The Python arguments it runs with, for ``restart()``.
    private let arguments: [String]
    private var stopped = false
    private let lock = NSLock()

    /// `http://127.0.0.1:<port>`.
    public var base: String { "http://127.0.0.1:\(port)" }

    /// The VTODO-capable collection that exists from the start: for Xandikos the calendar
    /// `--defaults` creates (it allows VEVENT, VTODO, VJOURNAL, VFREEBUSY; Xandikos 0.2 makes no
    /// separate tasks collection); for Radicale one made by `start` at /<first user>/tasks/.
    public private(set) var todoCollectionURL: String = ""

    /// The server's log (its stdout and stderr).
    public var log: String { String(decoding: folder.contents(folder.file("server.log")) ?? Data(), as: UTF8.self) }

    /// Radicale with plain-text users, and a VTODO collection /<user>/tasks/ for the first user
    /// (in sorted order).
    /// With `userFromProxy`, Radicale checks no password and takes the user from the
    /// `X-Remote-User` header (only a proxy that authenticates must reach it then).
    public static func radicale(users: [String: String] = ["alice": "secret"], userFromProxy: Bool = false) throws
        -> CalDAVServer
    {
        let server = try start(.radicale, users: users, userFromProxy: userFromProxy)
        let user = users.keys.sorted().first!
        server.todoCollectionURL = try server.makeCollection(name: "tasks", components: ["VTODO"], user: user)
        return server
    }

    /// Xandikos with `--defaults` (no authentication).
    public static func xandikos() throws -> CalDAVServer {
        let server = try start(.xandikos, users: [:])
        server.todoCollectionURL = server.base + "/user/calendars/calendar/"
        return server
    }

    /// Starts the server on a free port; tries another port when it dies at start (a clash).
    private static func start(_ kind: Kind, users: [String: String], userFromProxy: Bool = false) throws -> CalDAVServer
    {
        var lastError: Error?
        for _ in 0..<3 {
            let folder = TemporaryFolder()
            let port = try freePort()
            let arguments: [String]
            switch kind {
            case .radicale:
                arguments = try radicaleArguments(
                    users: users, port: port, in: folder,
                    auth: userFromProxy ? ["type = http_x_remote_user"] : nil)
            case .xandikos:
                arguments = [
                    "-m", "xandikos.web", "--defaults", "-d", folder.file("data"),
                    "-l", "127.0.0.1", "-p", String(port)
                ]
            }
            let process = try runPython(arguments, in: folder, log: "server.log")
            let server = CalDAVServer(
                kind: kind, port: port, folder: folder, users: users, process: process, arguments: arguments)
            server.userFromProxy = userFromProxy
            // Bounded wait: the port answers within 10 s, or the server died (a clash: retry).
            let deadline = Date(timeIntervalSinceNow: 10)
            while Date() < deadline && process.isRunning && !portAnswers(port) { usleep(20_000) }
            if process.isRunning && portAnswers(port) { return server }
            lastError = ServerDidNotStart(
                description: "\(kind) on port \(port) did not start: \(server.log.suffix(1_000))")
            server.stop()
        }
        throw lastError!
    }

    /// Writes Radicale's users (plain htpasswd) and configuration into `folder`, with `server`
    /// lines added to its [server] section (`ssl = True`, ...) and `auth` lines instead of the
    /// plain htpasswd file in its [auth] section; the arguments that run it.
    public static func radicaleArguments(
        users: [String: String], port: Int, in folder: TemporaryFolder,
        server: [String] = [], auth: [String]? = nil
    ) throws -> [String] {
        let userLines = users.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)\n" }.joined()
        try Data(userLines.utf8).write(to: URL(fileURLWithPath: folder.file("users")))
        let config = """
            [server]
            hosts = 127.0.0.1:\(port)
            \(server.joined(separator: "\n"))
            [auth]
            \((auth ?? ["type = htpasswd", "htpasswd_filename = \(folder.file("users"))", "htpasswd_encryption = plain"]).joined(separator: "\n"))
            delay = 0
            [storage]
            filesystem_folder = \(folder.file("storage"))
            [logging]
            level = warning
            mask_passwords = True
            """
        try Data(config.utf8).write(to: URL(fileURLWithPath: folder.file("config")))
        return ["-m", "radicale", "--config", folder.file("config")]
    }

    private init(
        kind: Kind, port: Int, folder: TemporaryFolder, users: [String: String], process: Process, arguments: [String]
    ) {
        self.kind = kind
        self.port = port
        self.folder = folder
        self.users = users
        self.process = process
        self.arguments = arguments
    }

    deinit { stop() }

    /// SIGTERM, then SIGKILL after 2 s, by pid.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        process.stopByPID()
    }

    /// Stops the server (SIGTERM, then SIGKILL after 2 s) and starts it again on the same port
    /// with the same storage, as an admin's restart or a crash and its recovery do; returns once
    /// the port answers again (within 10 s; the previous log is kept as `server.log.<n>`).
    /// Requests in flight meanwhile fail, as they would.
    public func restart() throws {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { throw ServerDidNotStart(description: "\(kind) was stopped; it is not restarted") }
        process.stopByPID()
        restarts += 1
        rename(folder.file("server.log"), folder.file("server.log.\(restarts)"))
        // The port was just given up: it is taken again at once (both servers bind with
        // SO_REUSEADDR), else after a few tries in the next moments.
        let deadline = Date(timeIntervalSinceNow: 10)
        repeat {
            process = try Self.runPython(arguments, in: folder, log: "server.log")
            while Date() < deadline && process.isRunning && !portAnswers(port) { usleep(10_000) }
            if process.isRunning && portAnswers(port) { return }
            process.stopByPID()
        } while Date() < deadline
        throw ServerDidNotStart(description: "\(kind) did not start again on port \(port): \(log.suffix(1_000))")
    }

    /// How many times ``restart()`` restarted it.
    public private(set) var restarts = 0

    /// A free TCP port of 127.0.0.1: bound to port 0, read, closed.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerDidNotStart(description: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw ServerDidNotStart(description: "bind() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    public static func portAnswers(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    private func portAnswers(_ port: Int) -> Bool { Self.portAnswers(port) }

    /// Makes a calendar collection allowing `components` by extended MKCOL (RFC 5689), as a phone
    /// would, and returns its URL (ending with `/`): at `segment` (default: `name`), with `name`
    /// as its display name and Apple's `calendar-color` when one is given. Radicale: under
    /// /<user>/; Xandikos: under /user/calendars/ (Xandikos ignores the component set: its
    /// calendars allow all).
    @discardableResult
    public func makeCollection(
        name: String, components: [String], user: String? = nil, segment: String? = nil, color: String? = nil
    ) throws -> String {
        let url = base + homePath(user: user) + (segment ?? name) + "/"
        let comps = components.map { "<C:comp name=\"\($0)\"/>" }.joined()
        let colorProperty = color.map { "<A:calendar-color>\($0)</A:calendar-color>" } ?? ""
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:mkcol xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:A="http://apple.com/ns/ical/">\
            <D:set><D:prop>\
            <D:resourcetype><D:collection/><C:calendar/></D:resourcetype>\
            <D:displayname>\(name)</D:displayname>\(colorProperty)\
            <C:supported-calendar-component-set>\(comps)</C:supported-calendar-component-set>\
            </D:prop></D:set></D:mkcol>
            """
        let status = try request(
            "MKCOL", url, body: Data(body.utf8), headers: ["Content-Type": "application/xml; charset=utf-8"], user: user
        ).status
        guard status == 201 else { throw ServerDidNotStart(description: "MKCOL \(url) answered \(status)") }
        return url
    }

    /// The path of the calendar home of `user` (default: the first): where collections are made.
    public func homePath(user: String? = nil) -> String {
        switch kind {
        case .radicale: "/\(user ?? users.keys.sorted().first ?? "")/"
        case .xandikos: "/user/calendars/"
        }
    }

    /// Sets the display name and (or) Apple's calendar-color of the collection at `url` by
    /// PROPPATCH, as a phone renames or recolours a list; returns the status.
    @discardableResult
    public func proppatch(_ url: String, name: String? = nil, color: String? = nil) throws -> Int {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:propertyupdate xmlns:D="DAV:" xmlns:A="http://apple.com/ns/ical/"><D:set><D:prop>\
            \(name.map { "<D:displayname>\($0)</D:displayname>" } ?? "")\
            \(color.map { "<A:calendar-color>\($0)</A:calendar-color>" } ?? "")\
            </D:prop></D:set></D:propertyupdate>
            """
        return try request(
            "PROPPATCH", url, body: Data(body.utf8), headers: ["Content-Type": "application/xml; charset=utf-8"]
        ).status
    }

    /// One plain HTTP request (as another client would make it), with Basic auth for `user`
    /// (default: the first user) on Radicale; bounded by 10 s.
    public func request(
        _ method: String, _ url: String, body: Data? = nil, headers: [String: String] = [:],
        user: String? = nil
    ) throws -> (status: Int, headers: [String: String], body: Data) {
        var request = URLRequest(
            url: URL(string: url)!, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 10)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if kind == .radicale, let name = user ?? users.keys.sorted().first, let password = users[name] {
            request.setValue(
                "Basic " + Data("\(name):\(password)".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
            if userFromProxy { request.setValue(name, forHTTPHeaderField: "X-Remote-User") }
        }
        return try Self.perform(request)
    }

    /// Sends `request` on an ephemeral session and waits (15 s at most) for its answer.
    public static func perform(_ request: URLRequest) throws -> (status: Int, headers: [String: String], body: Data) {
        let method = request.httpMethod ?? "GET"
        let url = request.url?.absoluteString ?? ""
        final class Box: @unchecked Sendable {
            var result: (Int, [String: String], Data)?
            var error: Error?
        }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let configuration = URLSessionConfiguration.ephemeral
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: request) { data, response, error in
            if let response = response as? HTTPURLResponse {
                var fields: [String: String] = [:]
                for (key, value) in response.allHeaderFields {
                    fields[String(describing: key).lowercased()] = String(describing: value)
                }
                box.result = (response.statusCode, fields, data ?? Data())
            } else {
                box.error = error
            }
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + 15) == .success else {
            throw ServerDidNotStart(description: "\(method) \(url) did not answer")
        }
        if let result = box.result { return (result.0, result.1, result.2) }
        throw box.error ?? ServerDidNotStart(description: "\(method) \(url) failed")
    }
}

/// A server that did not start or answer as expected.
public struct ServerDidNotStart: Error, CustomStringConvertible {
    public let description: String
}

extension CalDAVServer {
    /// Starts the system's Python with `arguments`, in a clean environment with `folder` as HOME,
    /// its stdout and stderr going to the file `log` in `folder`.
    public static func runPython(_ arguments: [String], in folder: TemporaryFolder, log name: String) throws -> Process
    {
        try Process.startServer(
            python, arguments, environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": folder.path],
            log: folder.file(name))
    }

    /// The path of the VTODO collection (`/alice/tasks/`), percent-encoded as in its URL.
    public var todoCollectionPath: String { URLComponents(string: todoCollectionURL)?.percentEncodedPath ?? "/" }

    /// Stores `text` as `name` in the VTODO collection by a plain PUT (as another client would,
    /// byte for byte, without a client library's checks); returns the status.
    @discardableResult
    public func put(_ name: String, _ text: String) throws -> Int {
        try request(
            "PUT", todoCollectionURL + name, body: Data(text.utf8),
            headers: ["Content-Type": "text/calendar; charset=utf-8", "If-None-Match": "*"]
        ).status
    }
}
