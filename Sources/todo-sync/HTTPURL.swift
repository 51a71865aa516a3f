/// An http or https URL, as much of RFC 3986 as the helper needs: the collection's URL, the
/// hrefs servers write (paths, relative references, absolute URLs) resolved against it, and the
/// check that a request stays at the collection's origin and under its path.
struct HTTPURL: Equatable {
    /// `http` or `https`, lower case.
    var scheme: String
    /// The user info before `@`, percent-decoded; never part of `string`.
    var user: String?
    var password: String?
    /// The host as written (lower case; an IPv6 literal keeps its brackets).
    var host: String
    /// The port given, if any.
    var port: Int?
    /// The path, percent-encoding kept; `/` when empty.
    var path: String
    /// The query after `?`, if any.
    var query: String?

    var effectivePort: Int { port ?? (scheme == "https" ? 443 : 80) }

    /// `host` or `host:port` (the port only when given).
    var authority: String { port.map { "\(host):\($0)" } ?? host }

    /// `scheme://host[:port]/path[?query]`: never any user info.
    var string: String { "\(scheme)://\(authority)\(path)" + (query.map { "?" + $0 } ?? "") }

    /// Whether `other` has the same scheme, host and port: where credentials may go.
    func sameOrigin(_ other: HTTPURL) -> Bool {
        scheme == other.scheme && host == other.host && effectivePort == other.effectivePort
    }

