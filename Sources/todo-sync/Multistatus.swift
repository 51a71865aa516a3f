import CLibXML2
import Glibc

/// What one `<D:response>` of a DAV:multistatus says of one of its hrefs: its status, and the
/// properties its reader keeps (``MultistatusReader/Properties``) as its 2xx propstats report
/// them (a propstat without a status counts as 2xx), with the status each propstat gave each of
/// them (``statuses``). Texts are trimmed of XML blanks, an empty one being `nil`, and of one
/// given twice the first that is not is kept; calendar-data, a resourcetype and a component set
/// are read where they first come.
struct DAVResponse {
    /// The types of DAV:resourcetype the helper tells apart.
    struct ResourceType: OptionSet {
        let rawValue: UInt8
        static let collection = ResourceType(rawValue: 1)
        static let calendar = ResourceType(rawValue: 2)
    }

    var href = ""
    /// The response-level status (for a member removed in a sync-collection: 404).
    var status: Int?
    /// DAV:getetag.
    var etag: String?
    /// CALDAV:calendar-data as sent, untrimmed, its carriage returns kept (see ``CarriageReturns``).
    var calendarData: String?
    /// DAV:sync-token as a property (a PROPFIND's; a listing's own token is the reader's).
    var syncToken: String?
    /// DAV:displayname.
    var displayName: String?
    /// DAV:resourcetype, `nil` when not found.
    var resourceType: ResourceType?
    /// The `name` attributes of CALDAV:supported-calendar-component-set's `comp`s, uppercased;
    /// `nil` when the property is not found (which allows every component).
    var components: [String]?
    /// The DAV:href in DAV:current-user-principal.
    var principal: String?
    /// The DAV:href in CALDAV:calendar-home-set.
    var calendarHome: String?
    /// Apple's calendar-color, as sent (``CalendarColor`` reads it).
    var calendarColor: String?
    /// CalendarServer's getctag (`http://calendarserver.org/ns/`): it changes whenever a member
    /// of the collection does.
    var ctag: String?
    /// The status of each kept property named in a propstat (one without a status: 200), as a
    /// PROPPATCH, MKCALENDAR or extended MKCOL answer says whether each was set; a failure, once
    /// given, stays. Each key is one property. Kept by `.properties` readers only: a listing
    /// of a million responses makes no dictionary for each.
    var statuses: [MultistatusReader.Properties: Int] = [:]
    /// The conditions (RFC 4918 section 16) of the DAV:error in the response, by local name
    /// (`resource-must-be-null`); the reader's ``MultistatusReader/conditions`` has a DAV:error
    /// that is the whole answer.
    var conditions: [String] = []

    /// What is still unknown taken from `later`, a later 2xx propstat's properties.
    fileprivate mutating func fill(from later: DAVResponse) {
        etag = etag ?? later.etag
        calendarData = calendarData ?? later.calendarData
        syncToken = syncToken ?? later.syncToken
        displayName = displayName ?? later.displayName
        resourceType = resourceType ?? later.resourceType
        components = components ?? later.components
        principal = principal ?? later.principal
        calendarHome = calendarHome ?? later.calendarHome
        calendarColor = calendarColor ?? later.calendarColor
        ctag = ctag ?? later.ctag
    }
}

