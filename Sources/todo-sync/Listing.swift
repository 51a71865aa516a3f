import CLibXML2
import Glibc
import JSONCodec
import SyncProtocol

/// One member of a listing as its `<D:response>` gave it: what the helper keeps of it.
struct ListedResponse {
    var href: String
    /// The response-level status (for a removed member in sync-collection: 404).
    var status: Int?
    /// The DAV:getetag of a 2xx propstat, trimmed; `nil` when empty or absent.
    var etag: String?
    /// The CalDAV calendar-data of a 2xx propstat, as sent; only read by a parser made with
    /// `keepingCalendarData`, else `nil`.
    var calendarData: String? = nil
}

/// A DAV:multistatus listing (sync-collection, calendar-query), read as it arrives: libxml2's
/// push parser (SAX2) is given the body as curl delivers it, and of each `<D:response>` only the
/// hrefs, the status and the etag (and, when asked, the calendar-data) are kept, handed to `each`
/// when the response ends. No tree is built: memory is what `each` keeps, not the size of the
/// answer.
///
/// Bounds, whatever the server sends: ``XMLNode/maximumDepth`` deep; ``maximumResponseElements``
/// elements in one response; ``maximumOutsideElements`` outside the responses; at most
/// ``maximumResponses`` responses; ``maximumKeptText`` bytes in one href, status, etag or
/// sync-token; ``HTTPClient/maximumObject`` bytes in one calendar-data; and no more than ``maximumPending`` bytes that libxml2 holds unparsed (a tag or a
/// text that never ends: a decompression bomb of blanks). No DTD, no entity, no network.
final class ListingParser: BodySink {
    /// The deepest a listing's response needs is 5 (response, propstat, prop, getetag); other
    /// properties a server adds may hold a few elements each.
    static let maximumResponseElements = 1_000
    /// Elements outside the responses: the multistatus, its sync-token and responsedescription.
    static let maximumOutsideElements = 1_000
    /// The most responses in one listing.
    static let maximumResponses = 1_000_000
    /// The most bytes of one href, status, etag or sync-token.
    static let maximumKeptText = 64 << 10
    /// The most bytes libxml2 may hold unparsed: the longest tag or text between two tags.
    static let maximumPending = 1 << 20
    /// The most distinct names libxml2 keeps in its dictionary, in bytes.
    static let maximumNames = 1 << 20

    private enum Kind {
        case other, multistatus, syncToken, response, href, responseStatus, propstat, propstatStatus, prop, getetag
        case calendarData
    }

    /// Called for each href of each response, in order.
    private let each: (ListedResponse) throws(HelperError) -> Void
    /// Whether calendar-data is read (a calendar-query asking for the objects), or skipped.
    private let keepsCalendarData: Bool
    /// The top-level DAV:sync-token, once read.
    private(set) var syncToken: String?
    private(set) var responses = 0

    private var context: xmlParserCtxtPtr?
    private var failure: HelperError?
    private var stack: [Kind] = []
    private var sawRoot = false
    private var outsideElements = 0
    private var responseElements = 0
    // The response being read.
    private var hrefs: [String] = []
    private var status: Int?
    private var etag: String?
    private var propstatStatus: Int?
    private var propstatEtag: String?
    private var calendarData: String?
    private var propstatCalendarData: String?
    /// The text of the element whose text is kept (none nests in another).
    private var text: [UInt8] = []

    init(keepingCalendarData: Bool = false, each: @escaping (ListedResponse) throws(HelperError) -> Void) {
        self.keepsCalendarData = keepingCalendarData
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
        stack = []
        sawRoot = false
        outsideElements = 0
        responseElements = 0
        responses = 0
        syncToken = nil
        hrefs = []
        text = []
    }

