import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP answer.
struct HTTPAnswer {
    let status: Int
    let headers: [AnyHashable: Any]
    let body: Data

    func header(_ name: String) -> String? {
        for (key, value) in headers {
            if let key = key as? String, key.caseInsensitiveCompare(name) == .orderedSame { return value as? String }
        }
        return nil
    }
}

/// A CalDAV collection over HTTP: the requests of the helper's protocol, blocking.
final class CalDAVClient: @unchecked Sendable {
    /// The collection, without user info, its path ending with `/`.
    let collection: URL
    /// `scheme://host:port/path` for messages: never any user info.
    let displayURL: String
    private let authorization: String?
    /// Strings never to print (the password).
    let secrets: [String]
    private let session: URLSession
    private let delegate = SessionDelegate()
    static let timeout: TimeInterval = 30
    static let writesInFlight = 4
    static let multigetBatch = 100
    /// The most pages of a truncated (507) sync-collection listing read in one sync.
    static let maximumPages = 100

    init(url: String, user: String?, passwordCommand: String?) throws {
        guard var components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty else {
            throw HelperError(.protocol, "\"url\" is not an http or https URL")
        }
        let credentials = try Credentials.resolve(url: components, user: user, passwordCommand: passwordCommand)
        components.user = nil
        components.password = nil
        if !components.percentEncodedPath.hasSuffix("/") { components.percentEncodedPath += "/" }
        components.query = nil
        components.fragment = nil
        guard let collection = components.url else { throw HelperError(.protocol, "\"url\" is not a valid URL") }
        self.collection = collection
        displayURL = collection.absoluteString
        authorization = credentials.authorization
        secrets = [credentials.password, URLComponents(string: url)?.password].compactMap { $0 }.filter { !$0.isEmpty }

        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = Self.timeout
        configuration.httpMaximumConnectionsPerHost = Self.writesInFlight
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCredentialStorage = nil
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit { session.invalidateAndCancel() }

    // MARK: HTTP

    /// `href` (as the server or the engine wrote it: a path, a relative or absolute URL) resolved
    /// against the collection, percent-encoding kept.
    func resolve(_ href: String) throws -> URL {
        if let url = URL(string: href, relativeTo: collection)?.absoluteURL { return url }
        let escaped = href.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? href
        if let url = URL(string: escaped, relativeTo: collection)?.absoluteURL { return url }
        throw HelperError(.protocol, "the href \(href.debugDescription) is not a valid URL reference")
    }

    /// `url` for messages, without user info.
    func display(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return displayURL }
        components.user = nil
        components.password = nil
        return components.string ?? displayURL
    }

    /// Sends one request and waits for its answer (at most `timeout` seconds of silence).
    func send(_ method: String, _ url: URL, headers: [String: String] = [:], body: Data? = nil) throws -> HTTPAnswer {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: Self.timeout)
        request.httpMethod = method
        if let authorization { request.setValue(authorization, forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body { request.httpBody = body }

        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request)
        let exchange = Exchange(done)
        delegate.register(exchange, for: task)
        task.resume()
        // URLSession enforces the timeout; this bound only guards against a lost callback.
        if done.wait(timeout: .now() + Self.timeout + 15) == .timedOut {
            task.cancel()
            throw HelperError(.unreachable, "\(method) \(display(url)): no answer within \(Int(Self.timeout)) s")
        }
        let box = exchange
        if let answer = box.answer { return answer }
        throw unreachable(box.error, method: method, url: url)
    }

    private func unreachable(_ error: Error?, method: String, url: URL) -> HelperError {
        let name = collection.host ?? "the server"
        let host = collection.port.map { "\(name):\($0)" } ?? name
        let reason: String
        switch (error as? URLError)?.code {
        case .cannotConnectToHost?: reason = "connection refused"
        case .cannotFindHost?, .dnsLookupFailed?: reason = "host not found"
        case .timedOut?: reason = "timed out after \(Int(Self.timeout)) s"
        case .networkConnectionLost?: reason = "connection lost"
        case .notConnectedToInternet?: reason = "no network"
        case .secureConnectionFailed?, .serverCertificateUntrusted?, .serverCertificateHasBadDate?,
             .serverCertificateNotYetValid?, .serverCertificateHasUnknownRoot?: reason = "TLS failed"
        case let code?: reason = "network error \(code.rawValue)"
        case nil: reason = "network error"
        }
        return HelperError(.unreachable, "cannot reach \(host) (\(reason)) for \(method) \(display(url))")
    }

