import CLibXML2
import Glibc

let davNS = "DAV:"
let caldavNS = "urn:ietf:params:xml:ns:caldav"

/// An XML element: its namespace and local name, its `name` attribute, text and children.
final class XMLNode {
    let namespace: String
    let name: String
    /// The element's unqualified `name` attribute (`<C:comp name="VTODO"/>`): the one attribute
    /// of a DAV answer the helper reads. Others are not kept: they would cost memory for nothing.
    let nameAttribute: String?
    var text = ""
    var children: [XMLNode] = []

    init(namespace: String, name: String, nameAttribute: String? = nil) {
        self.namespace = namespace
        self.name = name
        self.nameAttribute = nameAttribute
    }

    func `is`(_ namespace: String, _ name: String) -> Bool { self.namespace == namespace && self.name == name }

    func child(_ namespace: String, _ name: String) -> XMLNode? { children.first { $0.is(namespace, name) } }

    func all(_ namespace: String, _ name: String) -> [XMLNode] { children.filter { $0.is(namespace, name) } }

    var trimmedText: String {
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }

    /// The deepest element nesting read: a DAV answer needs about 8.
    static let maximumDepth = 64
    /// The most elements in one answer read whole (a PROPFIND, a calendar-multiget: 100 objects
    /// need about 1,000). Each element read costs about 100 bytes of tree: with
    /// ``HTTPClient/maximumBody`` (the body and its text, twice while read) the helper stays
    /// under 64 MiB whatever the answer holds. Listings are not read so: see ``ListingParser``.
    static let maximumElements = 150_000
    /// The most text in one element. libxml2 holds the element's text too while it is read (and
    /// up to twice over as it grows it), so a bound below the body's keeps that copy small. An
    /// object larger than this in a calendar-multiget answer is read alone, by GET.
    static let maximumText = 2 << 20
    /// The longest namespace name declared: DAV's are about 30 bytes. libxml2 looks an element's
    /// namespace up whole each time it is asked for it, so this bounds the time to read an answer.
    static let maximumNamespace = 1_024
    /// The most bytes of an answer once its carriage returns are written as `&#13;` (5 bytes
    /// each): a quarter more than the largest answer (iCalendar text has a CR every 40 bytes
    /// or so), whatever share of CRs a server puts in.
    static let maximumProtected = HTTPClient.maximumBody + HTTPClient.maximumBody / 4

    /// Parses a document with namespaces, with libxml2's streaming reader (no tree of its own,
    /// no network, no DTD, no entity substitution: a DOCTYPE or an entity reference is refused).
    /// Carriage returns in text survive (an XML parser, libxml2 too, turns CR LF into LF; calendar
    /// data needs its CR LF byte for byte): see `protectingCarriageReturns`.
    ///
    /// `data` is consumed: the caller's copy should be its only one, let go of once the CRs are
    /// protected, so that the answer is not in memory twice while its tree is built.
    static func parse(_ data: consuming [UInt8], protectingCR: Bool = true) throws(HelperError) -> XMLNode {
        XMLLibrary.setUp()
        let bytes: [UInt8]
        if protectingCR { bytes = try protectingCarriageReturns(consume data) } else { bytes = consume data }
        guard bytes.count < Int(Int32.max) else { throw HelperError(.badResponse, "the server's XML is too large") }
        // The reader reads from the buffer until it is freed: the whole parse runs inside the
        // closure that lends the bytes (outside it, an optimised build may free them first).
        return try bytes.withUnsafeBufferPointer { (buffer) throws(HelperError) -> XMLNode in
            try buffer.withMemoryRebound(to: CChar.self) { (memory) throws(HelperError) -> XMLNode in try read(memory) }
        }
    }