    /// Parses the next bytes of the body.
    func consume(_ bytes: UnsafeRawBufferPointer) throws(HelperError) {
        guard !bytes.isEmpty else { return }
        try push(bytes, terminate: false)
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
            if let input = context.pointee.input, let cur = input.pointee.cur, let end = input.pointee.end,
                end - cur > Self.maximumPending
            {
                throw stop(
                    HelperError(
                        .badResponse,
                        "the server's XML holds a tag or a text longer than \(Self.maximumPending >> 20) MiB"))
            }
        } while offset < bytes.count
    }

    private func unreadable() -> HelperError {
        var detail = ""
        if let context, let error = xmlCtxtGetLastError(context), let message = error.pointee.message {
            var text = String(cString: message)
            while text.last == "\n" || text.last == " " { text.removeLast() }
            detail = " (libxml2: line \(error.pointee.line): \(text.prefix(200)))"
        }
        return HelperError(.badResponse, "the server's XML could not be parsed" + detail)
    }

    /// Records `error` as the parse's end and stops libxml2; returns it.
    @discardableResult
    private func stop(_ error: HelperError) -> HelperError {
        if failure == nil { failure = error }
        if let context { xmlStopParser(context) }
        return failure ?? error
    }

    private func start() throws(HelperError) -> xmlParserCtxtPtr {
        XMLLibrary.setUp()
        var sax = xmlSAXHandler()
        sax.initialized = 0xDEED_BEAF  // XML_SAX2_MAGIC: the namespace-aware callbacks
        sax.startElementNs = { context, localName, _, uri, namespaceCount, namespaces, _, _, _ in
            guard let context else { return }
            Unmanaged<ListingParser>.fromOpaque(context).takeUnretainedValue()
                .started(localName, uri, namespaceCount: Int(namespaceCount), namespaces)
        }
        sax.endElementNs = { context, _, _, _ in
            guard let context else { return }
            Unmanaged<ListingParser>.fromOpaque(context).takeUnretainedValue().ended()
        }
        sax.characters = { context, bytes, count in
            guard let context else { return }
            Unmanaged<ListingParser>.fromOpaque(context).takeUnretainedValue().characters(bytes, Int(count))
        }
        sax.cdataBlock = sax.characters
        // A DOCTYPE (and with it any entity declaration) is refused as soon as it starts.
        sax.internalSubset = { context, _, _, _ in
            guard let context else { return }
            Unmanaged<ListingParser>.fromOpaque(context).takeUnretainedValue()
                .stop(
                    HelperError(
                        .badResponse, "the server's XML has a DOCTYPE or an entity, which a DAV answer never needs"))
        }
        sax.reference = { context, _ in
            guard let context else { return }
            Unmanaged<ListingParser>.fromOpaque(context).takeUnretainedValue()
                .stop(
                    HelperError(
                        .badResponse, "the server's XML has a DOCTYPE or an entity, which a DAV answer never needs"))
        }
        sax.serror = { _, _ in }
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard let context = xmlCreatePushParserCtxt(&sax, me, nil, 0, nil) else {
            throw HelperError(.badResponse, "the server's XML could not be parsed (libxml2 could not start)")
        }
        // No XML_PARSE_NOENT (entities stay references, refused), no DTDLOAD, no HUGE (libxml2's own limits hold).
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
        if let dictionary = context.pointee.dict { xmlDictSetLimit(dictionary, Self.maximumNames) }
        self.context = context
        return context
    }

    private static func isDAV(_ uri: UnsafePointer<xmlChar>?) -> Bool {
        guard let uri else { return false }
        return strcmp(UnsafeRawPointer(uri).assumingMemoryBound(to: CChar.self), "DAV:") == 0
    }

    private static func isCalDAV(_ uri: UnsafePointer<xmlChar>?) -> Bool {
        guard let uri else { return false }
        return strcmp(UnsafeRawPointer(uri).assumingMemoryBound(to: CChar.self), "urn:ietf:params:xml:ns:caldav") == 0
    }

    private static func equals(_ name: UnsafePointer<xmlChar>?, _ literal: StaticString) -> Bool {
        guard let name else { return false }
        return strcmp(
            UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self),
            UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)) == 0
    }

    private func started(
        _ localName: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?,
        namespaceCount: Int, _ namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        guard failure == nil else { return }
        guard stack.count < XMLNode.maximumDepth else {
            stop(HelperError(.badResponse, "the server's XML is nested deeper than \(XMLNode.maximumDepth) elements"))
            return
        }
        if let namespaces {
            for index in 0..<namespaceCount {
                if let value = namespaces[2 * index + 1], strlen(value) > XMLNode.maximumNamespace {
                    stop(
                        HelperError(
                            .badResponse,
                            "the server's XML declares a namespace longer than \(XMLNode.maximumNamespace) bytes"))
                    return
                }
            }
        }
        let parent = stack.last
        let dav = Self.isDAV(uri)
        if parent == .response || stack.contains(.response) {
            responseElements += 1
            guard responseElements <= Self.maximumResponseElements else {
                stop(
                    HelperError(
                        .badResponse,
                        "the server's XML holds a DAV:response of more than \(Self.maximumResponseElements) elements"))
                return
            }
        } else if !(parent == .multistatus && dav && Self.equals(localName, "response")) {
            outsideElements += 1
            guard outsideElements <= Self.maximumOutsideElements else {
                stop(
                    HelperError(
                        .badResponse,
                        "the server's XML holds more than \(Self.maximumOutsideElements) elements outside its DAV:responses"
                    ))
                return
            }
        }
        let kind: Kind
        switch parent {
        case nil:
            guard !sawRoot, dav, Self.equals(localName, "multistatus") else {
                stop(HelperError(.badResponse, "the server's answer is not a DAV:multistatus"))
                return
            }
            sawRoot = true
            kind = .multistatus
        case .multistatus? where dav && Self.equals(localName, "response"):
            responses += 1
            guard responses <= Self.maximumResponses else {
                stop(HelperError(.badResponse, "the server's XML holds more than \(Self.maximumResponses) responses"))
                return
            }
            responseElements = 0
            hrefs.removeAll(keepingCapacity: true)
            status = nil
            etag = nil
            calendarData = nil
            kind = .response
        case .multistatus? where dav && Self.equals(localName, "sync-token"): kind = .syncToken
        case .response? where dav && Self.equals(localName, "href"): kind = .href
        case .response? where dav && Self.equals(localName, "status"): kind = .responseStatus
        case .response? where dav && Self.equals(localName, "propstat"):
            propstatStatus = nil
            propstatEtag = nil
            propstatCalendarData = nil
            kind = .propstat
        case .propstat? where dav && Self.equals(localName, "status"): kind = .propstatStatus
        case .propstat? where dav && Self.equals(localName, "prop"): kind = .prop
        case .prop? where dav && Self.equals(localName, "getetag"): kind = .getetag
        case .prop? where keepsCalendarData && Self.isCalDAV(uri) && Self.equals(localName, "calendar-data"):
            kind = .calendarData
        default: kind = .other
        }
        text.removeAll(keepingCapacity: true)
        stack.append(kind)
    }

    private func characters(_ bytes: UnsafePointer<xmlChar>?, _ count: Int) {
        guard failure == nil, let bytes, count > 0 else { return }
        switch stack.last {
        case .syncToken?, .href?, .responseStatus?, .propstatStatus?, .getetag?:
            guard text.count + count <= Self.maximumKeptText else {
                stop(
                    HelperError(
                        .badResponse,
                        "the server's XML holds an href, status, etag or sync-token longer than \(Self.maximumKeptText >> 10) KiB"
                    ))
                return
            }
            text.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
        case .calendarData?:
            guard text.count + count <= HTTPClient.maximumObject else {
                stop(
                    HelperError(
                        .badResponse,
                        "the server's XML holds a calendar object larger than \(HTTPClient.maximumObject >> 20) MiB"))
                return
            }
            text.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
        default:
            return
        }
    }

    /// The kept text, trimmed of XML blanks; `nil` when nothing is left.
    private func trimmedText() -> String? {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) })
        else { return nil }
        return String(decoding: text[first...last], as: UTF8.self)
    }

    private func ended() {
        guard failure == nil, let kind = stack.popLast() else { return }
        switch kind {
        case .syncToken:
            if syncToken == nil { syncToken = trimmedText() }
        case .href:
            if let href = trimmedText() { hrefs.append(href) }
        case .responseStatus:
            if status == nil { status = trimmedText().flatMap { StatusLine.code(in: $0.utf8) } }
        case .propstatStatus:
            if propstatStatus == nil { propstatStatus = trimmedText().flatMap { StatusLine.code(in: $0.utf8) } }
        case .getetag:
            if propstatEtag == nil { propstatEtag = trimmedText() }
        case .calendarData:
            if propstatCalendarData == nil { propstatCalendarData = String(decoding: text, as: UTF8.self) }
        case .propstat:
            if (200..<300).contains(propstatStatus ?? 200) {
                if etag == nil { etag = propstatEtag }
                if calendarData == nil { calendarData = propstatCalendarData }
            }
        case .response:
            // RFC 4918 allows several hrefs with one status; each is one member.
            do throws(HelperError) {
                for href in hrefs {
                    try each(ListedResponse(href: href, status: status, etag: etag, calendarData: calendarData))
                }
            } catch {
                stop(error)
            }
        case .other, .multistatus, .prop:
            break
        }
        text.removeAll(keepingCapacity: true)
    }
}

