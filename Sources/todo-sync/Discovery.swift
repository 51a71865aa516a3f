import JSONCodec
import SyncProtocol

/// `discover`: the calendar collections for tasks that the URL given at setup leads to (RFC 6764
/// section 6, RFC 4791 section 6): the URL itself when it is a calendar collection holding
/// VTODO; else its principal (`current-user-principal`, or the URL itself when it names a
/// `calendar-home-set`), the principal's calendar home, and the VTODO-capable calendars listed
/// there (a calendar without `supported-calendar-component-set` allows every component).
///
/// Only here, at setup, are redirects followed, by this code and never by curl: at most
/// ``maximumRedirects``, never from https to http, and credentials only to the origin given: a
/// request redirected to another origin goes without them, and when that origin asks for them
/// (or the collections found are there), discovery stops and names the URL to set up instead.
final class Discovery {
    struct Found {
        var url: HTTPURL
        var name: String?
        var components: [String]

        var message: DiscoveredCollection { DiscoveredCollection(url: url.string, name: name, components: components) }
    }

    static let maximumRedirects = 5
    /// What a calendar without `supported-calendar-component-set` allows (as `probe` reports it).
    static let allComponents = ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VAVAILABILITY"]

    /// The URL given, as given (no `/` added: `/.well-known/caldav` takes none).
    private let start: HTTPURL
    private let settings: HTTPClient.Settings
    /// The client for the origin given (with the credentials) and those for other origins reached
    /// by a redirect (without any), by origin.
    private var clients: [String: HTTPClient] = [:]
    /// The account's calendar home, once ``run()`` found it at the origin given: what a sync
    /// lists to follow the account's collections (`home`). For a calendar given itself, its
    /// owner's home when the server names one (else `nil`: the sync follows that calendar alone).
    private(set) var home: HTTPURL?

    init(_ client: CalDAVClient) {
        start = client.given
        settings = client.settings
    }

    private static func origin(_ url: HTTPURL) -> String { "\(url.scheme)://\(url.authority)" }

    private func client(for url: HTTPURL) -> HTTPClient {
        let key = "\(url.scheme)://\(url.host):\(url.effectivePort)"
        if let known = clients[key] { return known }
        var settings = settings
        if !url.sameOrigin(start) {
            settings.user = nil
            settings.password = nil
        }
        let made = HTTPClient(settings: settings, origin: url)
        clients[key] = made
        return made
    }

    // MARK: Redirects

    /// Sends one request, following redirects, its 207 answer read by `reader` (whose errors
    /// name the URL that gave it); the last answer and the URL that gave it.
    private func send(
        _ method: String, _ url: HTTPURL, depth: String, body: String, into reader: MultistatusReader
    ) throws(HelperError) -> (HTTPAnswer, HTTPURL) {
        var method = method
        var url = url
        var body: [UInt8]? = Array(body.utf8)
        var hops = 0
        while true {
            var headers = ["Depth: \(depth)"]
            if body != nil { headers.append("Content-Type: application/xml; charset=utf-8") }
            reader.what = "PROPFIND \(url.string)"
            let answer = try client(for: url).send(
                HTTPRequest(method: method, url: url, headers: headers, body: body, sink: reader))
            guard [301, 302, 303, 307, 308].contains(answer.status) else {
                if answer.status == 401 && !url.sameOrigin(start) {
                    throw HelperError(
                        .redirect,
                        "\(start.string) was redirected to \(Self.origin(url)), which asks for a password (HTTP 401); "
                            + "todo sends it only to the server named at setup (\(Self.origin(start))). "
                            + "If \(Self.origin(url)) is the right server, run: todo sync setup \(url.string)",
                        status: 401, location: url.string)
                }
                return (answer, url)
            }
            hops += 1
            guard hops <= Self.maximumRedirects else {
                throw HelperError(
                    .redirect,
                    "\(method) \(start.string): more than \(Self.maximumRedirects) redirects (the last to \(url.string)); stopped",
                    status: answer.status, location: url.string)
            }
            guard let location = answer.header("Location"), var target = url.resolve(location) else {
                throw HelperError(
                    .badResponse,
                    "\(method) \(url.string) was redirected (HTTP \(answer.status)) without a usable Location",
                    status: answer.status)
            }
            target.user = nil
            target.password = nil
            if url.scheme == "https" && target.scheme == "http" {
                throw HelperError(
                    .redirect,
                    "\(url.string) redirects (HTTP \(answer.status)) to \(target.string), from https to plain http; "
                        + "refused: the password and the todos would cross the network unencrypted",
                    status: answer.status, location: target.string)
            }
            // 307 and 308 keep the method and body (RFC 9110), and so do 301 and 302 here: RFC
            // 9110 lets a client turn only POST into GET on them, and a PROPFIND turned into a GET
            // could not be answered with properties at all, so DAV clients (curl's own
            // --location, davx5, vdirsyncer) repeat the PROPFIND at the new URL. 303 means "GET
            // that instead", which gives no properties: the answer then says what is there.
            if answer.status == 303 && method != "HEAD" {
                method = "GET"
                body = nil
            }
            url = target
        }
    }

