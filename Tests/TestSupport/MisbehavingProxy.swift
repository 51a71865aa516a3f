import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A deliberately misbehaving CalDAV server: a reverse proxy (misbehaving_caldav.py, beside this
/// file, run by the system's Python) on a free port of 127.0.0.1 in front of a real server,
/// forwarding everything but what its current ``Mode`` answers wrongly. The mode is read at each
/// request from a control file, so a test switches it between two syncs with ``set(_:)``; every
/// request is logged, for ``requests``. Stopped by pid when released; it also exits by itself
/// after `timeLimit` seconds and when the test process dies.
public final class MisbehavingProxy: @unchecked Sendable {
    /// What the proxy does wrong; see misbehaving_caldav.py for the details.
    public enum Mode: Sendable {
        /// Forwards everything.
        case pass
        /// sync-collection answers 403 valid-sync-token, calendar-query a multistatus with no response.
        case emptyListing
        /// Both listings answer 207 with a body that holds no multistatus.
        case listingWithoutList(NotAList)
        /// Every other response of a calendar-multiget answer (the first, third…) is spoiled, and
        /// of a calendar-query that asks for the objects (kind `calendar-query+data`); of that
        /// `only` kind when one is given.
        case multigetDrop(MultigetFault, only: String? = nil)
        /// The `n`-th PUT (from 1, counted from when this mode was set) answers 500.
        case putFailNth(Int)
        /// PUTs are stored with trailing blanks trimmed from SUMMARY, as Cyrus does.
        case alterStored
        /// sync-collection answers 507 on the collection with a new token each time, forever.
        case truncateForever
        /// sync-collection refuses the token; calendar-query lists every other object and the
        /// collection at 507: a full listing cut short.
        case truncateQuery
        /// Listings also list `href` (with `etag`); multiget and GET of it answer `object`;
        /// PUT and DELETE of it 404.
        case injectObject(href: String, etag: String = "\"injected-1\"", object: InjectedObject)

        // The bounds on time and memory, each on the requests of `kind` (by default
        // sync-collection, the first request of a sync that holds a token).

        /// No answer at all; the connection is held open until the client closes it.
        case silent(kind: String = "sync-collection")
        /// Upstream's answer: its status line and headers at once, then its body a byte every
        /// `interval` seconds.
        case drip(kind: String = "sync-collection", interval: Double = 1)
        /// A 207 answer of about 1 MB, gzip-compressed, that unpacks to `megabytes` MiB.
        case bomb(kind: String = "sync-collection", megabytes: Int = 1024)
        /// A 207 answer of `megabytes` MB of empty elements, sent chunked (no length given).
        case elements(kind: String = "sync-collection", megabytes: Int = 50)
        /// A 207 answer with `depth` elements nested in its multistatus.
        case deep(kind: String = "sync-collection", depth: Int = 100_000)
        /// Upstream's answer cut short `at` a point, then the connection closed.
        case cut(kind: String = "sync-collection", at: CutPoint = .body)
        /// The requests of `kind` (`*`: every one) answer `code` (503 Service Unavailable, with
        /// `Retry-After: 1`), as a server overloaded or behind a load balancer with no backend
        /// does; with `forward`, after upstream has done the request (a write that landed, and an
        /// answer that says it failed); with `nth`, only the n-th request of that kind (from 1,
        /// counted from when this mode was set).
        case status(kind: String = "*", code: Int = 503, forward: Bool = false, nth: Int? = nil)
        /// The requests of `kind` (`*`: every one; else a method in lower case, `mkcalendar`,
        /// `proppatch`, or a listing's kind) answer `code` with `headers` and `body` repeated
        /// `repeat` times; with `forward`, after upstream has done the request (a collection
        /// made, and an answer that says something else); with `nth`, only the n-th request of
        /// that kind (from 1, counted from when this mode was set).
        case answer(
            kind: String = "*", code: Int, headers: [String: String] = [:], body: String = "", repeat: Int = 1,
            forward: Bool = false, nth: Int? = nil)
    }

    public enum CutPoint: String, Sendable, CaseIterable {
        /// After the status line and the first header line: the head never ends, and no
        /// Content-Length was sent.
        case head
        /// After the whole head (its Content-Length the whole body's) and half the body.
        case body
    }

    public enum NotAList: String, Sendable, CaseIterable {
        /// `<?xml version="1.0"?>` alone.
        case declaration
        /// An empty body.
        case empty
        /// A well-formed document that is not a multistatus.
        case html
    }

    public enum MultigetFault: String, Sendable, CaseIterable {
        /// The response is left out.
        case drop
        /// The response has no calendar-data.
        case strip
        /// The calendar-data is `not ical`.
        case garbage
    }

    public enum InjectedObject: Sendable {
        /// A VTODO with `depth` nested `BEGIN:X` components.
        case nested(depth: Int)
        /// A VTODO with `properties` lines `X-A:1` (2,000,000: 14 MB), made once by the proxy.
        case huge(properties: Int)
        /// Not iCalendar at all.
        case garbage
        /// This text.
        case text(String)
    }

    /// One request the proxy answered.
    public struct Request: Sendable {
        public let method: String
        /// As sent (percent-encoded).
        public let path: String
        public let status: Int
        public let mode: String
        /// `propfind`, `sync-collection`, `calendar-query`, `calendar-query+data`, `calendar-multiget`,
        /// `get`, `put`, `delete`…
        public let kind: String
        /// The hrefs the fault touched (dropped, spoiled, failed, injected), unescaped.
        public let affected: [String]
        /// The request's X-NC-CalDAV-No-Trashbin header, `nil` when it had none.
        public let noTrashbin: String?
    }

    public let upstream: CalDAVServer
    public let port: Int
    public let folder: TemporaryFolder
    private let process: Process
    private var stopped = false
    private let lock = NSLock()

    /// The script, beside this file.
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("misbehaving_caldav.py").path

    /// `http://127.0.0.1:<port>`.
    public var base: String { "http://127.0.0.1:\(port)" }

    /// `url` (on the upstream server) as seen through the proxy: same path, the proxy's host.
    public func url(_ url: String) -> String {
        guard let components = URLComponents(string: url) else { return url }
        return base + components.percentEncodedPath
    }

    /// The upstream's VTODO collection through the proxy.
    public var todoCollectionURL: String { url(upstream.todoCollectionURL) }

    /// Starts a proxy in front of `upstream` in `pass` mode.
    public init(_ upstream: CalDAVServer, timeLimit: Int = 300) throws {
        self.upstream = upstream
        let folder = TemporaryFolder()
        self.folder = folder
        let process = try CalDAVServer.runPython(
            [Self.script, upstream.base, folder.path, "--time-limit", String(timeLimit)],
            in: folder, log: "proxy.log")
        self.process = process
        // Bounded wait: the proxy binds port 0 and writes the port it got; then that port answers.
        var port = 0
        let deadline = Date(timeIntervalSinceNow: 10)
        while Date() < deadline && process.isRunning {
            if port == 0, let text = folder.contents(folder.file("port")).map({ String(decoding: $0, as: UTF8.self) }) {
                port = Int(text) ?? 0
            }
            if port != 0 && CalDAVServer.portAnswers(port) { break }
            usleep(20_000)
        }
        self.port = port
        guard process.isRunning, port != 0, CalDAVServer.portAnswers(port) else {
            let log = String(decoding: folder.contents(folder.file("proxy.log")) ?? Data(), as: UTF8.self)
            stop()
            throw ServerDidNotStart(description: "the misbehaving proxy did not start: \(log.suffix(1_000))")
        }
    }

    deinit { stop() }

    /// SIGKILL by pid, and wait.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Sets the mode for the next requests (written whole: a request reads the old or the new one).
    public func set(_ mode: Mode) throws {
        let data = try JSONSerialization.data(withJSONObject: Self.control(mode), options: [.sortedKeys])
        let file = folder.file("control.json")
        try data.write(to: URL(fileURLWithPath: file + ".tmp"))
        guard rename(file + ".tmp", file) == 0 else { throw ServerDidNotStart(description: "could not write \(file)") }
    }

    static func control(_ mode: Mode) -> [String: Any] {
        switch mode {
        case .pass: return ["mode": "pass"]
        case .emptyListing: return ["mode": "empty_listing"]
        case .listingWithoutList(let body): return ["mode": "listing_without_list", "body": body.rawValue]
        case .multigetDrop(let how, let only):
            var control: [String: Any] = ["mode": "multiget_drop", "how": how.rawValue]
            if let only { control["only"] = only }
            return control
        case .putFailNth(let n): return ["mode": "put_fail_nth", "n": n]
        case .alterStored: return ["mode": "alter_stored"]
        case .truncateForever: return ["mode": "truncate_forever"]
        case .truncateQuery: return ["mode": "truncate_query"]
        case .injectObject(let href, let etag, let object):
            var control: [String: Any] = ["mode": "inject_object", "href": href, "etag": etag]
            switch object {
            case .nested(let depth):
                control["object"] = "nested"
                control["depth"] = depth
            case .huge(let properties):
                control["object"] = "huge"
                control["properties"] = properties
            case .garbage: control["object"] = "garbage"
            case .text(let text): control["text"] = text
            }
            return control
        case .silent(let kind): return ["mode": "silent", "kind": kind]
        case .drip(let kind, let interval): return ["mode": "drip", "kind": kind, "interval": interval]
        case .bomb(let kind, let megabytes): return ["mode": "bomb", "kind": kind, "megabytes": megabytes]
        case .elements(let kind, let megabytes): return ["mode": "elements", "kind": kind, "megabytes": megabytes]
        case .deep(let kind, let depth): return ["mode": "deep", "kind": kind, "depth": depth]
        case .cut(let kind, let at): return ["mode": "cut", "kind": kind, "at": at.rawValue]
        case .status(let kind, let code, let forward, let nth):
            var control: [String: Any] = ["mode": "status", "kind": kind, "code": code, "forward": forward]
            if let nth { control["nth"] = nth }
            return control
        case .answer(let kind, let code, let headers, let body, let times, let forward, let nth):
            var control: [String: Any] = [
                "mode": "answer", "kind": kind, "code": code, "headers": headers, "body": body, "repeat": times,
                "forward": forward
            ]
            if let nth { control["nth"] = nth }
            return control
        }
    }

    /// Every request answered so far, in order.
    public var requests: [Request] {
        let text = String(decoding: folder.contents(folder.file("requests.log")) ?? Data(), as: UTF8.self)
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                return nil
            }
            return Request(
                method: object["method"] as? String ?? "", path: object["path"] as? String ?? "",
                status: object["status"] as? Int ?? 0, mode: object["mode"] as? String ?? "",
                kind: object["kind"] as? String ?? "", affected: object["affected"] as? [String] ?? [],
                noTrashbin: object["no_trashbin"] as? String)
        }
    }

    /// How many requests were answered so far (or are being answered: a request is logged just
    /// before its answer is sent), counted from the log's new lines only: cheap enough to poll
    /// while a sync runs.
    public var requestCount: Int {
        lock.lock()
        defer { lock.unlock() }
        guard let handle = FileHandle(forReadingAtPath: folder.file("requests.log")) else { return 0 }
        defer { try? handle.close() }
        try? handle.seek(toOffset: countedBytes)
        let data = (try? handle.readToEnd()) ?? Data()
        // Whole lines only: a line being written is counted once it is complete.
        guard let last = data.lastIndex(of: UInt8(ascii: "\n")) else { return countedLines }
        countedLines += data[...last].reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        countedBytes += UInt64(last - data.startIndex + 1)
        return countedLines
    }
    private var countedBytes: UInt64 = 0
    private var countedLines = 0

    /// What `body` returned, and the requests answered while it ran.
    public func recording<T>(_ body: () throws -> T) rethrows -> (result: T, requests: [Request]) {
        let before = requests.count
        let result = try body()
        return (result, Array(requests.dropFirst(before)))
    }

    /// The proxy's own output (a Python traceback when it failed).
    public var log: String { String(decoding: folder.contents(folder.file("proxy.log")) ?? Data(), as: UTF8.self) }
}

extension MisbehavingProxy.Mode: CustomStringConvertible {
    /// The mode's name, as the control file and the request log write it: `put_fail_nth`.
    public var name: String { MisbehavingProxy.control(self)["mode"] as? String ?? "" }

    /// The control file's JSON (the injected object's text and a long answer's body left out):
    /// `{"mode":"put_fail_nth","n":2}`.
    public var description: String {
        var control = MisbehavingProxy.control(self)
        if let text = control["text"] as? String { control["text"] = "\(text.utf8.count) bytes" }
        if let body = control["body"] as? String, body.utf8.count > 200 { control["body"] = "\(body.utf8.count) bytes" }
        let data =
            (try? JSONSerialization.data(withJSONObject: control, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