    /// Parses an absolute http(s) URL; `nil` for anything else. The fragment is dropped.
    init?(_ text: String) {
        var rest = Substring(text)
        guard let colon = rest.firstIndex(ofASCII: ":") else { return nil }
        let scheme = rest[..<colon].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        rest = rest[rest.index(after: colon)...]
        guard rest.utf8.starts(with: "//".utf8) else { return nil }
        rest = rest.dropFirst(2)
        if let hash = rest.firstIndex(ofASCII: "#") { rest = rest[..<hash] }
        let authorityEnd = rest.utf8.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        var after = rest[authorityEnd...]
        self.scheme = scheme
        if let at = authority.lastIndex(ofASCII: "@") {
            let info = authority[..<at]
            if let separator = info.firstIndex(ofASCII: ":") {
                user = HTTPURL.percentDecoded(info[..<separator])
                password = HTTPURL.percentDecoded(info[info.index(after: separator)...])
            } else {
                user = HTTPURL.percentDecoded(info)
            }
            authority = authority[authority.index(after: at)...]
        }
        // host, [v6], host:port, [v6]:port
        var hostPart = authority
        var portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(ofASCII: "]") else { return nil }
            hostPart = authority[...close]
            let tail = authority[authority.index(after: close)...]
            if !tail.isEmpty {
                guard tail.hasPrefix(":") else { return nil }
                portPart = tail.dropFirst()
            }
        } else if let colon = authority.lastIndex(ofASCII: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        }
        guard !hostPart.isEmpty,
            !hostPart.contains(where: { $0 == " " || $0 == "\\" || $0.asciiValue.map { $0 < 0x21 } ?? false })
        else { return nil }
        host = hostPart.lowercased()
        if let portPart, !portPart.isEmpty {
            guard portPart.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(portPart), number > 0,
                number < 65536
            else { return nil }
            port = number
        }
        if let question = after.firstIndex(ofASCII: "?") {
            query = String(after[after.index(after: question)...])
            after = after[..<question]
        }
        path = after.isEmpty ? "/" : HTTPURL.escapingPath(after)
    }

    private init(scheme: String, host: String, port: Int?, path: String, query: String?) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path
        self.query = query
    }

    /// `reference` (a path, a relative reference or an absolute URL) resolved against this URL
    /// (RFC 3986 section 5.2, without removing dot segments: ``refusal(inside:)`` refuses them).
    /// Characters a path may not hold (a space) are percent-encoded; encoding written is kept.
    func resolve(_ reference: String) -> HTTPURL? {
        var reference = Substring(reference)
        if let hash = reference.firstIndex(ofASCII: "#") { reference = reference[..<hash] }
        if let colon = reference.firstIndex(ofASCII: ":"),
            !reference[..<colon].utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") })
        {
            let scheme = reference[..<colon].lowercased()
            guard scheme == "http" || scheme == "https" else { return nil }
            return HTTPURL(String(reference))
        }
        if reference.utf8.starts(with: "//".utf8) { return HTTPURL(scheme + ":" + reference) }
        var query: String?
        if let question = reference.firstIndex(ofASCII: "?") {
            query = String(reference[reference.index(after: question)...])
            reference = reference[..<question]
        }
        let newPath: String
        if reference.isEmpty {
            newPath = path
            if query == nil { query = self.query }
        } else if reference.utf8.first == UInt8(ascii: "/") {
            newPath = HTTPURL.escapingPath(reference)
        } else {
            let directory = path[...(Substring(path).lastIndex(ofASCII: "/") ?? path.startIndex)]
            newPath = directory + HTTPURL.escapingPath(reference)
        }
        return HTTPURL(scheme: scheme, host: host, port: port, path: newPath, query: query)
    }

    /// The path's segments, percent-decoded (for comparisons: `%7E` and `~` are one).
    var decodedSegments: [String] {
        path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map {
            HTTPURL.percentDecoded(Substring($0))
        }
    }

    /// The path percent-decoded, without a trailing `/` (for comparisons).
    var comparablePath: String {
        var decoded = HTTPURL.percentDecoded(Substring(path))
        while decoded.utf8.count > 1 && decoded.utf8.last == UInt8(ascii: "/") { decoded.removeLast() }
        return decoded
    }

    /// Whether this URL is `collection` itself (its path with or without the final `/`).
    func isSame(as collection: HTTPURL) -> Bool {
        sameOrigin(collection) && comparablePath == collection.comparablePath
    }

    /// Why this URL is refused as a member of `collection`, or `nil` when it is at the same
    /// origin, strictly under the collection's path, and without `.` or `..` segments.
    func refusal(inside collection: HTTPURL) -> String? {
        guard sameOrigin(collection) else { return "it is on another server than the collection" }
        if decodedSegments.contains(where: { $0 == ".." || $0 == "." }) { return "it has a '.' or '..' segment" }
        let collectionPath = collection.comparablePath
        let base = collectionPath + (collectionPath.utf8.last == UInt8(ascii: "/") ? "" : "/")
        let mine = HTTPURL.percentDecoded(Substring(path))
        // Byte for byte: two spellings of one name in Unicode are two paths to a server.
        guard mine.utf8.starts(with: base.utf8), mine.utf8.count > base.utf8.count else {
            return "it is not under the collection's path"
        }
        return nil
    }

    // MARK: percent-encoding

    /// `text` with `%XX` sequences decoded (invalid UTF-8 repaired); invalid escapes kept.
    static func percentDecoded(_ text: Substring) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
                let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// `path` with every byte a URL path may not hold written `%XX` (as Foundation's
    /// urlPathAllowed: unreserved, sub-delims, `:`, `@`, `/`), and `%` kept where it starts an escape.
    static func escapingPath(_ path: Substring) -> String {
        let bytes = Array(path.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for (index, byte) in bytes.enumerated() {
            let allowed: Bool
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                allowed = true
            case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"),
                UInt8(ascii: "$"),
                UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"),
                UInt8(ascii: "+"),
                UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"),
                UInt8(ascii: "/"):
                allowed = true
            case UInt8(ascii: "%"):
                allowed =
                    index + 2 < bytes.count && hexValue(bytes[index + 1]) != nil && hexValue(bytes[index + 2]) != nil
            default:
                allowed = false
            }
            if allowed {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 15)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}

extension Substring {
    /// Where an ASCII delimiter first (last) is, found byte by byte: URL syntax is bytes (RFC
    /// 3986), and a search by Character is slower and would miss a delimiter that a combining
    /// mark after it joins to.
    fileprivate func firstIndex(ofASCII delimiter: Unicode.Scalar) -> Index? {
        utf8.firstIndex(of: UInt8(ascii: delimiter))
    }

    fileprivate func lastIndex(ofASCII delimiter: Unicode.Scalar) -> Index? {
        utf8.lastIndex(of: UInt8(ascii: delimiter))
    }
}