/// A DAV:multistatus answer (RFC 4918 section 13), read as it arrives: every one the helper reads
/// (PROPFIND, calendar-multiget, the sync-collection and calendar-query listings). libxml2's push
/// parser (SAX2) is given the body as curl delivers it; of each `<D:response>` only its hrefs,
/// its status and the ``Properties`` asked for are kept, handed to `each` when the response
/// ends, once per href. No tree is built: memory is what `each` keeps.
///
/// Bounds, whatever the server sends: no DTD, no entity, no network; elements at most
/// ``maximumDepth`` deep, namespace names of at most ``maximumNamespace`` bytes; and by ``Answer``:
/// - `.listing` (a body of up to ``HTTPClient/maximumListing`` bytes): ``maximumResponseElements``
///   elements in one response, ``maximumOutsideElements`` outside the responses,
///   ``maximumResponses`` responses; ``maximumKeptText`` bytes in one href, status, etag or
///   sync-token, ``HTTPClient/maximumObject`` in one calendar-data; ``maximumPending`` bytes that
///   libxml2 holds unparsed (a tag or a text that never ends: a decompression bomb of blanks) and
///   ``maximumNames`` bytes of distinct names.
/// - `.properties` (up to ``HTTPClient/maximumBody`` bytes): ``maximumElements`` elements, and
///   ``maximumText`` bytes of text in any one element.
///
/// Where carriage returns are kept (see ``keepsCarriageReturns``), the body once they are written
/// as `&#13;` is at most a quarter larger than its own bound.
///
/// With `creation`, the answers to MKCALENDAR and extended MKCOL are read too: a root
/// `mkcalendar-response` or `mkcol-response` (RFC 4791 5.3.1, RFC 5689; of any namespace, as
/// Xandikos 0.2 writes the first in a misspelt one) is one response of propstats, handed to
/// `each` with an empty href; a root DAV:error gives its conditions (``conditions``).
///
/// The reader's own errors (`bad_response`) begin with ``what``; an error `each` throws ends the
/// read as it is.
final class MultistatusReader: BodySink {
    /// The two sizes of answer, with their bounds.
    enum Answer {
        /// A listing of the collection: any number of responses, each small.
        case listing
        /// The properties of a few resources: a PROPFIND, a calendar-multiget.
        case properties

        /// The most bytes of the body, decompressed.
        var maximumBody: Int { self == .listing ? HTTPClient.maximumListing : HTTPClient.maximumBody }
        /// The most bytes handed to libxml2 once carriage returns are written as `&#13;` (5 bytes
        /// each): a quarter more than the body (iCalendar text has a CR every 40 bytes or so),
        /// whatever share of CRs a server puts in.
        var maximumProtected: Int { maximumBody + maximumBody / 4 }
    }

    /// The properties a reader keeps; others are skipped as they stream by.
    struct Properties: OptionSet, Hashable {
        let rawValue: UInt16
        static let etag = Properties(rawValue: 1 << 0)
        static let calendarData = Properties(rawValue: 1 << 1)
        static let syncToken = Properties(rawValue: 1 << 2)
        static let displayName = Properties(rawValue: 1 << 3)
        static let resourceType = Properties(rawValue: 1 << 4)
        static let components = Properties(rawValue: 1 << 5)
        static let principal = Properties(rawValue: 1 << 6)
        static let calendarHome = Properties(rawValue: 1 << 7)
        static let calendarColor = Properties(rawValue: 1 << 8)
        static let ctag = Properties(rawValue: 1 << 9)

        /// Calls `body` with each property of the set, alone, in order (allocating nothing).
        func forEach(_ body: (Properties) -> Void) {
            var bits = rawValue
            while bits != 0 {
                let lowest = bits & (~bits &+ 1)
                body(Properties(rawValue: lowest))
                bits &= bits &- 1
            }
        }
    }

    /// The most conditions kept of one DAV:error.
    static let maximumConditions = 16

    /// The deepest element nesting read: a DAV answer needs 6 (multistatus, response,
    /// propstat, prop, a property, and an href or a comp inside it).
    static let maximumDepth = 64
    /// The longest namespace name declared: DAV's are about 30 bytes, and each element's is
    /// compared with them.
    static let maximumNamespace = 1_024
    /// The most elements inside one response of a listing (the response itself not counted):
    /// one needs 5 (href, propstat, prop, getetag, status), a removed member 2 (href, status);
    /// other properties a server adds may hold a few elements each.
    static let maximumResponseElements = 1_000
    /// Elements outside a listing's responses: the multistatus, its sync-token and responsedescription.
    static let maximumOutsideElements = 1_000
    /// The most responses in one answer.
    static let maximumResponses = 1_000_000
    /// The most bytes of one href, status, etag or sync-token of a listing.
    static let maximumKeptText = 64 << 10
    /// The most bytes libxml2 may hold unparsed of a listing: the longest tag or text between two tags.
    static let maximumPending = 1 << 20
    /// The most distinct names libxml2 keeps in its dictionary for a listing, in bytes.
    static let maximumNames = 1 << 20
    /// The most elements of a PROPFIND or calendar-multiget answer, whose responses its caller
    /// keeps (a multiget of ``CalDAVClient/multigetBatch`` objects needs 7 a response).
    static let maximumElements = 150_000
    /// The most text of one element of a PROPFIND or calendar-multiget answer: an object larger
    /// than this in a calendar-multiget is read alone, by GET.
    static let maximumText = 2 << 20