/// The members of a listing, kept compactly: their hrefs and etags in one store of bytes (in
/// blocks of 1 MiB, never copied as it grows), with a table of their places for finding an href
/// again. In the order first listed; a member listed again is updated in place.
///
/// Bounded: ``maximumKept`` bytes in all, counting each member ``costPerMember`` bytes beside
/// its href and etag (its place in the store and in the table).
struct ListedMembers {
    /// What the helper keeps of one listing (over all its pages), in bytes: 100,000 todos with
    /// hrefs of 60 bytes and etags of 42 take about 14 MiB. With the helper's own 20 MiB or so
    /// (libcurl, OpenSSL, libxml2, the Swift runtime), it stays under 64 MiB whatever it is sent.
    static let maximumKept = 28 << 20
    /// What a member costs beside its href and etag: its entry (20 bytes) and its place in the
    /// table (4 bytes, at most half full, twice over while the table grows).
    static let costPerMember = 40
    private static let blockSize = 1 << 20
    private static let entriesPerChunk = 1 << 16

    private struct Entry {
        var href: UInt32
        var hrefLength: UInt32
        var etag: UInt32
        /// `UInt32.max` for none.
        var etagLength: UInt32
        var removed: Bool
    }

    private var blocks: [[UInt8]] = []
    private var chunks: [[Entry]] = []
    /// Open addressing: index + 1 of an entry, 0 for free.
    private var table: [Int32] = []
    private(set) var count = 0
    private(set) var kept = 0
    private(set) var removedCount = 0