    // MARK: Steps

    private static let propfindBody = """
        <?xml version="1.0" encoding="utf-8"?>
        <D:propfind xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop>\
        <D:resourcetype/><D:displayname/><C:supported-calendar-component-set/>\
        <D:current-user-principal/><C:calendar-home-set/>\
        </D:prop></D:propfind>
        """

    /// A PROPFIND (redirects followed); its responses and the URL that answered. Any other
    /// answer than a multistatus is an error saying what was found at `url`.
    private func propfind(_ url: HTTPURL, depth: String) throws(HelperError) -> ([DAVResponse], HTTPURL) {
        var responses: [DAVResponse] = []
        let reader = MultistatusReader(
            .properties, keeping: [.resourceType, .displayName, .components, .principal, .calendarHome]
        ) { responses.append($0) }
        let (answer, at) = try send("PROPFIND", url, depth: depth, body: Self.propfindBody, into: reader)
        switch answer.status {
        case 207:
            try reader.finish()
            return (responses, at)
        case 401, 403:
            throw HelperError(
                .auth, "PROPFIND \(at.string): authentication failed (HTTP \(answer.status))", status: answer.status)
        case 404, 410:
            throw HelperError(
                .notFound, "\(at.string) answered \(answer.status): no such collection or principal there",
                status: answer.status)
        case 200..<300, 405, 501:
            throw HelperError(
                .notFound,
                "\(at.string) answered PROPFIND with HTTP \(answer.status): it is not a WebDAV server (nor CalDAV)",
                status: answer.status)
        default:
            throw HelperError.status(answer.status, "PROPFIND \(at.string)")
        }
    }

    /// The properties of `url` itself (Depth 0), and the URL that answered. A multistatus whose
    /// response says 404 (Xandikos answers a PROPFIND so) is the 404 it means.
    private func about(_ url: HTTPURL) throws(HelperError) -> (DAVResponse, HTTPURL) {
        let (responses, at) = try propfind(url, depth: "0")
        guard
            let response = responses.first(where: { at.resolve($0.href)?.isSame(as: at) == true })
                ?? (responses.count == 1 ? responses.first : nil)
        else {
            throw HelperError(.badResponse, "PROPFIND \(at.string): no response about the URL itself")
        }
        if let code = response.status, code == 404 || code == 410 {
            throw HelperError(
                .notFound, "\(at.string) answered \(code): no such collection or principal there", status: code)
        }
        return (response, at)
    }

    /// `href` (a principal's, a calendar home's) resolved against `url`, without user info.
    private static func resolved(_ href: String?, at url: HTTPURL) -> HTTPURL? {
        guard let href, var target = url.resolve(href) else { return nil }
        target.user = nil
        target.password = nil
        return target
    }

    private static func isCalendar(_ response: DAVResponse) -> Bool {
        response.resourceType?.contains(.calendar) == true
    }

    private static func found(_ response: DAVResponse, _ url: HTTPURL) -> Found {
        var url = url
        url.query = nil
        if !url.path.hasSuffix("/") { url.path += "/" }
        return Found(url: url, name: response.displayName, components: response.components ?? allComponents)
    }