    private enum Kind {
        case other, multistatus, syncToken, response, href, responseStatus, propstat, propstatStatus, prop
        // The properties, and the href in a principal or a calendar home.
        case etag, calendarData, syncTokenProperty, displayName, resourceType, components, principal, calendarHome
        case calendarColor, ctag, propertyHref
        /// A DAV:error, the whole answer's or a response's: its children are conditions.
        case error

        /// Whether the element's text is kept.
        var keepsText: Bool {
            switch self {
            case .syncToken, .href, .responseStatus, .propstatStatus, .etag, .calendarData, .syncTokenProperty,
                .displayName, .calendarColor, .ctag, .propertyHref:
                true
            default: false
            }
        }
    }

    /// One open element: what it is, and the bytes of its own text so far.
    private struct Frame {
        var kind: Kind
        var text = 0
    }

    private let answer: Answer
    private let keeping: Properties
    /// Whether carriage returns in text are kept: in every answer but a listing of hrefs and
    /// etags (whose texts are all trimmed, and which can be 256 MiB: not scanned for nothing).
    private let keepsCarriageReturns: Bool
    /// Whether the answers to MKCALENDAR and extended MKCOL are read too (see the type's notes).
    private let creation: Bool
    /// What the answer answers (`PROPFIND http://…`), for errors.
    var what: String
    /// Called for each href of each response, in order.
    private let each: (DAVResponse) throws(HelperError) -> Void
    /// The top-level DAV:sync-token (a sync-collection's), once read.
    private(set) var syncToken: String?
    private(set) var responses = 0
    /// The conditions of a DAV:error that is the whole answer (`resource-must-be-null`), by
    /// local name, at most ``maximumConditions``.
    private(set) var conditions: [String] = []

    private var context: xmlParserCtxtPtr?
    private var failure: HelperError?
    private var carriageReturns = CarriageReturns()
    private var protected: [UInt8] = []
    private var fed = 0
    private var stack: [Frame] = []
    private var sawRoot = false
    private var elements = 0
    private var outsideElements = 0
    private var inResponse = false
    private var responseElements = 0
    // The response being read, its hrefs, and the propstat being read.
    private var response = DAVResponse()
    private var hrefs: [String] = []
    private var propstat = DAVResponse()
    private var propstatStatus: Int?
    /// The kept properties the propstat being read names.
    private var propstatNamed: Properties = []
    /// Whether the root element is the one response (a creation's answer).
    private var rootIsResponse = false
    /// The text of the element whose text is kept (none is inside another).
    private var text: [UInt8] = []

    init(
        _ answer: Answer, keeping: Properties, what: String = "", creation: Bool = false,
        each: @escaping (DAVResponse) throws(HelperError) -> Void
    ) {
        self.answer = answer
        self.keeping = keeping
        self.creation = creation
        keepsCarriageReturns = answer == .properties || keeping.contains(.calendarData)
        self.what = what
        self.each = each
    }

    deinit { free() }

    private func free() {
        if let context {
            if let document = context.pointee.myDoc { xmlFreeDoc(document) }
            xmlFreeParserCtxt(context)
        }
        context = nil
    }

    /// A new answer's body starts (after an authentication round trip, say): all read so far goes.
    func begin() {
        free()
        failure = nil
        carriageReturns = CarriageReturns()
        fed = 0
        stack = []
        sawRoot = false
        elements = 0
        outsideElements = 0
        inResponse = false
        responses = 0
        syncToken = nil
        conditions = []
        rootIsResponse = false
        hrefs = []
        text = []
    }