    /// The bytes kept, at `offset`.
    private func bytes(_ offset: UInt32, _ length: UInt32) -> ArraySlice<UInt8> {
        let block = Int(offset) / Self.blockSize
        let start = Int(offset) % Self.blockSize
        return blocks[block][start..<start + Int(length)]
    }

    private mutating func store(_ text: String) -> UInt32 {
        let length = text.utf8.count
        if blocks.isEmpty || blocks[blocks.count - 1].count + length > Self.blockSize {
            var block = [UInt8]()
            block.reserveCapacity(Self.blockSize)
            blocks.append(block)
        }
        let offset = (blocks.count - 1) * Self.blockSize + blocks[blocks.count - 1].count
        blocks[blocks.count - 1].append(contentsOf: text.utf8)
        return UInt32(offset)
    }

    private func entry(_ index: Int) -> Entry { chunks[index / Self.entriesPerChunk][index % Self.entriesPerChunk] }

    private static func hash<C: Sequence>(_ bytes: C) -> Int where C.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: hash >> 1)
    }

    /// The slot of `href` in the table: where it is, or the free slot where it goes.
    private func slot(of href: String) -> (slot: Int, index: Int?) {
        let mask = table.count - 1
        var slot = Self.hash(href.utf8) & mask
        while true {
            let found = Int(table[slot])
            if found == 0 { return (slot, nil) }
            let candidate = entry(found - 1)
            if Int(candidate.hrefLength) == href.utf8.count
                && bytes(candidate.href, candidate.hrefLength).elementsEqual(href.utf8)
            {
                return (slot, found - 1)
            }
            slot = (slot + 1) & mask
        }
    }

    private mutating func grow() {
        let size = max(1 << 10, table.count * 2)
        table = []  // the old table goes before the new one is made
        table = [Int32](repeating: 0, count: size)
        let mask = size - 1
        for index in 0..<count {
            let member = entry(index)
            var slot = Self.hash(bytes(member.href, member.hrefLength)) & mask
            while table[slot] != 0 { slot = (slot + 1) & mask }
            table[slot] = Int32(index + 1)
        }
    }

    func contains(_ href: String) -> Bool {
        guard !table.isEmpty else { return false }
        return slot(of: href).index != nil
    }

    /// Adds `href` (or, with `replacing`, updates it when listed already: its etag and whether
    /// it is removed). Returns whether it was new. Throws past the bounds.
    @discardableResult
    mutating func add(_ href: String, etag: String?, removed: Bool = false, replacing: Bool) throws(HelperError) -> Bool
    {
        if table.isEmpty || (count + 1) * 2 > table.count { grow() }
        let (slot, index) = slot(of: href)
        if let index {
            guard replacing else { return false }
            var member = entry(index)
            if member.removed != removed { removedCount += removed ? 1 : -1 }
            member.removed = removed
            if let etag {
                if member.etagLength == UInt32.max || !bytes(member.etag, member.etagLength).elementsEqual(etag.utf8) {
                    try reserve(etag.utf8.count)
                    member.etag = store(etag)
                    member.etagLength = UInt32(etag.utf8.count)
                }
            } else {
                member.etagLength = UInt32.max
            }
            chunks[index / Self.entriesPerChunk][index % Self.entriesPerChunk] = member
            return false
        }
        guard count < ListingParser.maximumResponses else {
            throw HelperError(
                .badResponse, "the server lists more than \(ListingParser.maximumResponses) objects; stopped")
        }
        try reserve(href.utf8.count + (etag?.utf8.count ?? 0) + Self.costPerMember)
        let hrefOffset = store(href)
        let etagOffset = etag.map { store($0) } ?? 0
        if chunks.isEmpty || chunks[chunks.count - 1].count == Self.entriesPerChunk {
            var chunk = [Entry]()
            chunk.reserveCapacity(Self.entriesPerChunk)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(
            Entry(
                href: hrefOffset, hrefLength: UInt32(href.utf8.count), etag: etagOffset,
                etagLength: etag.map { UInt32($0.utf8.count) } ?? UInt32.max, removed: removed))
        if removed { removedCount += 1 }
        count += 1
        table[slot] = Int32(count)
        return true
    }

    private mutating func reserve(_ bytes: Int) throws(HelperError) {
        guard kept + bytes <= Self.maximumKept else {
            throw HelperError(
                .badResponse,
                "the server lists more than \(Self.maximumKept >> 20) MiB of hrefs and etags "
                    + "(\(count) objects so far); stopped")
        }
        kept += bytes
    }

    /// Each member in order: its href and etag bytes, and whether it is removed.
    func forEach(_ body: (ArraySlice<UInt8>, ArraySlice<UInt8>?, Bool) -> Void) {
        for chunk in chunks {
            for member in chunk {
                body(
                    bytes(member.href, member.hrefLength),
                    member.etagLength == UInt32.max ? nil : bytes(member.etag, member.etagLength),
                    member.removed)
            }
        }
    }

    /// The members as SyncProtocol items (the removed ones apart): for tests and small answers.
    var items: (changed: [ListedItem], removed: [String]) {
        var changed: [ListedItem] = []
        var removed: [String] = []
        forEach { href, etag, isRemoved in
            let text = String(decoding: href, as: UTF8.self)
            if isRemoved {
                removed.append(text)
            } else {
                changed.append(ListedItem(href: text, etag: etag.map { String(decoding: $0, as: UTF8.self) }))
            }
        }
        return (changed, removed)
    }
}

