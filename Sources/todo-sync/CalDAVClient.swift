import CCurl
import JSONCodec
import SyncProtocol
import TextSafety

/// A CalDAV collection over HTTP: the requests of the helper's protocol, blocking.
final class CalDAVClient {
    /// The collection, without user info, its path ending with `/`.
    let collection: HTTPURL
    /// `scheme://host:port/path` for messages: never any user info.
    let displayURL: String
    /// Strings never to print (the password).
    let secrets: [String]
    /// With no password, the sources that gave none (``Credentials/triedSources``).
    let triedPasswordSources: [String]
    /// The URL as given, without user info, query or an added `/` (discovery starts there:
    /// `/.well-known/caldav` takes no slash), and the HTTP settings (credentials, CA file).
    let given: HTTPURL
    let settings: HTTPClient.Settings
    private let http: HTTPClient
    static let writesInFlight = 4
    static let multigetBatch = 100
    /// The number of members the last full listing (calendar-query) found in this session, if
    /// one ran: a fetch of most of them is one calendar-query with the objects (see ``fetch(_:)``).
    private var fullListingCount: Int?
    /// The most pages of a truncated (507) sync-collection listing read in one sync.
    static let maximumPages = 100

    init(url: String, user: String?, passwordCommand: String?, caFile: String? = nil, timeout: Int? = nil)
        throws(HelperError)
    {
        guard var collection = HTTPURL(url) else {
            throw HelperError(.protocol, "\"url\" is not an http or https URL")
        }
        let credentials = try Credentials.resolve(url: collection, user: user, passwordCommand: passwordCommand)
        secrets = [credentials.password, collection.password].compactMap { $0 }.filter { !$0.isEmpty }
        triedPasswordSources = credentials.triedSources
        collection.user = nil
        collection.password = nil
        collection.query = nil
        given = collection
        if !collection.path.hasSuffix("/") { collection.path += "/" }
        self.collection = collection
        displayURL = collection.string
        settings = HTTPClient.Settings(
            user: credentials.user, password: credentials.password, caFile: caFile,
            timeouts: timeout.map { HTTPClient.Timeouts(seconds: $0) } ?? HTTPClient.Timeouts())
        http = HTTPClient(settings: settings, origin: collection)
    }

    // MARK: HTTP

    /// `href` (as the server or the engine wrote it: a path, a relative or absolute URL) resolved
    /// against the collection, percent-encoding kept.
    func resolve(_ href: String) throws(HelperError) -> HTTPURL {
        guard let url = collection.resolve(href) else {
            throw HelperError(.protocol, "the href \(href.debugDescription) is not a valid URL reference")
        }
        return url
    }

    /// `href` resolved, when it names a member of the collection: at the collection's origin
    /// (credentials go nowhere else), under its path, without `.` or `..` segments. Anything
    /// else is refused, never requested.
    func member(_ href: String) throws(HelperError) -> HTTPURL {
        let url = try resolve(href)
        if let reason = url.refusal(inside: collection) {
            throw HelperError(
                .badResponse,
                "the href \(href.debugDescription) is outside the collection \(displayURL) (\(reason)); refused, not requested"
            )
        }
        return url
    }

    /// `url` for messages, without user info.
    func display(_ url: HTTPURL) -> String { url.string }

    /// Sends one request and waits for its answer. A redirect is an error naming its target:
    /// the helper never follows one (credentials go only to the collection's origin); with
    /// `setupAdvice`, its message says how to set up sync with the target instead.
    func send(
        _ method: String, _ url: HTTPURL, headers: [String: String] = [:], body: [UInt8]? = nil,
        maximumAnswer: Int = HTTPClient.maximumBody, setupAdvice: Bool = true
    ) throws(HelperError) -> HTTPAnswer {
        var request = request(method, url, headers: headers, body: body)
        request.maximumAnswer = maximumAnswer
        let answer = try http.send(request)
        try checkRedirect(answer, method, url, setupAdvice: setupAdvice)
        return answer
    }