    /// Parses the next bytes of the body.
    func consume(_ bytes: UnsafeRawBufferPointer) throws(HelperError) {
        if let failure { throw failure }
        guard !bytes.isEmpty else { return }
        guard keepsCarriageReturns else { return try push(bytes, terminate: false) }
        let changed = carriageReturns.protect(bytes, into: &protected)
        fed += changed ? protected.count : bytes.count
        guard fed <= answer.maximumProtected else {
            throw stop(
                bad(
                    "the server's XML is larger than \(answer.maximumProtected >> 20) MiB once its carriage returns are kept; stopped"
                ))
        }
        guard changed else { return try push(bytes, terminate: false) }
        let failure = protected.withUnsafeBytes { (protected) -> HelperError? in
            do throws(HelperError) {
                try push(protected, terminate: false)
                return nil
            } catch { return error }
        }
        if let failure { throw failure }
    }

    /// The body has ended: the document must be complete.
    func finish() throws(HelperError) {
        try push(UnsafeRawBufferPointer(start: nil, count: 0), terminate: true)
        guard sawRoot else { throw unreadable() }
    }

    private func push(_ bytes: UnsafeRawBufferPointer, terminate: Bool) throws(HelperError) {
        if let failure { throw failure }
        let context: xmlParserCtxtPtr
        if let started = self.context { context = started } else { context = try start() }
        var offset = 0
        // libxml2 takes an Int32 count: large buffers go in pieces.
        repeat {
            let count = min(bytes.count - offset, 1 << 20)
            let last = terminate && offset + count == bytes.count
            let result = xmlParseChunk(
                context, bytes.baseAddress.map { $0.advanced(by: offset).assumingMemoryBound(to: CChar.self) },
                Int32(count), last ? 1 : 0)
            offset += count
            if let failure { throw failure }
            guard result == 0, context.pointee.wellFormed != 0 else { throw unreadable() }
            if answer == .listing, let input = context.pointee.input, let cur = input.pointee.cur,
                let end = input.pointee.end, end - cur > Self.maximumPending
            {
                throw stop(
                    bad("the server's XML holds a tag or a text longer than \(Self.maximumPending >> 20) MiB"))
            }
        } while offset < bytes.count
    }

    /// A `bad_response` error about the answer to ``what``.
    private func bad(_ message: String) -> HelperError {
        HelperError(.badResponse, what.isEmpty ? message : "\(what): \(message)")
    }

    private func unreadable() -> HelperError {
        var detail = ""
        if let context, let error = xmlCtxtGetLastError(context), let message = error.pointee.message {
            var text = String(cString: message)
            while text.last == "\n" || text.last == " " { text.removeLast() }
            detail = " (libxml2: line \(error.pointee.line): \(text.prefix(200)))"
        }
        return bad("the server's XML could not be parsed" + detail)
    }

    /// Records `error` as the read's end and stops libxml2; returns it.
    @discardableResult
    private func stop(_ error: HelperError) -> HelperError {
        if failure == nil { failure = error }
        if let context { xmlStopParser(context) }
        return failure ?? error
    }

    private static func reader(_ context: UnsafeMutableRawPointer) -> MultistatusReader {
        Unmanaged<MultistatusReader>.fromOpaque(context).takeUnretainedValue()
    }

    private func start() throws(HelperError) -> xmlParserCtxtPtr {
        XMLLibrary.setUp()
        var sax = xmlSAXHandler()
        sax.initialized = 0xDEED_BEAF  // XML_SAX2_MAGIC: the namespace-aware callbacks
        sax.startElementNs = { context, localName, _, uri, namespaceCount, namespaces, attributeCount, _, attributes in
            guard let context else { return }
            MultistatusReader.reader(context).started(
                localName, uri, namespaces: namespaces.map { ($0, Int(namespaceCount)) },
                attributes: attributes.map { ($0, Int(attributeCount)) })
        }
        sax.endElementNs = { context, _, _, _ in
            guard let context else { return }
            MultistatusReader.reader(context).ended()
        }
        sax.characters = { context, bytes, count in
            guard let context else { return }
            MultistatusReader.reader(context).characters(bytes, Int(count))
        }
        sax.cdataBlock = sax.characters
        // A DOCTYPE (and with it any entity declaration) is refused as soon as it starts.
        sax.internalSubset = { context, _, _, _ in
            guard let context else { return }
            MultistatusReader.reader(context).refuseDTD()
        }
        sax.reference = { context, _ in
            guard let context else { return }
            MultistatusReader.reader(context).refuseDTD()
        }
        sax.serror = { _, _ in }
        guard let context = xmlCreatePushParserCtxt(&sax, Unmanaged.passUnretained(self).toOpaque(), nil, 0, nil) else {
            throw bad("the server's XML could not be parsed (libxml2 could not start)")
        }
        // No XML_PARSE_NOENT (entities stay references, refused), no DTDLOAD, no HUGE (libxml2's own limits hold).
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
        if answer == .listing, let dictionary = context.pointee.dict {
            xmlDictSetLimit(dictionary, Self.maximumNames)
        }
        self.context = context
        return context
    }