    /// Builds the tree from `memory` with libxml2's streaming reader, within the bounds.
    private static func read(_ memory: UnsafeBufferPointer<CChar>) throws(HelperError) -> XMLNode {
        // No XML_PARSE_NOENT (entities stay references, refused below), no DTDLOAD, no HUGE (libxml2's own limits hold).
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_COMPACT.rawValue)
        let reader = xmlReaderForMemory(memory.baseAddress, Int32(memory.count), nil, nil, options)
        guard let reader else { throw HelperError(.badResponse, "the server's XML could not be parsed") }
        // libxml2's first complaint, for the message; nothing goes to stderr.
        final class FirstError { var text: String? }
        let firstError = FirstError()
        defer {
            xmlFreeTextReader(reader)
            withExtendedLifetime(firstError) {}
        }
        xmlTextReaderSetStructuredErrorHandler(
            reader,
            { context, error in
                guard let context, let error else { return }
                let box = Unmanaged<FirstError>.fromOpaque(context).takeUnretainedValue()
                guard box.text == nil, let message = error.pointee.message else { return }
                var text = String(cString: message)
                while text.last == "\n" || text.last == " " { text.removeLast() }
                box.text = "line \(error.pointee.line): " + String(text.prefix(200))
            }, Unmanaged.passUnretained(firstError).toOpaque())