    func request(_ method: String, _ url: HTTPURL, headers: [String: String], body: [UInt8]?) -> HTTPRequest {
        HTTPRequest(
            method: method, url: url, headers: headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" },
            body: body)
    }

    func checkRedirect(_ answer: HTTPAnswer, _ method: String, _ url: HTTPURL, setupAdvice: Bool = true)
        throws(HelperError)
    {
        guard [301, 302, 303, 307, 308].contains(answer.status) else { return }
        let target = answer.header("Location").flatMap { url.resolve($0) }
        let location = target?.string ?? answer.header("Location") ?? "(no Location given)"
        // The server's text, for a terminal: a host may hold any character but C0.
        let shown = ControlCharacters.escapedForTerminal(location)
        let setup =
            // --relink: setup refuses another URL without it (the link's state is forgotten; no todo is lost).
            target.map {
                $0.isSame(as: url) || !setupAdvice
                    ? "" : " If that is the right place: todo sync setup \(shown) --relink"
            }
            ?? ""
        throw HelperError(
            .redirect,
            "\(method) \(display(url)) was redirected (HTTP \(answer.status)) to \(shown); "
                + "todo does not follow redirects (the password goes only where it was set up)." + setup,
            status: answer.status, location: location)
    }

    static let xmlHeaders = ["Content-Type": "application/xml; charset=utf-8"]

    /// A PROPFIND, REPORT or PROPPATCH on `url` (the collection unless another is given: one at
    /// its origin), its 207 answer read as it arrives by a ``MultistatusReader`` (with `answer`'s
    /// bounds, `keeping` those properties), each response handed to `each`. The HTTP answer, and
    /// the multistatus's own sync-token; an answer other than 207 comes back unread (its body in
    /// the answer), for the caller to judge. The reader's errors begin with `what` and the URL.
    /// A redirect's error says how to set up the target only for the collection itself.
    func multistatus(
        _ method: String, at url: HTTPURL? = nil, depth: String?, body: String, what: String,
        _ answer: MultistatusReader.Answer, keeping: MultistatusReader.Properties,
        each: @escaping (DAVResponse) throws(HelperError) -> Void
    ) throws(HelperError) -> (HTTPAnswer, syncToken: String?) {
        let setupAdvice = url == nil
        let url = url ?? collection
        let reader = MultistatusReader(answer, keeping: keeping, what: "\(what) \(display(url))", each: each)
        var headers = Self.xmlHeaders
        if let depth { headers["Depth"] = depth }
        var request = request(method, url, headers: headers, body: Array(body.utf8))
        request.maximumAnswer = answer.maximumBody
        request.sink = reader
        let answer = try http.send(request)
        try checkRedirect(answer, method, url, setupAdvice: setupAdvice)
        guard answer.status == 207 else { return (answer, nil) }
        try reader.finish()
        return (answer, reader.syncToken)
    }

    /// The properties of `url` (the collection unless another is given), `keeping` those (a
    /// PROPFIND, Depth 0): the response about that URL, else the first; `nil` when there is none.
    /// Another status than 207 throws.
    func properties(_ body: String, at url: HTTPURL? = nil, keeping: MultistatusReader.Properties)
        throws(HelperError) -> DAVResponse?
    {
        var responses: [DAVResponse] = []
        let (answer, _) = try multistatus(
            "PROPFIND", at: url, depth: "0", body: body, what: "PROPFIND", .properties, keeping: keeping
        ) {
            responses.append($0)
        }
        let about = url ?? collection
        guard answer.status == 207 else { throw HelperError.status(answer.status, "PROPFIND \(display(about))") }
        return responses.first(where: { names($0.href, about) }) ?? responses.first
    }

    /// Whether `href`, resolved against the collection, names `url`.
    func names(_ href: String, _ url: HTTPURL) -> Bool {
        guard let resolved = try? resolve(href) else { return false }
        return resolved.isSame(as: url)
    }