    private func refuseDTD() {
        stop(bad("the server's XML has a DOCTYPE or an entity, which a DAV answer never needs"))
    }

    private static func equals(_ name: UnsafePointer<xmlChar>?, _ literal: StaticString) -> Bool {
        guard let name else { return false }
        return strcmp(
            UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self),
            UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
    }

    /// The element's unqualified `name` attribute (`<C:comp name="VTODO"/>`), from SAX2's
    /// attributes: five pointers each (local name, prefix, namespace, value, value's end).
    private static func nameAttribute(_ attributes: (UnsafeMutablePointer<UnsafePointer<xmlChar>?>, Int)?) -> String? {
        guard case (let pointers, let count)? = attributes else { return nil }
        for index in 0..<count {
            let base = 5 * index
            guard pointers[base + 2] == nil, equals(pointers[base], "name"), let value = pointers[base + 3],
                let end = pointers[base + 4], end >= value
            else { continue }
            // libxml2 hands a `&` of a value as `&#38;` when it substitutes no entities.
            return String(decoding: UnsafeBufferPointer(start: value, count: end - value), as: UTF8.self)
                .replacingAll("&#38;", with: "&")
        }
        return nil
    }

    private func started(
        _ localName: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?,
        namespaces: (UnsafeMutablePointer<UnsafePointer<xmlChar>?>, Int)?,
        attributes: (UnsafeMutablePointer<UnsafePointer<xmlChar>?>, Int)?
    ) {
        guard failure == nil else { return }
        guard stack.count < Self.maximumDepth else {
            stop(bad("the server's XML is nested deeper than \(Self.maximumDepth) elements"))
            return
        }
        if case (let pointers, let count)? = namespaces {
            for index in 0..<count {
                if let value = pointers[2 * index + 1], strlen(value) > Self.maximumNamespace {
                    stop(bad("the server's XML declares a namespace longer than \(Self.maximumNamespace) bytes"))
                    return
                }
            }
        }
        let parent = stack.last?.kind
        let dav = uri.map { strcmp(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self), "DAV:") == 0 } ?? false
        let caldav =
            !dav
            && uri.map {
                strcmp(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self), "urn:ietf:params:xml:ns:caldav") == 0
            } ?? false
        let apple =
            !dav && !caldav
            && uri.map {
                strcmp(UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self), "http://apple.com/ns/ical/") == 0
            } ?? false
        func named(_ literal: StaticString) -> Bool { Self.equals(localName, literal) }
        switch answer {
        case .listing:
            if inResponse {
                responseElements += 1
                guard responseElements <= Self.maximumResponseElements else {
                    stop(
                        bad(
                            "the server's XML holds a DAV:response of more than \(Self.maximumResponseElements) elements"
                        ))
                    return
                }
            } else if !(parent == .multistatus && dav && named("response")) {
                outsideElements += 1
                guard outsideElements <= Self.maximumOutsideElements else {
                    stop(
                        bad(
                            "the server's XML holds more than \(Self.maximumOutsideElements) elements outside its DAV:responses"
                        ))
                    return
                }
            }
        case .properties:
            elements += 1
            guard elements <= Self.maximumElements else {
                stop(bad("the server's XML holds more than \(Self.maximumElements) elements"))
                return
            }
        }
        var kind = Kind.other
        switch parent {
        case nil:
            guard !sawRoot else {
                stop(bad("the server's answer is not a DAV:multistatus"))
                return
            }
            if dav && named("multistatus") {
                kind = .multistatus
            } else if creation && (named("mkcalendar-response") || named("mkcol-response")) {
                // One response, of propstats only: about the URL asked.
                responses = 1
                inResponse = true
                rootIsResponse = true
                hrefs.removeAll(keepingCapacity: true)
                response = DAVResponse()
                kind = .response
            } else if creation && dav && named("error") {
                kind = .error
            } else {
                stop(bad("the server's answer is not a DAV:multistatus"))
                return
            }
            sawRoot = true
        case .multistatus? where dav && named("response"):
            responses += 1
            guard responses <= Self.maximumResponses else {
                stop(bad("the server's XML holds more than \(Self.maximumResponses) responses"))
                return
            }
            inResponse = true
            responseElements = 0
            hrefs.removeAll(keepingCapacity: true)
            response = DAVResponse()
            kind = .response
        case .multistatus? where dav && named("sync-token"): kind = .syncToken
        case .response? where dav && named("href"): kind = .href
        case .response? where dav && named("status"): kind = .responseStatus
        case .response? where dav && named("propstat"):
            propstat = DAVResponse()
            propstatStatus = nil
            propstatNamed = []
            kind = .propstat
        case .response? where dav && named("error"): kind = .error
        case .error?:
            if (dav || caldav) && conditionCount() < Self.maximumConditions, let localName {
                let condition = String(cString: UnsafeRawPointer(localName).assumingMemoryBound(to: CChar.self))
                if stack.count == 1 { conditions.append(condition) } else { response.conditions.append(condition) }
            }
        case .propstat? where dav && named("status"): kind = .propstatStatus
        case .propstat? where dav && named("prop"): kind = .prop
        case .prop?:
            kind = property(dav: dav, caldav: caldav, apple: apple, uri: uri, named)
        case .resourceType?:
            if dav && named("collection") { propstat.resourceType?.insert(.collection) }
            if caldav && named("calendar") { propstat.resourceType?.insert(.calendar) }
        case .components? where caldav && named("comp"):
            if let name = Self.nameAttribute(attributes) { propstat.components?.append(name.uppercased()) }
        case .principal? where dav && named("href"), .calendarHome? where dav && named("href"):
            kind = .propertyHref
        default:
            break
        }
        if kind.keepsText { text.removeAll(keepingCapacity: true) }
        stack.append(Frame(kind: kind))
    }

    /// The conditions kept so far of the DAV:error being read.
    private func conditionCount() -> Int { stack.count == 1 ? conditions.count : response.conditions.count }

    /// What a property of a propstat is, when kept (and then it is named in the propstat, for
    /// its status); the first resourcetype and component set of a propstat are read, others not.
    private func property(
        dav: Bool, caldav: Bool, apple: Bool, uri: UnsafePointer<xmlChar>?, _ named: (StaticString) -> Bool
    ) -> Kind {
        let found: (Properties, Kind)?
        if dav {
            if named("getetag") {
                found = (.etag, .etag)
            } else if named("sync-token") {
                found = (.syncToken, .syncTokenProperty)
            } else if named("displayname") {
                found = (.displayName, .displayName)
            } else if named("current-user-principal") {
                found = (.principal, .principal)
            } else if named("resourcetype") {
                found = (.resourceType, .resourceType)
            } else {
                found = nil
            }
        } else if caldav {
            if named("calendar-data") {
                found = (.calendarData, .calendarData)
            } else if named("calendar-home-set") {
                found = (.calendarHome, .calendarHome)
            } else if named("supported-calendar-component-set") {
                found = (.components, .components)
            } else {
                found = nil
            }
        } else if apple && named("calendar-color") {
            found = (.calendarColor, .calendarColor)
        } else if named("getctag") && Self.equals(uri, "http://calendarserver.org/ns/") {
            found = (.ctag, .ctag)
        } else {
            found = nil
        }
        guard let (property, kind) = found, keeping.contains(property) else { return .other }
        propstatNamed.insert(property)
        switch kind {
        case .resourceType:
            guard propstat.resourceType == nil else { return .other }
            propstat.resourceType = []
        case .components:
            guard propstat.components == nil else { return .other }
            propstat.components = []
        default: break
        }
        return kind
    }

    private func characters(_ bytes: UnsafePointer<xmlChar>?, _ count: Int) {
        guard failure == nil, let bytes, count > 0, let last = stack.indices.last else { return }
        let kind = stack[last].kind
        if answer == .properties {
            stack[last].text += count
            guard stack[last].text <= Self.maximumText else {
                stop(bad("the server's XML holds an element with more than \(Self.maximumText >> 20) MiB of text"))
                return
            }
        }
        guard kind.keepsText else { return }
        if answer == .listing {
            if kind == .calendarData {
                guard text.count + count <= HTTPClient.maximumObject else {
                    stop(
                        bad(
                            "the server's XML holds a calendar object larger than \(HTTPClient.maximumObject >> 20) MiB"
                        ))
                    return
                }
            } else if text.count + count > Self.maximumKeptText {
                stop(
                    bad(
                        "the server's XML holds an href, status, etag or sync-token longer than \(Self.maximumKeptText >> 10) KiB"
                    ))
                return
            }
        }
        text.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
    }

    /// The kept text, trimmed of XML blanks; `nil` when nothing is left.
    private func trimmedText() -> String? {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) })
        else { return nil }
        return String(decoding: text[first...last], as: UTF8.self)
    }

    private func ended() {
        guard failure == nil, let kind = stack.popLast()?.kind else { return }
        switch kind {
        case .syncToken: syncToken = syncToken ?? trimmedText()
        case .href: if let href = trimmedText() { hrefs.append(href) }
        case .responseStatus:
            response.status = response.status ?? trimmedText().flatMap { StatusLine.code(in: $0.utf8) }
        case .propstatStatus: propstatStatus = propstatStatus ?? trimmedText().flatMap { StatusLine.code(in: $0.utf8) }
        case .etag: propstat.etag = propstat.etag ?? trimmedText()
        case .calendarData: propstat.calendarData = propstat.calendarData ?? String(decoding: text, as: UTF8.self)
        case .syncTokenProperty: propstat.syncToken = propstat.syncToken ?? trimmedText()
        case .displayName: propstat.displayName = propstat.displayName ?? trimmedText()
        case .calendarColor: propstat.calendarColor = propstat.calendarColor ?? trimmedText()
        case .ctag: propstat.ctag = propstat.ctag ?? trimmedText()
        case .propertyHref:
            if stack.last?.kind == .principal {
                propstat.principal = propstat.principal ?? trimmedText()
            } else {
                propstat.calendarHome = propstat.calendarHome ?? trimmedText()
            }
        case .propstat:
            let status = propstatStatus ?? 200
            if (200..<300).contains(status) { response.fill(from: propstat) }
            if answer == .properties {
                propstatNamed.forEach { property in
                    if let known = response.statuses[property], !(200..<300).contains(known) { return }
                    response.statuses[property] = status
                }
            }
        case .response:
            inResponse = false
            if rootIsResponse && hrefs.isEmpty { hrefs.append("") }
            // RFC 4918 allows several hrefs with one status; each is one member.
            do throws(HelperError) {
                for href in hrefs {
                    response.href = href
                    try each(response)
                }
            } catch {
                stop(error)
            }
        case .other, .multistatus, .prop, .resourceType, .components, .principal, .calendarHome, .error:
            break
        }
        if kind.keepsText { text.removeAll(keepingCapacity: true) }
    }
}