    private static let xmlHeaders = ["Content-Type": "application/xml; charset=utf-8"]

    /// A PROPFIND or REPORT whose answer must be a 207 multistatus; other statuses throw.
    private func multistatus(_ method: String, _ url: URL, depth: String, body: String, what: String) throws -> Multistatus {
        let answer = try dav(method, url, depth: depth, body: body)
        guard answer.status == 207 else { throw HelperError.status(answer.status, "\(what) \(display(url))") }
        return try Multistatus(answer.body)
    }

    private func dav(_ method: String, _ url: URL, depth: String, body: String) throws -> HTTPAnswer {
        var headers = Self.xmlHeaders
        headers["Depth"] = depth
        return try send(method, url, headers: headers, body: Data(body.utf8))
    }

    /// Whether `href` names the collection itself.
    private func isCollection(_ href: String) -> Bool {
        guard let url = try? resolve(href) else { return false }
        func trimmed(_ path: String) -> String { path.hasSuffix("/") ? String(path.dropLast()) : path }
        return trimmed(url.path) == trimmed(collection.path)
    }

    // MARK: probe

    struct Probe {
        var syncToken: String?
        var components: [String]?
    }

    func probe() throws -> Probe {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:propfind xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop>\
            <D:resourcetype/><C:supported-calendar-component-set/><D:sync-token/><D:displayname/>\
            </D:prop></D:propfind>
            """
        let status = try multistatus("PROPFIND", collection, depth: "0", body: body, what: "PROPFIND")
        guard let response = status.responses.first(where: { isCollection($0.href) }) ?? status.responses.first else {
            throw HelperError(.badResponse, "PROPFIND \(displayURL): no response for the collection")
        }
        guard let type = response.prop(davNS, "resourcetype"), type.child(caldavNS, "calendar") != nil else {
            throw HelperError(.notFound, "\(displayURL) is not a calendar collection")
        }
        var result = Probe()
        if let token = response.prop(davNS, "sync-token")?.trimmedText, !token.isEmpty { result.syncToken = token }
        if let set = response.prop(caldavNS, "supported-calendar-component-set") {
            result.components = set.all(caldavNS, "comp").compactMap { $0.attributes["name"]?.uppercased() }
            if !result.components!.contains("VTODO") {
                throw HelperError(.noTodoSupport, "\(displayURL) holds no tasks (VTODO); it allows \(result.components!.joined(separator: ", "))")
            }
        }
        return result
    }

    // MARK: changes

    struct Item {
        var href: String
        var etag: String?
        var json: [String: Any] { ["href": href, "etag": etag.map { $0 as Any } ?? NSNull()] }
    }

    enum Changes {
        case delta(changed: [Item], removed: [String], token: String)
        case everything(items: [Item], token: String?)
    }

    private static func xmlEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    private func syncCollection(token: String) throws -> HTTPAnswer {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:sync-collection xmlns:D="DAV:"><D:sync-token>\(Self.xmlEscaped(token))</D:sync-token>\
            <D:sync-level>1</D:sync-level><D:prop><D:getetag/></D:prop></D:sync-collection>
            """
        return try dav("REPORT", collection, depth: "0", body: body)
    }

    func changes(since token: String?) throws -> Changes {
        if let token, let delta = try delta(since: token) { return delta }
        return try everything()
    }