    /// Whether a listed href names the collection itself; any other must name one of its
    /// members, or it is refused. The href is resolved once: a listing may hold 100,000 of them.
    private func listedIsCollection(_ href: String) throws(HelperError) -> Bool {
        func outside() -> HelperError {
            HelperError(
                .badResponse,
                "the server listed \(href.debugDescription), outside the collection \(displayURL); refused")
        }
        guard let url = collection.resolve(href) else { throw outside() }
        if url.isSame(as: collection) { return true }
        guard url.refusal(inside: collection) == nil else { throw outside() }
        return false
    }

    // MARK: probe

    /// Whether the collection is a calendar that may hold VTODOs, and offers a sync token.
    func probe() throws(HelperError) -> ProbeAnswer {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:propfind xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop>\
            <D:resourcetype/><C:supported-calendar-component-set/><D:sync-token/><D:displayname/>\
            </D:prop></D:propfind>
            """
        guard let response = try properties(body, keeping: [.resourceType, .components, .syncToken]) else {
            throw HelperError(.badResponse, "PROPFIND \(displayURL): no response for the collection")
        }
        guard response.resourceType?.contains(.calendar) == true else {
            throw HelperError(.notFound, "\(displayURL) is not a calendar collection")
        }
        if let components = response.components, !components.contains("VTODO") {
            throw HelperError(
                .noTodoSupport, "\(displayURL) holds no tasks (VTODO); it allows \(components.joined(separator: ", "))")
        }
        return ProbeAnswer(
            syncToken: response.syncToken != nil, components: response.components ?? Discovery.allComponents)
    }

    // MARK: changes

    /// `text` as XML character data (`&`, `<` and `>` escaped).
    static func xmlEscaped(_ text: String) -> String {
        text.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;").replacingAll(">", with: "&gt;")
    }

    func changes(since token: String?) throws(HelperError) -> ListingAnswer {
        if let token, let delta = try delta(since: token) { return delta }
        return try everything()
    }

    /// The changes since `token` by sync-collection, or `nil` when the server rejects the token
    /// (any 4xx but 401, 404 and 410: 403/409 valid-sync-token per RFC 6578, 400/412 elsewhere;
    /// and 500, which Xandikos 0.2 answers to a token it does not know: a real outage then fails
    /// the full listing that follows just as well, so nothing is hidden).
    ///
    /// Every page's members are kept in one ``ListedMembers``: a server truncating its listing
    /// page after page cannot pile up more than its bounds.
    private func delta(since token: String) throws(HelperError) -> ListingAnswer? {
        final class State {
            var members = ListedMembers()
            var truncated = false
            var progress = false
        }
        let state = State()
        var current = token
        // A server may truncate (507 on the collection's own href): ask again from the token it
        // gave, as long as each page brings something new, and at most `maximumPages` times.
        var pages = 0
        while true {
            pages += 1
            state.truncated = false
            state.progress = false
            let body = """
                <?xml version="1.0" encoding="utf-8"?>
                <D:sync-collection xmlns:D="DAV:"><D:sync-token>\(Self.xmlEscaped(current))</D:sync-token>\
                <D:sync-level>1</D:sync-level><D:prop><D:getetag/></D:prop></D:sync-collection>
                """
            let (answer, syncToken) = try multistatus(
                "REPORT", depth: "0", body: body, what: "REPORT sync-collection", .listing, keeping: .etag
            ) { (response) throws(HelperError) in
                if try self.listedIsCollection(response.href) {
                    if response.status == 507 { state.truncated = true }
                    return
                }
                let removed = response.status == 404 || response.status == 410
                let href = response.href
                do throws(HelperError) {
                    if try state.members.add(
                        href, etag: removed ? nil : response.etag, removed: removed, replacing: true)
                    {
                        state.progress = true
                    }
                } catch {
                    throw HelperError(error.kind, "REPORT sync-collection \(self.displayURL): \(error.message)")
                }
            }
            if answer.status != 207 {
                if ((400..<500).contains(answer.status) && answer.status != 401 && answer.status != 404
                    && answer.status != 410)
                    || answer.status == 500
                {
                    return nil
                }
                throw HelperError.status(answer.status, "REPORT sync-collection \(displayURL)")
            }
            guard let next = syncToken else {
                throw HelperError(.badResponse, "REPORT sync-collection \(displayURL): no sync-token in the answer")
            }
            current = next
            if !state.truncated || next == token { break }
            guard state.progress, pages < Self.maximumPages else {
                throw HelperError(
                    .badResponse,
                    "REPORT sync-collection \(displayURL): the server truncated its listing "
                        + (state.progress ? "\(pages) times" : "without listing anything new") + "; stopped")
            }
        }
        return .delta(state.members, token: current)
    }

    /// Every VTODO object: the sync token read first (so a change made meanwhile shows again
    /// next time, never lost), then a calendar-query for VTODO components.
    private func everything() throws(HelperError) -> ListingAnswer {
        let token = try currentSyncToken()
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/></D:prop>\
            <C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VTODO"/></C:comp-filter></C:filter>\
            </C:calendar-query>
            """
        final class State {
            var members = ListedMembers()
            var truncated = false
        }
        let state = State()
        let (answer, _) = try multistatus(
            "REPORT", depth: "1", body: body, what: "REPORT calendar-query", .listing, keeping: .etag
        ) { (response) throws(HelperError) in
            if try self.listedIsCollection(response.href) {
                // RFC 4791 7.8.1 (as RFC 5689 reads it): the collection at 507 is a listing the
                // server cut short, its objects only some of the collection's.
                if response.status == 507 { state.truncated = true }
                return
            }
            guard response.status.map({ (200..<300).contains($0) }) ?? true else { return }
            let href = response.href
            do throws(HelperError) { try state.members.add(href, etag: response.etag, replacing: false) } catch {
                throw HelperError(error.kind, "REPORT calendar-query \(self.displayURL): \(error.message)")
            }
        }
        guard answer.status == 207 else {
            throw HelperError.status(answer.status, "REPORT calendar-query \(displayURL)")
        }
        fullListingCount = state.members.count
        return .everything(state.members, token: token, truncated: state.truncated)
    }