/// The one rule for carriage returns in DAV answers: each CR byte in character data is written
/// as `&#13;` (in CDATA the section is closed around it) before libxml2 reads it, which keeps it
/// where a literal CR would be normalised away (an XML parser turns CR LF, and a lone CR, into
/// LF; calendar data needs its CR LF byte for byte). CRs inside tags, comments, processing
/// instructions and outside the root element are left alone.
///
/// Fed the body in pieces as it arrives, cut anywhere: the state carries over from one to the next.
struct CarriageReturns {
    private enum State {
        /// Character data, and after `<`, `<!`, `<!-`, `<![` (``matched`` bytes of `CDATA[`).
        case text, markup, bang, bangDash, cdataOpen
        /// Inside a tag (in quotes: ``quote``), a comment, a processing instruction, CDATA.
        case tag, quoted, comment, instruction, cdata
    }

    private var state = State.text
    /// `CDATA[` bytes matched; `-`, `?` or `]` just before (what ends a comment, an instruction, CDATA).
    private var matched = 0
    private var quote: UInt8 = 0
    /// Open elements: a CR outside the root element is a blank, left alone.
    private var depth = 0
    /// The tag being read ends an element (`</…>`) or declares something (`<!DOCTYPE …>`).
    private var endTag = false
    private var declaration = false
    /// The last byte of a tag read so far: `/` before `>` closes an empty element.
    private var previous: UInt8 = 0

