import SyncProtocol
import TextSafety

/// `make_collection`, `set_collection` and `delete_collection`: a calendar collection for todos
/// made, its display name and colour changed, and deleted, on the server of the collection
/// opened.
///
/// Each request names its own URL (a calendar home, a collection), which must be at the origin
/// `open` named: the credentials go nowhere else, and a URL elsewhere is refused unsent. Redirects
/// are not followed. What the server answers is read within the ``MultistatusReader``'s bounds
/// for `.properties`, and what it says is believed only as far as a Depth-0 PROPFIND afterwards
/// confirms it: servers answer 201 and leave properties out (Xandikos makes every calendar for
/// every component, and sets no colour at creation), so each answer carries what the server
/// really holds.
extension CalDAVClient {
    /// The properties read back of a collection, and those whose per-property status the
    /// answers to MKCALENDAR, extended MKCOL and PROPPATCH give.
    static let collectionProperties: MultistatusReader.Properties = [
        .resourceType, .displayName, .components, .calendarColor
    ]

    /// The most bytes of an answer to MKCALENDAR, MKCOL or DELETE (a few hundred bytes when it
    /// has any). A larger one is not read: what the server did is then the PROPFIND's to say.
    static let maximumCreationAnswer = 1 << 20

    private static let namespaces =
        #"xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:A="http://apple.com/ns/ical/""#

    // MARK: What the request gives

    /// `text`, the request's `field`, as a URL that may be requested: http or https, without user
    /// info, at the origin `open` named (anything elsewhere is refused, never requested: the
    /// credentials go only there), its query dropped and its path ending with `/` (a collection's
    /// URL, as RFC 4791 writes it).
    func collectionURL(_ text: String, field: String) throws(HelperError) -> HTTPURL {
        guard var url = HTTPURL(text) else { throw HelperError(.protocol, "\"\(field)\" is not an http or https URL") }
        guard url.user == nil, url.password == nil else {
            throw HelperError(.protocol, "\"\(field)\" holds user info; the credentials are those `open` was given")
        }
        guard url.sameOrigin(collection) else {
            throw HelperError(
                .protocol,
                "\"\(field)\" \(ControlCharacters.escapedForTerminal(url.string)) is not on the server opened, "
                    + "\(collection.scheme)://\(collection.authority); refused, not requested "
                    + "(the password goes only where it was set up)")
        }
        url.query = nil
        if !url.path.hasSuffix("/") { url.path += "/" }
        return url
    }