    /// The collection's DAV:sync-token, or `nil` when it has none.
    func currentSyncToken() throws(HelperError) -> String? {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:propfind xmlns:D="DAV:"><D:prop><D:sync-token/></D:prop></D:propfind>
            """
        return try properties(body, keeping: .syncToken)?.syncToken
    }

    // MARK: fetch

    /// What a fetch found (SyncProtocol's ``FetchAnswer``): the objects sent, the hrefs the
    /// server said are gone (404 or 410), and the hrefs read alone by GET because their object
    /// made a batch's XML unreadable. An href in none of them was not delivered (left out of the
    /// answer, or sent without its data): the engine believes nothing of it.
    typealias Fetched = FetchAnswer

    /// The objects at `hrefs`, by calendar-multiget in batches of ``multigetBatch``. When they are
    /// more than one batch and at least half of what a full listing just found (a first sync, or a
    /// lost sync token), one calendar-query with the objects comes first: some servers look each
    /// multiget href up in the whole collection (Xandikos 0.2 does, so that one batch out of a
    /// large collection takes longer than a calendar-query sending every object), and whatever
    /// that answer does not deliver is multigot as before.
    func fetch(_ hrefs: [String]) throws(HelperError) -> Fetched {
        for href in hrefs { _ = try member(href) }
        var fetched = Fetched()
        var remaining = hrefs
        if let listed = fullListingCount, hrefs.count > Self.multigetBatch, hrefs.count * 2 >= listed {
            (fetched, remaining) = try queried(hrefs)
        }
        var start = 0
        while start < remaining.count {
            let batch = Array(remaining[start..<min(start + Self.multigetBatch, remaining.count)])
            fetched.add(try multiget(batch))
            start += batch.count
        }
        return fetched
    }

    /// The objects of `hrefs` that one calendar-query for every VTODO with its data delivers, and
    /// the hrefs it did not (none when the answer cannot be read, or is too large: all are left
    /// to calendar-multiget, which has its own way with those). Objects the query sends that were
    /// not asked for are not kept.
    private func queried(_ hrefs: [String]) throws(HelperError) -> (Fetched, remaining: [String]) {
        var byPath: [String: Int] = [:]
        for (index, href) in hrefs.enumerated() {
            if let url = try? resolve(href) { byPath[url.comparablePath] = index }
        }
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/>\
            <C:calendar-data/></D:prop>\
            <C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VTODO"/></C:comp-filter></C:filter>\
            </C:calendar-query>
            """
        final class State { var found: [FetchedObject?] = [] }
        let state = State()
        state.found = Array(repeating: nil, count: hrefs.count)
        do throws(HelperError) {
            let (answer, _) = try multistatus(
                "REPORT", depth: "1", body: body, what: "REPORT calendar-query", .listing,
                keeping: [.etag, .calendarData]
            ) { (response) throws(HelperError) in
                guard response.status.map({ (200..<300).contains($0) }) ?? true, let data = response.calendarData,
                    let url = self.collection.resolve(response.href), url.sameOrigin(self.collection),
                    let index = byPath[url.comparablePath], state.found[index] == nil
                else { return }
                state.found[index] = FetchedObject(href: hrefs[index], etag: response.etag, text: data)
            }
            guard answer.status == 207 else { return (Fetched(), hrefs) }
        } catch  where error.kind == .badResponse {
            return (Fetched(), hrefs)
        }
        var fetched = Fetched()
        var remaining: [String] = []
        for (index, href) in hrefs.enumerated() {
            if let object = state.found[index] { fetched.objects.append(object) } else { remaining.append(href) }
        }
        return (fetched, remaining)
    }