    /// The changes since `token` by sync-collection, or `nil` when the server rejects the token
    /// (any 4xx but 401: 403/409 valid-sync-token per RFC 6578, 400/412 elsewhere; and 500,
    /// which Xandikos 0.2 answers to a token it does not know: a real outage then fails the
    /// full listing that follows just as well, so nothing is hidden).
    private func delta(since token: String) throws -> Changes? {
        var changed: [String: Item] = [:], removed: Set<String> = [], order: [String] = [], seen: Set<String> = []
        var current = token
        // A server may truncate (507 on the collection's own href): ask again from the token it
        // gave, as long as each page brings something new, and at most `maximumPages` times.
        var pages = 0
        while true {
            pages += 1
            let answer = try syncCollection(token: current)
            if answer.status != 207 {
                if ((400..<500).contains(answer.status) && answer.status != 401 && answer.status != 404 && answer.status != 410)
                    || answer.status == 500 {
                    return nil
                }
                throw HelperError.status(answer.status, "REPORT sync-collection \(displayURL)")
            }
            let status = try Multistatus(answer.body)
            guard let next = status.syncToken else {
                throw HelperError(.badResponse, "REPORT sync-collection \(displayURL): no sync-token in the answer")
            }
            var truncated = false, progress = false
            for response in status.responses {
                if isCollection(response.href) {
                    if response.status == 507 { truncated = true }
                    continue
                }
                if seen.insert(response.href).inserted { order.append(response.href); progress = true }
                if response.status == 404 || response.status == 410 {
                    removed.insert(response.href)
                    changed[response.href] = nil
                } else {
                    removed.remove(response.href)
                    changed[response.href] = Item(href: response.href, etag: response.etag)
                }
            }
            current = next
            if !truncated || next == token { break }
            guard progress, pages < Self.maximumPages else {
                throw HelperError(.badResponse, "REPORT sync-collection \(displayURL): the server truncated its listing "
                                  + (progress ? "\(pages) times" : "without listing anything new") + "; stopped")
            }
        }
        return .delta(changed: order.compactMap { changed[$0] }, removed: order.filter { removed.contains($0) }, token: current)
    }

    /// Every VTODO object: the sync token read first (so a change made meanwhile shows again
    /// next time, never lost), then a calendar-query for VTODO components.
    private func everything() throws -> Changes {
        let token = try currentSyncToken()
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/></D:prop>\
            <C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VTODO"/></C:comp-filter></C:filter>\
            </C:calendar-query>
            """
        let status = try multistatus("REPORT", collection, depth: "1", body: body, what: "REPORT calendar-query")
        var seen = Set<String>()
        var items: [Item] = []
        for response in status.responses where !isCollection(response.href) && response.status.map({ (200..<300).contains($0) }) ?? true {
            if seen.insert(response.href).inserted { items.append(Item(href: response.href, etag: response.etag)) }
        }
        return .everything(items: items, token: token)
    }

    /// The collection's DAV:sync-token, or `nil` when it has none.
    func currentSyncToken() throws -> String? {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:propfind xmlns:D="DAV:"><D:prop><D:sync-token/></D:prop></D:propfind>
            """
        let status = try multistatus("PROPFIND", collection, depth: "0", body: body, what: "PROPFIND")
        let response = status.responses.first(where: { isCollection($0.href) }) ?? status.responses.first
        guard let token = response?.prop(davNS, "sync-token")?.trimmedText, !token.isEmpty else { return nil }
        return token
    }

    // MARK: fetch

    struct Object {
        var href: String
        var etag: String?
        var text: String
        var json: [String: Any] { ["href": href, "etag": etag.map { $0 as Any } ?? NSNull(), "text": text] }
    }

    /// What a fetch found: the objects sent, the hrefs the server said are gone (404 or 410),
    /// and the hrefs read alone by GET because their object made a batch's XML unreadable. An
    /// href in none of them was not delivered (left out of the answer, or sent without its
    /// data): the engine believes nothing of it.
    struct Fetched {
        var objects: [Object] = []
        var gone: [String] = []
        var readAlone: [String] = []

        mutating func add(_ other: Fetched) {
            objects += other.objects
            gone += other.gone
            readAlone += other.readAlone
        }

        var json: [String: Any] { ["objects": objects.map(\.json), "gone": gone, "read_alone": readAlone] }
    }

    func fetch(_ hrefs: [String]) throws -> Fetched {
        var fetched = Fetched()
        var start = 0
        while start < hrefs.count {
            let batch = Array(hrefs[start..<min(start + Self.multigetBatch, hrefs.count)])
            fetched.add(try multiget(batch))
            start += batch.count
        }
        return fetched
    }