    /// The VTODO-capable calendars found from the URL given.
    func run() throws(HelperError) -> [Found] {
        let (response, at) = try about(start)
        if Self.isCalendar(response) {
            let calendar = Self.found(response, at)
            guard calendar.components.contains("VTODO") else {
                throw HelperError(
                    .noTodoSupport,
                    "\(at.string) is a calendar collection that holds no tasks (VTODO); it allows \(calendar.components.joined(separator: ", "))"
                )
            }
            let found = try checked([calendar])
            remember(try? ownersHome(response, at: at))
            return found
        }
        var home = Self.resolved(response.calendarHome, at: at)
        if home == nil, let principal = Self.resolved(response.principal, at: at),
            !principal.isSame(as: at)
        {
            let (properties, principalAt) = try about(principal)
            guard let found = Self.resolved(properties.calendarHome, at: principalAt) else {
                throw HelperError(
                    .notFound,
                    "\(at.string) names the principal \(principalAt.string), which names no calendar home (calendar-home-set): not a CalDAV account"
                )
            }
            home = found
        }
        if let home {
            let (found, listed) = try calendars(in: home, required: true)
            let checked = try checked(found)
            remember(listed)
            return checked
        }
        // No principal named: a calendar home without one is listed all the same.
        if response.resourceType?.contains(.collection) == true {
            let (calendars, listed) = try calendars(in: at, required: false)
            if !calendars.isEmpty {
                let checked = try checked(calendars)
                remember(listed)
                return checked
            }
            throw HelperError(
                .notFound, "\(at.string) is a WebDAV collection but not a calendar, and names no principal")
        }
        throw HelperError(.notFound, "\(at.string) is a WebDAV resource but not a collection, and names no principal")
    }

    /// The calendar home of the owner of the calendar `response` is about (at `at`): its own
    /// `calendar-home-set`, else its `current-user-principal`'s; `nil` when neither is named.
    private func ownersHome(_ response: DAVResponse, at: HTTPURL) throws(HelperError) -> HTTPURL? {
        if let home = Self.resolved(response.calendarHome, at: at) { return home }
        guard let principal = Self.resolved(response.principal, at: at) else { return nil }
        let (properties, principalAt) = try about(principal)
        return Self.resolved(properties.calendarHome, at: principalAt)
    }

    /// Keeps `url` as the account's ``home`` when it is at the origin given (the password goes
    /// nowhere else), with its path ending with `/`.
    private func remember(_ url: HTTPURL?) {
        guard var home = url, home.sameOrigin(start) else { return }
        home.query = nil
        if !home.path.hasSuffix("/") { home.path += "/" }
        self.home = home
    }

    /// The VTODO-capable calendars listed in `home` (Depth 1), and the URL that listed them
    /// (after any redirect). With `required`, a home that lists none is an error saying what it
    /// holds.
    private func calendars(in home: HTTPURL, required: Bool) throws(HelperError) -> ([Found], HTTPURL) {
        let (responses, at) = try propfind(home, depth: "1")
        var found: [Found] = []
        var others: [String] = []
        var seen = Set<String>()
        for response in responses {
            guard var url = at.resolve(response.href), !url.isSame(as: at), Self.isCalendar(response) else { continue }
            url.user = nil
            url.password = nil
            let calendar = Self.found(response, url)
            guard seen.insert(calendar.url.string).inserted else { continue }
            if calendar.components.contains("VTODO") {
                found.append(calendar)
            } else {
                others.append(calendar.name ?? calendar.url.string)
            }
        }
        if found.isEmpty && required {
            let held =
                others.isEmpty
                ? "no calendar at all" : "calendars without tasks (VTODO) only: " + others.joined(separator: ", ")
            throw HelperError(.noTodoSupport, "the calendar home \(at.string) holds \(held)")
        }
        return (found, at)
    }

    /// The collections, unless they are at another origin than the one given while credentials
    /// were given: those go only to the origin given, and a sync sends them where the collection is.
    private func checked(_ found: [Found]) throws(HelperError) -> [Found] {
        guard settings.user != nil, let elsewhere = found.first(where: { !$0.url.sameOrigin(start) }) else {
            return found
        }
        throw HelperError(
            .redirect,
            "the collection \(elsewhere.url.string) is on \(Self.origin(elsewhere.url)), not on \(Self.origin(start)) named at setup; "
                + "todo sends the password only to the server named at setup. If that server is the right one, run: todo sync setup \(elsewhere.url.string)",
            location: elsewhere.url.string)
    }
}
