import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

let davNS = "DAV:"
let caldavNS = "urn:ietf:params:xml:ns:caldav"

/// An XML element: its namespace and local name, attributes, text and children.
final class XMLNode {
    let namespace: String
    let name: String
    let attributes: [String: String]
    var text = ""
    var children: [XMLNode] = []

    init(namespace: String, name: String, attributes: [String: String]) {
        self.namespace = namespace
        self.name = name
        self.attributes = attributes
    }

    func `is`(_ namespace: String, _ name: String) -> Bool { self.namespace == namespace && self.name == name }

    func child(_ namespace: String, _ name: String) -> XMLNode? { children.first { $0.is(namespace, name) } }

    func all(_ namespace: String, _ name: String) -> [XMLNode] { children.filter { $0.is(namespace, name) } }

    var trimmedText: String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// Parses a document with namespaces. Carriage returns in text survive (an XML parser turns
    /// CR LF into LF; calendar data needs its CR LF byte for byte): see `protectingCarriageReturns`.
    static func parse(_ data: Data) throws -> XMLNode {
        let parser = XMLParser(data: protectingCarriageReturns(data))
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        let builder = TreeBuilder()
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            throw HelperError(.badResponse, "the server's XML could not be parsed")
        }
        return root
    }

    /// `data` with each CR byte in character data written as `&#13;` (in CDATA: the section is
    /// closed around it), which a parser keeps, where a literal CR would be normalised away.
    /// CRs inside tags, comments, processing instructions and outside the root element are left alone.
    static func protectingCarriageReturns(_ data: Data) -> Data {
        guard data.contains(13) else { return data }
        let bytes = [UInt8](data)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count + bytes.count / 20)
        enum State { case text, tag, comment, cdata, instruction }
        var state = State.text
        var quote: UInt8 = 0
        var depth = 0            // open elements: character references only count inside the root
        var endTag = false, declaration = false  // </…>; <!DOCTYPE …>
        var i = 0
        func starts(_ pattern: String, at index: Int) -> Bool {
            let p = Array(pattern.utf8)
            return index + p.count <= bytes.count && Array(bytes[index..<index + p.count]) == p
        }
        while i < bytes.count {
            let byte = bytes[i]
            switch state {
            case .text:
                if byte == 13 && depth > 0 {
                    out += Array("&#13;".utf8); i += 1; continue
                }
                if byte == UInt8(ascii: "<") {
                    if starts("<!--", at: i) { state = .comment }
                    else if starts("<![CDATA[", at: i) { state = .cdata; out += Array("<![CDATA[".utf8); i += 9; continue }
                    else if starts("<?", at: i) { state = .instruction }
                    else { state = .tag; quote = 0; endTag = starts("</", at: i); declaration = starts("<!", at: i) }
                }
            case .tag:
                if quote != 0 { if byte == quote { quote = 0 } }
                else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { quote = byte }
                else if byte == UInt8(ascii: ">") {
                    state = .text
                    if endTag { depth -= 1 } else if !declaration && bytes[i - 1] != UInt8(ascii: "/") { depth += 1 }
                }
            case .comment:
                if starts("-->", at: i) { out += Array("-->".utf8); i += 3; state = .text; continue }
            case .instruction:
                if starts("?>", at: i) { out += Array("?>".utf8); i += 2; state = .text; continue }
            case .cdata:
                if byte == 13 { out += Array("]]>&#13;<![CDATA[".utf8); i += 1; continue }
                if starts("]]>", at: i) { out += Array("]]>".utf8); i += 3; state = .text; continue }
            }
            out.append(byte)
            i += 1
        }
        return Data(out)
    }
}

private final class TreeBuilder: NSObject, XMLParserDelegate {
    var root: XMLNode?
    private var stack: [XMLNode] = []

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        let node = XMLNode(namespace: namespaceURI ?? "", name: elementName, attributes: attributeDict)
        if let parent = stack.last { parent.children.append(node) } else if root == nil { root = node }
        stack.append(node)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        _ = stack.popLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        stack.last?.text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        stack.last?.text += String(decoding: CDATABlock, as: UTF8.self)
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

    init(_ data: Data) throws {
        let root = try XMLNode.parse(data)
        guard root.is(davNS, "multistatus") else {
            throw HelperError(.badResponse, "the server's answer is not a DAV:multistatus")
        }
        if let token = root.child(davNS, "sync-token")?.trimmedText, !token.isEmpty { syncToken = token }
        for node in root.all(davNS, "response") {
            // RFC 4918 allows several hrefs with one status; each is one member.
            let hrefs = node.all(davNS, "href").map(\.trimmedText).filter { !$0.isEmpty }
            guard !hrefs.isEmpty else { continue }
            let status = node.child(davNS, "status").flatMap { Multistatus.statusCode($0.text) }
            var found: [XMLNode] = [], missing: [XMLNode] = []
            for propstat in node.all(davNS, "propstat") {
                let code = propstat.child(davNS, "status").flatMap { Multistatus.statusCode($0.text) } ?? 200
                let props = propstat.child(davNS, "prop")?.children ?? []
                if (200..<300).contains(code) { found += props } else { missing += props }
            }
            for href in hrefs { responses.append(Response(href: href, status: status, found: found, missing: missing)) }
        }
    }

    /// The code of a status line such as `HTTP/1.1 404 Not Found`.
    static func statusCode(_ line: String) -> Int? {
        let parts = line.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
        guard parts.count >= 2 else { return nil }
        return Int(parts[1])
    }
}