/// The answer to `changes`, written as SyncProtocol's ``ChangesAnswer`` is, byte for byte, but
/// straight from the ``ListedMembers``: a listing of 100,000 objects is never a JSON tree.
enum ListingAnswer {
    case delta(ListedMembers, token: String)
    case everything(ListedMembers, token: String?)

    /// The same answer as SyncProtocol's value (for tests: it costs a tree).
    var changesAnswer: ChangesAnswer {
        switch self {
        case .delta(let members, let token):
            let (changed, removed) = members.items
            return .delta(changed: changed, removed: removed, token: token)
        case .everything(let members, let token):
            return .everything(items: members.items.changed, token: token)
        }
    }

    /// The JSON text, without its newline, handed to `write` in pieces of about 64 KiB.
    func encode(_ write: ([UInt8]) -> Void) {
        var out: [UInt8] = []
        out.reserveCapacity(80 << 10)
        func flush(_ force: Bool = false) {
            if force || out.count >= 64 << 10 {
                write(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        func string<C: Sequence>(_ bytes: C) where C.Element == UInt8 {
            JSONValue.encodeString(bytes, into: &out)
        }
        func items(_ members: ListedMembers) {
            out.append(UInt8(ascii: "["))
            var first = true
            members.forEach { href, etag, removed in
                guard !removed else { return }
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                out += #"{"href":"#.utf8
                string(href)
                out += #","etag":"#.utf8
                if let etag { string(etag) } else { out += "null".utf8 }
                out.append(UInt8(ascii: "}"))
                flush()
            }
            out.append(UInt8(ascii: "]"))
        }
        switch self {
        case .delta(let members, let token):
            out += #"{"kind":"delta","changed":"#.utf8
            items(members)
            out += #","removed":["#.utf8
            var first = true
            members.forEach { href, _, removed in
                guard removed else { return }
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                string(href)
                flush()
            }
            out += #"],"token":"#.utf8
            string(token.utf8)
        case .everything(let members, let token):
            out += #"{"kind":"everything","items":"#.utf8
            items(members)
            out += #","token":"#.utf8
            if let token { string(token.utf8) } else { out += "null".utf8 }
        }
        out.append(UInt8(ascii: "}"))
        flush(true)
    }
}