        func string(_ pointer: UnsafePointer<xmlChar>?) -> String {
            guard let pointer else { return "" }
            return String(cString: pointer)
        }
        // Names and namespaces, each made once: a namespace declared once is every element's
        // below it, and a copy per element made a 600 KB answer take 750 MB. Keyed by libxml2's
        // pointer (its dictionary's, so the same for the same name), checked by content.
        var names: [UnsafePointer<xmlChar>: String] = [:]
        func name(_ pointer: UnsafePointer<xmlChar>?) -> String {
            guard let pointer else { return "" }
            let length = strlen(pointer)
            if let known = names[pointer], known.utf8.count == length,
                known.utf8.withContiguousStorageIfAvailable({
                    $0.baseAddress.map { memcmp($0, pointer, length) == 0 } ?? (length == 0)
                }) == true
            {
                return known
            }
            let made = String(cString: pointer)
            if names.count < 1_000 { names[pointer] = made }
            return made
        }
        func isUnqualifiedName(_ pointer: UnsafePointer<xmlChar>?) -> Bool {
            guard let pointer else { return false }
            return strcmp(UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self), "name") == 0
        }
        var unreadable: HelperError {
            HelperError(
                .badResponse,
                "the server's XML could not be parsed" + (firstError.text.map { " (libxml2: \($0))" } ?? ""))
        }
        var root: XMLNode?
        var stack: [XMLNode] = []
        var elements = 0
        while true {
            let step = xmlTextReaderRead(reader)
            if step == 0 { break }
            guard step == 1 else { throw unreadable }
            switch xmlReaderTypes(rawValue: UInt32(xmlTextReaderNodeType(reader))) {
            case XML_READER_TYPE_ELEMENT:
                elements += 1
                guard stack.count < maximumDepth else {
                    throw HelperError(.badResponse, "the server's XML is nested deeper than \(maximumDepth) elements")
                }
                guard elements <= maximumElements else {
                    throw HelperError(.badResponse, "the server's XML holds more than \(maximumElements) elements")
                }
                // Attributes first, namespace declarations (which come first) checked before any
                // name in them is looked up: libxml2 looks a namespace up anew, whole, each time.
                var nameAttribute: String?
                while xmlTextReaderMoveToNextAttribute(reader) == 1 {
                    if xmlTextReaderIsNamespaceDecl(reader) == 1 {
                        if let value = xmlTextReaderConstValue(reader), strlen(value) > maximumNamespace {
                            throw HelperError(
                                .badResponse,
                                "the server's XML declares a namespace longer than \(maximumNamespace) bytes")
                        }
                    } else if xmlTextReaderConstNamespaceUri(reader) == nil,
                        isUnqualifiedName(xmlTextReaderConstLocalName(reader))
                    {
                        nameAttribute = string(xmlTextReaderConstValue(reader))
                    }
                }
                xmlTextReaderMoveToElement(reader)
                let namespace = name(xmlTextReaderConstNamespaceUri(reader))
                let localName = name(xmlTextReaderConstLocalName(reader))
                let empty = xmlTextReaderIsEmptyElement(reader) == 1
                let node = XMLNode(namespace: namespace, name: localName, nameAttribute: nameAttribute)
                if let parent = stack.last { parent.children.append(node) } else if root == nil { root = node }
                if !empty { stack.append(node) }
            case XML_READER_TYPE_END_ELEMENT:
                _ = stack.popLast()
            case XML_READER_TYPE_TEXT, XML_READER_TYPE_CDATA, XML_READER_TYPE_WHITESPACE,
                XML_READER_TYPE_SIGNIFICANT_WHITESPACE:
                guard let node = stack.last else { continue }
                node.text += string(xmlTextReaderConstValue(reader))
                guard node.text.utf8.count <= maximumText else {
                    throw HelperError(
                        .badResponse,
                        "the server's XML holds an element with more than \(maximumText >> 20) MiB of text")
                }
            case XML_READER_TYPE_DOCUMENT_TYPE, XML_READER_TYPE_ENTITY_REFERENCE, XML_READER_TYPE_ENTITY:
                throw HelperError(
                    .badResponse, "the server's XML has a DOCTYPE or an entity, which a DAV answer never needs")
            default:
                continue
            }
        }
        guard let root else { throw unreadable }
        return root
    }

    /// `data` with each CR byte in character data written as `&#13;` (in CDATA: the section is
    /// closed around it), which a parser keeps, where a literal CR would be normalised away.
    /// CRs inside tags, comments, processing instructions and outside the root element are left alone.
    /// More than ``maximumProtected`` bytes so written is an error.
    static func protectingCarriageReturns(_ input: consuming [UInt8]) throws(HelperError) -> [UInt8] {
        guard input.contains(13) else { return input }
        let bytes = consume input
        var out = [UInt8]()
        out.reserveCapacity(min(bytes.count + bytes.count / 20, maximumProtected))
        func tooLarge() -> HelperError {
            HelperError(
                .badResponse,
                "the server's XML is larger than \(maximumProtected >> 20) MiB once its carriage returns are kept; stopped"
            )
        }
        enum State { case text, tag, comment, cdata, instruction }
        var state = State.text
        var quote: UInt8 = 0
        var depth = 0  // open elements: character references only count inside the root
        var endTag = false
        var declaration = false  // </…>; <!DOCTYPE …>
        var i = 0
        // Byte by byte, with no array made per call: this runs once per byte of an answer.
        func starts(_ pattern: StaticString, at index: Int) -> Bool {
            pattern.withUTF8Buffer { pattern in
                index + pattern.count <= bytes.count && bytes[index..<index + pattern.count].elementsEqual(pattern)
            }
        }
        while i < bytes.count {
            if state == .text || state == .cdata {
                // Most of an answer is text: copied a run at a time, up to the next byte that
                // may matter here (a CR, a `<` or the `]` that may end a CDATA section).
                var end = i
                while end < bytes.count {
                    let byte = bytes[end]
                    if byte == 13 || byte == UInt8(ascii: "<") || byte == UInt8(ascii: "]") { break }
                    end += 1
                }
                if end > i {
                    guard out.count + (end - i) <= maximumProtected else { throw tooLarge() }
                    out.append(contentsOf: bytes[i..<end])
                    i = end
                    continue
                }
            }
            let byte = bytes[i]
            switch state {
            case .text:
                if byte == 13 && depth > 0 {
                    guard out.count + 5 <= maximumProtected else { throw tooLarge() }
                    out.append(contentsOf: "&#13;".utf8)
                    i += 1
                    continue
                }
                if byte == UInt8(ascii: "<") {
                    if starts("<!--", at: i) {
                        state = .comment
                    } else if starts("<![CDATA[", at: i) {
                        state = .cdata
                        out.append(contentsOf: "<![CDATA[".utf8)
                        i += 9
                        continue
                    } else if starts("<?", at: i) {
                        state = .instruction
                    } else {
                        state = .tag
                        quote = 0
                        endTag = starts("</", at: i)
                        declaration = starts("<!", at: i)
                    }
                }
            case .tag:
                if quote != 0 {
                    if byte == quote { quote = 0 }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: ">") {
                    state = .text
                    if endTag { depth -= 1 } else if !declaration && bytes[i - 1] != UInt8(ascii: "/") { depth += 1 }
                }
            case .comment:
                if starts("-->", at: i) {
                    out.append(contentsOf: "-->".utf8)
                    i += 3
                    state = .text
                    continue
                }
            case .instruction:
                if starts("?>", at: i) {
                    out.append(contentsOf: "?>".utf8)
                    i += 2
                    state = .text
                    continue
                }
            case .cdata:
                if byte == 13 {
                    guard out.count + 17 <= maximumProtected else { throw tooLarge() }
                    out.append(contentsOf: "]]>&#13;<![CDATA[".utf8)
                    i += 1
                    continue
                }
                if starts("]]>", at: i) {
                    out.append(contentsOf: "]]>".utf8)
                    i += 3
                    state = .text
                    continue
                }
            }
            guard out.count < maximumProtected else { throw tooLarge() }
            out.append(byte)
            i += 1
        }
        return out
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

/// A DAV:multistatus answer, read into what the helper needs.
struct Multistatus {
    struct Response {
        var href: String
        /// The response-level status (for a removed member in sync-collection: 404).
        var status: Int?
        /// Properties found with a 2xx propstat status.
        var found: [XMLNode]
        /// Properties reported with another status (not found, forbidden).
        var missing: [XMLNode]

        func prop(_ namespace: String, _ name: String) -> XMLNode? { found.first { $0.is(namespace, name) } }

        var etag: String? {
            guard let text = prop(davNS, "getetag")?.trimmedText, !text.isEmpty else { return nil }
            return text
        }
    }

    var responses: [Response] = []
    /// The top-level DAV:sync-token (sync-collection).
    var syncToken: String?

    /// Reads `data` (consumed: see ``XMLNode/parse(_:protectingCR:)``), the answer to `what`
    /// (`REPORT sync-collection URL`), which errors name.
    init(_ data: consuming [UInt8], from what: String? = nil) throws(HelperError) {
        do throws(HelperError) {
            try self.init(parsing: consume data)
        } catch {
            guard let what else { throw error }
            throw HelperError(error.kind, "\(what): \(error.message)", status: error.status, location: error.location)
        }
    }

    private init(parsing data: consuming [UInt8]) throws(HelperError) {
        let root = try XMLNode.parse(consume data)
        guard root.is(davNS, "multistatus") else {
            throw HelperError(.badResponse, "the server's answer is not a DAV:multistatus")
        }
        if let token = root.child(davNS, "sync-token")?.trimmedText, !token.isEmpty { syncToken = token }
        for node in root.all(davNS, "response") {
            // RFC 4918 allows several hrefs with one status; each is one member.
            let hrefs = node.all(davNS, "href").map(\.trimmedText).filter { !$0.isEmpty }
            guard !hrefs.isEmpty else { continue }
            let status = node.child(davNS, "status").flatMap { StatusLine.code(in: $0.text.utf8) }
            var found: [XMLNode] = []
            var missing: [XMLNode] = []
            for propstat in node.all(davNS, "propstat") {
                let code = propstat.child(davNS, "status").flatMap { StatusLine.code(in: $0.text.utf8) } ?? 200
                let props = propstat.child(davNS, "prop")?.children ?? []
                if (200..<300).contains(code) { found += props } else { missing += props }
            }
            for href in hrefs { responses.append(Response(href: href, status: status, found: found, missing: missing)) }
        }
    }
}