    /// One calendar-multiget. When its answer is not XML that can be read (one object with a
    /// control character that the server copied raw into its XML is enough), the batch is
    /// halved and asked again, down to the single object, which is read alone by GET: one bad
    /// object costs about 2·log2(batch) requests and holds up none of the others.
    private func multiget(_ hrefs: [String]) throws -> Fetched {
        let list = hrefs.map { "<D:href>\(Self.xmlEscaped($0))</D:href>" }.joined()
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <C:calendar-multiget xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/>\
            <C:calendar-data/></D:prop>\(list)</C:calendar-multiget>
            """
        let answer = try dav("REPORT", collection, depth: "1", body: body)
        switch answer.status {
        case 207:
            let status: Multistatus
            do {
                status = try Multistatus(answer.body)
            } catch let error as HelperError where error.kind == .badResponse {
                guard hrefs.count > 1 else {
                    var alone = try get(hrefs[0])
                    if !alone.objects.isEmpty { alone.readAlone = hrefs }
                    return alone
                }
                var halves = try multiget(Array(hrefs[..<(hrefs.count / 2)]))
                halves.add(try multiget(Array(hrefs[(hrefs.count / 2)...])))
                return halves
            }
            var byHref: [String: Multistatus.Response] = [:]
            var byPath: [String: Multistatus.Response] = [:]
            for response in status.responses {
                byHref[response.href] = response
                if let path = try? resolve(response.href).path { byPath[path] = response }
            }
            // In the order asked, under the href asked (a server may write it another way).
            var fetched = Fetched()
            for href in hrefs {
                guard let response = byHref[href] ?? (try? resolve(href).path).flatMap({ byPath[$0] }) else { continue }
                if response.status == 404 || response.status == 410 {
                    fetched.gone.append(href)
                } else if let data = response.prop(caldavNS, "calendar-data") {
                    fetched.objects.append(Object(href: href, etag: response.etag, text: data.text))
                }
            }
            return fetched
        case 401, 404, 410:
            throw HelperError.status(answer.status, "REPORT calendar-multiget \(displayURL)")
        default:
            var fetched = Fetched()
            for href in hrefs { fetched.add(try get(href)) }
            return fetched
        }
    }

    /// One object by GET: the object, or the href as gone (404, 410). Another status is no
    /// statement about the object: it is left undelivered.
    private func get(_ href: String) throws -> Fetched {
        let url = try resolve(href)
        let answer = try send("GET", url, headers: ["Accept": "text/calendar"])
        switch answer.status {
        case 200..<300:
            return Fetched(objects: [Object(href: href, etag: answer.header("ETag"), text: String(decoding: answer.body, as: UTF8.self))])
        case 404, 410:
            return Fetched(gone: [href])
        case 401:
            throw HelperError.status(answer.status, "GET \(display(url))")
        default:
            return Fetched()
        }
    }

    // MARK: write

    enum Write {
        case create(href: String, text: String)
        case update(href: String, text: String, etag: String)
        case delete(href: String, etag: String)
    }

    enum Outcome {
        case written(etag: String?), deleted, preconditionFailed
        /// The write failed; `todo` records the others before it reports this.
        case failed(HelperError)
        /// Not started, because an earlier write failed.
        case notSent

        func json(masking secrets: [String]) -> [String: Any] {
            switch self {
            case .written(let etag): return ["outcome": "written", "etag": etag.map { $0 as Any } ?? NSNull()]
            case .deleted: return ["outcome": "deleted"]
            case .preconditionFailed: return ["outcome": "precondition_failed"]
            case .failed(let error): return ["outcome": "failed", "error": error.json(masking: secrets)["error"] ?? NSNull()]
            case .notSent: return ["outcome": "not_sent"]
            }
        }
    }

    /// Runs the writes, a few at once; one outcome per write, in the writes' order. After a
    /// failure no more writes are started: those are `notSent`, and those that were in flight
    /// keep their own outcomes, so that what was done is recorded.
    func write(_ writes: [Write]) throws -> [Outcome] {
        final class State: @unchecked Sendable {
            let lock = NSLock()
            var next = 0
            var failed = false
            var results: [Result<Outcome, Error>?]
            init(count: Int) { results = Array(repeating: nil, count: count) }
        }
        let state = State(count: writes.count)
        let group = DispatchGroup()
        for _ in 0..<min(Self.writesInFlight, writes.count) {
            group.enter()
            let thread = Thread { [self] in
                while true {
                    state.lock.lock()
                    guard !state.failed, state.next < writes.count else { state.lock.unlock(); break }
                    let index = state.next
                    state.next += 1
                    state.lock.unlock()
                    let result = Result { try self.perform(writes[index]) }
                    state.lock.lock()
                    state.results[index] = result
                    if case .failure = result { state.failed = true }
                    state.lock.unlock()
                }
                group.leave()
            }
            thread.start()
        }
        group.wait()
        return state.results.map { result in
            switch result {
            case .success(let outcome)?: return outcome
            case .failure(let error as HelperError)?: return .failed(error)
            case .failure?: return .failed(HelperError(.protocol, "unexpected failure"))
            case nil: return .notSent
            }
        }
    }

    private func perform(_ write: Write) throws -> Outcome {
        let calendar = ["Content-Type": "text/calendar; charset=utf-8"]
        switch write {
        case .create(let href, let text):
            let url = try resolve(href)
            let answer = try send("PUT", url, headers: calendar.merging(["If-None-Match": "*"]) { $1 }, body: Data(text.utf8))
            return try putOutcome(answer, url, creating: true)
        case .update(let href, let text, let etag):
            let url = try resolve(href)
            let answer = try send("PUT", url, headers: calendar.merging(["If-Match": etag]) { $1 }, body: Data(text.utf8))
            return try putOutcome(answer, url, creating: false)
        case .delete(let href, let etag):
            let url = try resolve(href)
            let answer = try send("DELETE", url, headers: ["If-Match": etag])
            switch answer.status {
            case 200..<300, 404, 410: return .deleted
            case 412: return .preconditionFailed
            default: throw HelperError.status(answer.status, "DELETE \(display(url))").forItem
            }
        }
    }

    private func putOutcome(_ answer: HTTPAnswer, _ url: URL, creating: Bool) throws -> Outcome {
        switch answer.status {
        case 200..<300:
            let etag = answer.header("ETag").flatMap { $0.hasPrefix("W/") ? nil : $0 }  // a weak tag is no version
            return .written(etag: etag)
        case 412: return .preconditionFailed
        // An update of an object that is gone: its etag no longer matches anything.
        case 404 where !creating, 410 where !creating: return .preconditionFailed
        default: throw HelperError.status(answer.status, "PUT \(display(url))").forItem
        }
    }
}

private extension HelperError {
    /// A 404 on an item is no proof that the collection is gone: report it as a server error.
    var forItem: HelperError {
        kind == .notFound ? HelperError(.server, message.replacingOccurrences(of: "no such collection", with: "not found"), status: status) : self
    }
}

/// One request in flight: what came back, and the semaphore its sender waits on.
private final class Exchange: @unchecked Sendable {
    let done: DispatchSemaphore
    var body = Data()
    var response: HTTPURLResponse?
    /// The 401 answer that raised an authentication challenge (refused here: the credentials
    /// were sent already, and corelibs would otherwise wait forever for one it does not have).
    var challenged: HTTPURLResponse?
    var answer: HTTPAnswer?
    var error: Error?

    init(_ done: DispatchSemaphore) { self.done = done }
}

/// Collects each task's answer. Tasks with a completion handler cannot refuse an authentication
/// challenge in swift-corelibs-foundation 6.3 (a 401 with WWW-Authenticate hangs them), so every
/// request goes through this delegate.
private final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var exchanges: [Int: Exchange] = [:]

    func register(_ exchange: Exchange, for task: URLSessionTask) {
        lock.lock()
        exchanges[task.taskIdentifier] = exchange
        lock.unlock()
    }

    private func exchange(_ task: URLSessionTask, remove: Bool = false) -> Exchange? {
        lock.lock()
        defer { lock.unlock() }
        return remove ? exchanges.removeValue(forKey: task.taskIdentifier) : exchanges[task.taskIdentifier]
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        exchange(dataTask)?.response = response as? HTTPURLResponse
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(dataTask)?.body.append(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        exchange(task)?.challenged = (challenge.failureResponse as? HTTPURLResponse) ?? (task.response as? HTTPURLResponse)
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let exchange = exchange(task, remove: true) else { return }
        if let challenged = exchange.challenged {
            exchange.answer = HTTPAnswer(status: challenged.statusCode, headers: challenged.allHeaderFields, body: Data())
        } else if error == nil, let response = exchange.response ?? (task.response as? HTTPURLResponse) {
            exchange.answer = HTTPAnswer(status: response.statusCode, headers: response.allHeaderFields, body: exchange.body)
        } else {
            exchange.error = error
        }
        exchange.done.signal()
    }

    // Redirects are followed as URLSession does by default.
}