    /// Runs `bytes`, the body's next piece, through the rule. Returns whether it changed them:
    /// then `out` holds the piece as libxml2 is to read it; else `bytes` are to be read as they are.
    mutating func protect(_ bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) -> Bool {
        var copied = 0  // bytes before this are in `out`, once anything changed
        var changed = false
        func replace(_ index: Int, with replacement: StaticString) {
            if !changed {
                changed = true
                out.removeAll(keepingCapacity: true)
                out.reserveCapacity(bytes.count + bytes.count / 4)
            }
            out.append(contentsOf: bytes[copied..<index])
            replacement.withUTF8Buffer { out.append(contentsOf: $0) }
            copied = index + 1
        }
        let cdataOpen: StaticString = "CDATA["
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch state {
            case .text:
                if byte == 13 && depth > 0 {
                    replace(index, with: "&#13;")
                } else if byte == UInt8(ascii: "<") {
                    state = .markup
                }
            case .markup:
                switch byte {
                case UInt8(ascii: "!"): state = .bang
                case UInt8(ascii: "?"): (state, matched) = (.instruction, 0)
                default:
                    (state, endTag, declaration, previous) = (.tag, byte == UInt8(ascii: "/"), false, byte)
                    if byte != UInt8(ascii: "/") { continue }  // read again as the tag's first byte
                }
            case .bang:
                if byte == UInt8(ascii: "-") {
                    state = .bangDash
                } else if byte == UInt8(ascii: "[") {
                    (state, matched) = (.cdataOpen, 0)
                } else {
                    (state, endTag, declaration, previous) = (.tag, false, true, byte)
                    continue
                }
            case .bangDash:
                guard byte == UInt8(ascii: "-") else {
                    (state, endTag, declaration, previous) = (.tag, false, true, byte)
                    continue
                }
                (state, matched) = (.comment, 0)
            case .cdataOpen:
                guard cdataOpen.withUTF8Buffer({ byte == $0[matched] }) else {
                    (state, endTag, declaration, previous) = (.tag, false, true, byte)
                    continue
                }
                matched += 1
                if matched == cdataOpen.utf8CodeUnitCount { (state, matched) = (.cdata, 0) }
            case .tag:
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    (state, quote) = (.quoted, byte)
                } else if byte == UInt8(ascii: ">") {
                    state = .text
                    if endTag {
                        depth -= 1
                    } else if !declaration && previous != UInt8(ascii: "/") {
                        depth += 1
                    }
                }
                previous = byte
            case .quoted:
                if byte == quote { state = .tag }
                previous = byte
            case .comment:
                if byte == UInt8(ascii: ">") && matched >= 2 { state = .text }
                matched = byte == UInt8(ascii: "-") ? matched + 1 : 0
            case .instruction:
                if byte == UInt8(ascii: ">") && matched == 1 { state = .text }
                matched = byte == UInt8(ascii: "?") ? 1 : 0
            case .cdata:
                if byte == 13 {
                    replace(index, with: "]]>&#13;<![CDATA[")
                    matched = 0
                } else {
                    if byte == UInt8(ascii: ">") && matched >= 2 { state = .text }
                    matched = byte == UInt8(ascii: "]") ? matched + 1 : 0
                }
            }
            index += 1
        }
        if changed { out.append(contentsOf: bytes[copied...]) }
        return changed
    }
}

/// libxml2, set up once: its parser initialised, its error messages silenced (errors are
/// reported as `bad_response`; nothing may go to stderr).
enum XMLLibrary {
    nonisolated(unsafe) private static var ready = false

    static func setUp() {
        guard !ready else { return }
        ready = true
        xmlInitParser()
        xmlSetStructuredErrorFunc(nil, { _, _ in })
    }
}