    /// Whether `segment` may name a new collection in a home: 1 to 255 bytes of letters, digits
    /// and `-._~` (RFC 3986's unreserved characters: the same in every spelling of the URL), not
    /// `.` or `..`.
    static func isSegment(_ segment: String) -> Bool {
        guard (1...255).contains(segment.utf8.count), segment != ".", segment != ".." else { return false }
        return segment.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                true
            default: false
            }
        }
    }

    /// `name` when it can be a display name: something besides blanks, and no control character
    /// (TextSafety's, C0 among them, which XML 1.0 cannot carry) nor U+FFFE or U+FFFF (no XML
    /// characters either).
    static func checkedName(_ name: String) throws(HelperError) -> String {
        guard name.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else {
            throw HelperError(.protocol, "\"name\" is empty")
        }
        guard
            !name.unicodeScalars.contains(where: {
                ControlCharacters.contains($0) || $0.value == 0xFFFE || $0.value == 0xFFFF
            })
        else {
            throw HelperError(.protocol, "\"name\" holds a control character, which a display name cannot carry")
        }
        return name
    }

    /// `color` as it is written (`#RRGGBB`, ``CalendarColor``'s rule).
    static func checkedColor(_ color: String) throws(HelperError) -> String {
        guard let written = CalendarColor.read(color) else {
            throw HelperError(
                .protocol,
                "\"color\" \(ControlCharacters.escapedForTerminal(color.debugDescription)) is no #RRGGBB colour")
        }
        return written
    }

    // MARK: Bodies

    /// The properties to set, as the `D:prop` of a MKCALENDAR, MKCOL or PROPPATCH: the
    /// resourcetype (extended MKCOL's), the display name, the colour, and a component set of
    /// VTODO alone.
    private static func properties(resourceType: Bool = false, name: String?, color: String?, components: Bool)
        -> String
    {
        var xml = ""
        if resourceType { xml += "<D:resourcetype><D:collection/><C:calendar/></D:resourcetype>" }
        if let name { xml += "<D:displayname>\(xmlEscaped(name))</D:displayname>" }
        if let color { xml += "<A:calendar-color>\(xmlEscaped(color))</A:calendar-color>" }
        if components {
            xml += #"<C:supported-calendar-component-set><C:comp name="VTODO"/></C:supported-calendar-component-set>"#
        }
        return xml
    }

    private static let propfindBody = """
        <?xml version="1.0" encoding="utf-8"?>
        <D:propfind \(namespaces)><D:prop><D:resourcetype/><D:displayname/>\
        <C:supported-calendar-component-set/><A:calendar-color/></D:prop></D:propfind>
        """

    // MARK: Reading back

    /// What the collection at `url` is and holds, by a Depth-0 PROPFIND. Nothing there (404 or
    /// 410, as a status or as the response's: Xandikos answers so) is `not_found` with that status.
    func state(of url: HTTPURL) throws(HelperError) -> CollectionState {
        guard let response = try properties(Self.propfindBody, at: url, keeping: Self.collectionProperties) else {
            throw HelperError(.badResponse, "PROPFIND \(display(url)): no response about the collection")
        }
        if let status = response.status, !(200..<300).contains(status) {
            throw HelperError.status(status, "PROPFIND \(display(url))")
        }
        let calendar = response.resourceType?.contains(.calendar) == true
        return CollectionState(
            url: url.string, calendar: calendar, todos: calendar && (response.components?.contains("VTODO") ?? true),
            components: response.components ?? Discovery.allComponents, name: response.displayName,
            color: response.calendarColor.flatMap(CalendarColor.read))
    }

    /// Whether something is at `url` (a PROPFIND's 207 about it, not saying 404 or 410).
    private func exists(_ url: HTTPURL) throws(HelperError) -> Bool {
        do throws(HelperError) {
            _ = try state(of: url)
            return true
        } catch  where error.status == 404 || error.status == 410 {
            return false
        }
    }

    /// The error for `status`, an answer refusing `what` (`MKCALENDAR http://…`): a 403 is a
    /// refusal of that request (kind `auth`), not a failed login; the others as every request has them.
    static func refused(_ status: Int, _ what: String) -> HelperError {
        guard status == 403 else { return HelperError.status(status, what) }
        return HelperError(.auth, "\(what): the server refused it (HTTP 403)", status: status)
    }

    /// What one property asked for became: what the server said of it (`status`, its propstat's),
    /// else, when it said nothing, whether the collection `holds` the value asked.
    private static func outcome(_ property: CollectionProperty, _ status: Int?, holds: Bool) -> PropertyOutcome {
        PropertyOutcome(property: property, set: status.map { (200..<300).contains($0) } ?? holds, status: status)
    }

    // MARK: make_collection

    /// The answer to a MKCALENDAR or extended MKCOL: its status, and what its body says of each
    /// property and of the error (nothing when it has no body, or none that can be read).
    private struct CreationAnswer {
        var status: Int
        /// The status of the response in a multistatus body (Xandikos answers 207, its response 403).
        var responseStatus: Int?
        var statuses: [MultistatusReader.Properties: Int] = [:]
        var conditions: [String] = []
    }

    /// Makes a calendar collection for todos at `home` + `segment` + `/` (see
    /// ``SyncProtocol/Request/makeCollection(_:)``), and says what the server made.
    func makeCollection(_ request: MakeCollectionRequest) throws(HelperError) -> CollectionAnswer {
        let home = try collectionURL(request.home, field: "home")
        guard Self.isSegment(request.segment) else {
            throw HelperError(
                .protocol,
                "\"segment\" \(ControlCharacters.escapedForTerminal(request.segment.debugDescription)) is not one path segment of letters, digits and -._~"
            )
        }
        let name = try Self.checkedName(request.name)
        let color = try request.color.map { (color) throws(HelperError) in try Self.checkedColor(color) }
        var url = home
        url.path += request.segment + "/"

        let (created, colorLeftOut) = try create(at: url, home: home, name: name, color: color)
        var colorStatus = colorLeftOut ? nil : created.statuses[.calendarColor]
        var colorPatched = false
        if let color, colorLeftOut || colorStatus.map({ !(200..<300).contains($0) }) == true {
            // Refused at creation (Xandikos sets no colour then; a server may refuse the form):
            // a PROPPATCH of its own, whose failure fails nothing.
            colorStatus = try patch(url, name: nil, color: color)[.calendarColor]
            colorPatched = true
        }
        var state = try state(of: url)
        if let color, state.color != color, colorStatus == nil, !colorPatched, state.calendar {
            // The server said nothing of the colour (no body, or one unread) and does not hold it.
            colorStatus = try patch(url, name: nil, color: color)[.calendarColor]
            state = try self.state(of: url)
        }
        var outcomes = [Self.outcome(.name, created.statuses[.displayName], holds: state.name == name)]
        if let color { outcomes.append(Self.outcome(.color, colorStatus, holds: state.color == color)) }
        outcomes.append(
            Self.outcome(.components, created.statuses[.components], holds: state.components == ["VTODO"]))
        return CollectionAnswer(collection: state, properties: outcomes)
    }

    /// MKCALENDAR at `url`, else (405, 501) extended MKCOL; once more without the colour when the
    /// server refused the whole creation for it. The creation's answer, and whether the colour
    /// was left out. Something already there is `taken`; a refusal another error.
    private func create(at url: HTTPURL, home: HTTPURL, name: String, color: String?) throws(HelperError) -> (
        CreationAnswer, colorLeftOut: Bool
    ) {
        var method = "MKCALENDAR"
        var color = color
        var colorLeftOut = false
        while true {
            let what = "\(method) \(display(url))"
            let answer: CreationAnswer
            do throws(HelperError) {
                answer = try creation(method, url, name: name, color: color)
            } catch  where error.kind == .badResponse {
                // The answer came but could not be read whole (larger than its bound, its
                // compression broken): whether the collection was made is the PROPFIND's to say.
                // The segment is new (the caller's UUID), so a calendar there now is this one.
                guard (try? state(of: url))?.calendar == true else { throw error }
                return (CreationAnswer(status: 201), colorLeftOut)
            }
            let status = answer.status
            if (200..<300).contains(status) && status != 207 { return (answer, colorLeftOut) }
            if answer.conditions.contains("resource-must-be-null") {
                let said = answer.responseStatus ?? status
                throw HelperError(
                    .taken,
                    "\(what): something is already there (HTTP \(said), resource-must-be-null); nothing was made",
                    status: said)
            }
            if method == "MKCALENDAR" && (status == 405 || status == 501) {
                method = "MKCOL"
                continue
            }
            if method == "MKCOL" && status == 405 {
                // MKCOL's 405 is "something is there" (RFC 4918 9.3.1), or the method refused.
                guard try exists(url) else {
                    throw HelperError(
                        .server,
                        "\(display(url)): the server makes calendars by neither MKCALENDAR nor extended MKCOL (HTTP 405)",
                        status: status)
                }
                throw HelperError(
                    .taken, "\(what): something is already there (HTTP 405); nothing was made", status: 405)
            }
            if color != nil, let refused = answer.statuses[.calendarColor], !(200..<300).contains(refused),
                refused != 424
            {
                // The whole creation refused for the colour (RFC 4791 makes it atomic): made
                // without it, the colour is set by PROPPATCH after.
                color = nil
                colorLeftOut = true
                continue
            }
            // A multistatus says it in its response (Xandikos).
            let refusal = (status == 207 ? answer.responseStatus : nil) ?? status
            switch refusal {
            case 409, 404, 410:
                throw HelperError(
                    .notFound, "\(what): the calendar home \(display(home)) does not exist (HTTP \(refusal))",
                    status: refusal)
            default:
                throw Self.refused(refusal, what)
            }
        }
    }

    /// One MKCALENDAR or extended MKCOL, its answer's body read (a 201's too) for the status of
    /// each property and the conditions of an error. A body that cannot be read says nothing.
    private func creation(_ method: String, _ url: HTTPURL, name: String, color: String?) throws(HelperError)
        -> CreationAnswer
    {
        let set =
            "<D:set><D:prop>"
            + Self.properties(resourceType: method == "MKCOL", name: name, color: color, components: true)
            + "</D:prop></D:set>"
        let root = method == "MKCOL" ? "D:mkcol" : "C:mkcalendar"
        let body = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<\(root) \(Self.namespaces)>\(set)</\(root)>"
        let answer = try send(
            method, url, headers: Self.xmlHeaders, body: Array(body.utf8), maximumAnswer: Self.maximumCreationAnswer,
            setupAdvice: false)
        var creation = CreationAnswer(status: answer.status)
        final class Found { var responses: [DAVResponse] = [] }
        let found = Found()
        let reader = MultistatusReader(
            .properties, keeping: Self.collectionProperties, what: "\(method) \(display(url))", creation: true
        ) { found.responses.append($0) }
        reader.begin()
        let read: Bool = answer.body.withUnsafeBytes { bytes in
            do throws(HelperError) {
                try reader.consume(bytes)
                try reader.finish()
                return true
            } catch { return false }
        }
        guard read, !answer.body.isEmpty else { return creation }
        let response = found.responses.first(where: { $0.href.isEmpty || names($0.href, url) }) ?? found.responses.first
        creation.responseStatus = response?.status
        creation.statuses = response?.statuses ?? [:]
        creation.conditions = reader.conditions + (response?.conditions ?? [])
        return creation
    }

    // MARK: set_collection

    /// Sets the display name and colour of the collection at `request.url` (each given), and
    /// says what it holds now.
    func setCollection(_ request: SetCollectionRequest) throws(HelperError) -> CollectionAnswer {
        let url = try collectionURL(request.url, field: "url")
        let name = try request.name.map { (name) throws(HelperError) in try Self.checkedName(name) }
        let color = try request.color.map { (color) throws(HelperError) in try Self.checkedColor(color) }
        var statuses: [MultistatusReader.Properties: Int] = [:]
        if name != nil || color != nil {
            statuses = try patch(url, name: name, color: color)
            // PROPPATCH is atomic (RFC 4918 9.2): one property refused fails the others with 424.
            // Those are sent again alone, once, so that one refusal costs no other property.
            let failedDependency = statuses.filter { $0.value == 424 }.map(\.key)
            if !failedDependency.isEmpty,
                statuses.contains(where: { !(200..<300).contains($0.value) && $0.value != 424 })
            {
                let again = try patch(
                    url, name: failedDependency.contains(.displayName) ? name : nil,
                    color: failedDependency.contains(.calendarColor) ? color : nil)
                for property in failedDependency { statuses[property] = again[property] }
            }
        }
        let state = try state(of: url)
        var outcomes: [PropertyOutcome] = []
        if let name { outcomes.append(Self.outcome(.name, statuses[.displayName], holds: state.name == name)) }
        if let color { outcomes.append(Self.outcome(.color, statuses[.calendarColor], holds: state.color == color)) }
        return CollectionAnswer(collection: state, properties: outcomes)
    }

    /// One PROPPATCH of `url` setting `name` and `color` (each given): the status the server
    /// gave each (a response's own status, with no propstat, is every property's). An answer
    /// that is not a multistatus, or cannot be read, says nothing (an empty result); the
    /// PROPFIND after says what was set.
    private func patch(_ url: HTTPURL, name: String?, color: String?) throws(HelperError)
        -> [MultistatusReader.Properties: Int]
    {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <D:propertyupdate \(Self.namespaces)><D:set><D:prop>\
            \(Self.properties(name: name, color: color, components: false))</D:prop></D:set></D:propertyupdate>
            """
        final class Found { var responses: [DAVResponse] = [] }
        let found = Found()
        let answer: HTTPAnswer
        do throws(HelperError) {
            (answer, _) = try multistatus(
                "PROPPATCH", at: url, depth: nil, body: body, what: "PROPPATCH", .properties,
                keeping: Self.collectionProperties
            ) { found.responses.append($0) }
        } catch  where error.kind == .badResponse {
            return [:]
        }
        switch answer.status {
        case 207:
            guard let response = found.responses.first(where: { names($0.href, url) }) ?? found.responses.first
            else { return [:] }
            var statuses = response.statuses
            if statuses.isEmpty, let status = response.status {
                if name != nil { statuses[.displayName] = status }
                if color != nil { statuses[.calendarColor] = status }
            }
            return statuses
        case 200..<300:
            return [:]
        case 404, 410:
            throw HelperError(
                .notFound, "PROPPATCH \(display(url)): no such collection (HTTP \(answer.status))",
                status: answer.status)
        default:
            throw Self.refused(answer.status, "PROPPATCH \(display(url))")
        }
    }

    // MARK: delete_collection

    /// Deletes the calendar collection at `text` with everything in it. Only a calendar
    /// collection is deleted (a PROPFIND says so first: a URL that names a home or a principal by
    /// mistake deletes nothing); nothing there is `absent`, which is done too.
    func deleteCollection(url text: String) throws(HelperError) -> DeleteCollectionAnswer {
        let url = try collectionURL(text, field: "url")
        guard url.path != "/" else { throw HelperError(.protocol, "\"url\" names the server's root, not a collection") }
        let state: CollectionState
        do throws(HelperError) {
            state = try self.state(of: url)
        } catch  where error.kind == .notFound && (error.status == 404 || error.status == 410) {
            return DeleteCollectionAnswer(.absent)
        }
        guard state.calendar else {
            throw HelperError(.notFound, "\(display(url)) is not a calendar collection; it was not deleted")
        }
        // No X-NC-CalDAV-No-Trashbin here (see `write`'s deletes): deleting a list is a deletion,
        // and Nextcloud's trash bin keeps it for the user to restore.
        let answer = try send("DELETE", url, maximumAnswer: Self.maximumCreationAnswer, setupAdvice: false)
        switch answer.status {
        case 207:
            // RFC 4918 9.6.1: members that could not be deleted, and the collection with them.
            throw HelperError(
                .server, "DELETE \(display(url)): the server could not delete all of it (HTTP 207)", status: 207)
        case 200..<300: return DeleteCollectionAnswer(.deleted)
        case 404, 410: return DeleteCollectionAnswer(.absent)
        default: throw Self.refused(answer.status, "DELETE \(display(url))")
        }
    }
}