    /// One calendar-multiget. When its answer is not XML that can be read (one object with a
    /// control character that the server copied raw into its XML is enough), the batch is
    /// halved and asked again, down to the single object, which is read alone by GET: one bad
    /// object costs about 2·log2(batch) requests and holds up none of the others.
    private func multiget(_ hrefs: [String]) throws(HelperError) -> Fetched {
        let list = hrefs.map { "<D:href>\(Self.xmlEscaped($0))</D:href>" }.joined()
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <C:calendar-multiget xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:getetag/>\
            <C:calendar-data/></D:prop>\(list)</C:calendar-multiget>
            """
        /// The batch again in two halves, or the one object by GET (an answer over the size bound
        /// or not readable as XML is no statement about the objects in it).
        func halved() throws(HelperError) -> Fetched {
            guard hrefs.count > 1 else {
                var alone = try get(hrefs[0])
                if !alone.objects.isEmpty { alone.readAlone = hrefs }
                return alone
            }
            var halves = try multiget(Array(hrefs[..<(hrefs.count / 2)]))
            halves.add(try multiget(Array(hrefs[(hrefs.count / 2)...])))
            return halves
        }
        var responses: [DAVResponse] = []
        let answer: HTTPAnswer
        do throws(HelperError) {
            (answer, _) = try multistatus(
                "REPORT", depth: "1", body: body, what: "REPORT calendar-multiget", .properties,
                keeping: [.etag, .calendarData]
            ) { responses.append($0) }
        } catch  where error.kind == .badResponse {
            return try halved()  // too large a batch, broken compression or unreadable XML: smaller ones
        }
        switch answer.status {
        case 207:
            var byHref: [String: DAVResponse] = [:]
            var byPath: [String: DAVResponse] = [:]
            for response in responses {
                byHref[response.href] = response
                if let url = try? resolve(response.href), url.sameOrigin(collection) {
                    byPath[url.comparablePath] = response
                }
            }
            // In the order asked, under the href asked (a server may write it another way).
            var fetched = Fetched()
            for href in hrefs {
                guard let response = byHref[href] ?? (try? resolve(href)).flatMap({ byPath[$0.comparablePath] }) else {
                    continue
                }
                if response.status == 404 || response.status == 410 {
                    fetched.gone.append(href)
                } else if let data = response.calendarData {
                    fetched.objects.append(FetchedObject(href: href, etag: response.etag, text: data))
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
    private func get(_ href: String) throws(HelperError) -> Fetched {
        let url = try member(href)
        let answer = try send("GET", url, headers: ["Accept": "text/calendar"], maximumAnswer: HTTPClient.maximumObject)
        switch answer.status {
        case 200..<300:
            return Fetched(objects: [
                FetchedObject(
                    href: href, etag: answer.header("ETag"), text: String(decoding: answer.body, as: UTF8.self))
            ])
        case 404, 410:
            return Fetched(gone: [href])
        case 401:
            throw HelperError.status(answer.status, "GET \(display(url))")
        default:
            return Fetched()
        }
    }

    // MARK: write

    /// Runs the writes, a few at once (one connection pool; HTTP/2 streams where the server
    /// multiplexes); one outcome per write, in the writes' order. After a failure no more writes
    /// are started: those are `notSent`, and those that were in flight keep their own outcomes,
    /// so that what was done is recorded (a failure's error masked of the secrets).
    func write(_ writes: [Write]) -> [WriteAnswer.Outcome] {
        var outcomes = [WriteAnswer.Outcome](repeating: .notSent, count: writes.count)
        var urls = [HTTPURL?](repeating: nil, count: writes.count)
        http.run(
            count: writes.count, inFlight: Self.writesInFlight,
            request: { (index) throws(HelperError) -> HTTPRequest in
                let (method, href, headers, body) = Self.parts(of: writes[index])
                let url = try member(href)
                urls[index] = url
                return request(method, url, headers: headers, body: body)
            },
            done: { index, result in
                do throws(HelperError) {
                    let answer = try result.get()
                    try checkRedirect(answer, Self.parts(of: writes[index]).method, urls[index]!)
                    outcomes[index] = try outcome(of: writes[index], answer, urls[index]!)
                    return true
                } catch {
                    outcomes[index] = .failed(error.errorObject(masking: secrets))
                    return false
                }
            })
        return outcomes
    }

    private static func parts(of write: Write) -> (
        method: String, href: String, headers: [String: String], body: [UInt8]?
    ) {
        let calendar = "text/calendar; charset=utf-8"
        switch write {
        case .create(let href, let text):
            return ("PUT", href, ["Content-Type": calendar, "If-None-Match": "*"], Array(text.utf8))
        case .update(let href, let text, let etag):
            return ("PUT", href, ["Content-Type": calendar, "If-Match": etag], Array(text.utf8))
        case .delete(let href, let etag):
            // Nextcloud (22 and later) keeps a deleted object in the calendar's trash bin, where
            // it still holds its UID in that calendar: a todo moved to another list (deleted from
            // this collection, put in the other) could not be moved back, nor an `rm` undone
            // (both put the same UID here again, and sabre refuses it). A move's delete is no
            // deletion at all, and `todo undo` keeps a deleted todo's text itself, so the header
            // asks Nextcloud to delete for good. Other servers ignore the header.
            return ("DELETE", href, ["If-Match": etag, "X-NC-CalDAV-No-Trashbin": "1"], nil)
        }
    }

    private func outcome(of write: Write, _ answer: HTTPAnswer, _ url: HTTPURL) throws(HelperError)
        -> WriteAnswer.Outcome
    {
        switch write {
        case .create:
            return try putOutcome(answer, url, creating: true)
        case .update:
            return try putOutcome(answer, url, creating: false)
        case .delete:
            switch answer.status {
            case 200..<300, 404, 410: return .deleted
            case 412: return .preconditionFailed
            default: throw HelperError.status(answer.status, "DELETE \(display(url))").forItem
            }
        }
    }

    private func putOutcome(_ answer: HTTPAnswer, _ url: HTTPURL, creating: Bool) throws(HelperError)
        -> WriteAnswer.Outcome
    {
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

extension HelperError {
    /// A 404 on an item is no proof that the collection is gone: report it as a server error.
    fileprivate var forItem: HelperError {
        kind == .notFound
            ? HelperError(.server, message.replacingAll("no such collection", with: "not found"), status: status) : self
    }
}

extension FetchAnswer {
    /// Another batch's findings after these.
    mutating func add(_ other: FetchAnswer) {
        objects += other.objects
        gone += other.gone
        readAlone += other.readAlone
    }
}
