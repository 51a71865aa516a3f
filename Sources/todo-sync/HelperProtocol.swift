import Glibc
import JSONCodec

/// An error the helper reports as `{"error":{"kind":…,"message":…,"status":…}}` (and
/// `"location"` for a redirect).
///
/// `message` is one line and never holds a password: URLs in it are written without user info.
struct HelperError: Error {
    enum Kind: String {
        case unreachable, auth, notFound = "not_found", noTodoSupport = "no_todo_support"
        case server, badResponse = "bad_response", password, `protocol`
        /// The server answered with a redirect, which the helper never follows (credentials go
        /// only to the collection's origin): `location` is the URL to set up instead.
        case redirect
    }

    let kind: Kind
    let message: String
    let status: Int?
    var location: String?

    init(_ kind: Kind, _ message: String, status: Int? = nil, location: String? = nil) {
        self.kind = kind
        self.message = message
        self.status = status
        self.location = location
    }

    /// The error for an unexpected HTTP status on a request about `what`.
    static func status(_ status: Int, _ what: String) -> HelperError {
        switch status {
        case 401, 403: return HelperError(.auth, "\(what): authentication failed (HTTP \(status))", status: status)
        case 404, 410: return HelperError(.notFound, "\(what): no such collection (HTTP \(status))", status: status)
        default: return HelperError(.server, "\(what): unexpected HTTP status \(status)", status: status)
        }
    }

    /// The error object, with `secrets` masked out of the message as a last safety net.
    func errorObject(masking secrets: [String]) -> JSONValue {
        var text = message.replacingAll("\r", with: " ").replacingAll("\n", with: " ")
        for secret in secrets where !secret.isEmpty {
            text = text.replacingAll(secret, with: "***")
        }
        var members: [(String, JSONValue)] = [("kind", .string(kind.rawValue)), ("message", .string(text)),
                                               ("status", status.map { .number(Double($0)) } ?? .null)]
        if let location {
            var masked = location
            for secret in secrets where !secret.isEmpty { masked = masked.replacingAll(secret, with: "***") }
            members.append(("location", .string(masked)))
        }
        return .object(members)
    }

    /// The response object: `{"error": {...}}`.
    func json(masking secrets: [String]) -> JSONValue { .object([("error", errorObject(masking: secrets))]) }
}

extension JSONValue {
    /// An object from key-value pairs in order (the keys distinct).
    static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(members: members.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }

    static func optional(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }

    static func strings(_ list: [String]) -> JSONValue { .array(list.map { .string($0) }) }

    /// The value as one line of JSON text (RFC 8259; `/` not escaped, non-ASCII as UTF-8).
    func encoded(into out: inout [UInt8]) {
        switch self {
        case .null: out += Array("null".utf8)
        case .bool(let value): out += Array((value ? "true" : "false").utf8)
        case .number(let value):
            if value == value.rounded(), abs(value) < 9.0e15 { out += Array(String(Int64(value)).utf8) }
            else { out += Array("\(value)".utf8) }
        case .string(let value): JSONValue.encode(value, into: &out)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.encoded(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (index, member) in object.members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.encode(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                member.value.encoded(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func encode(_ string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20, 0x7F:
                let digits = Array("0123456789abcdef".utf8)
                out += Array("\\u00".utf8) + [digits[Int(byte >> 4)], digits[Int(byte & 15)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// The protocol's version and what this helper does beyond version 1's first form.
let helloAnswer: JSONValue = .object([
    ("version", 1),
    ("capabilities", .strings(["ca_file", "redirect_error", "origin_only", "basic", "digest", "bounded_answers", "http2"])),
])

/// One line of the protocol: a JSON object. Writes are unbuffered and whole lines.
enum ProtocolIO {
    static func encode(_ value: JSONValue) -> [UInt8] {
        var bytes: [UInt8] = []
        value.encoded(into: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    static func write(_ value: JSONValue) {
        let bytes = encode(value)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(1, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    exit(0)  // the reader is gone: nobody to answer
                }
                offset += written
            }
        }
    }

    /// Parses a request line into an object with a string `op`.
    static func parse(_ line: [UInt8]) throws(HelperError) -> (op: String, request: JSONValue) {
        guard let value = try? JSONParser.parse(line), value.objectValue != nil else {
            throw HelperError(.protocol, "the request is not a JSON object")
        }
        guard let op = value["op"]?.stringValue else {
            throw HelperError(.protocol, "the request has no string \"op\"")
        }
        return (op, value)
    }
}

/// Typed members of a request: absent or null is `nil`; another type throws.
extension JSONValue {
    func optionalString(_ key: String) throws(HelperError) -> String? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let string = value.stringValue else { throw HelperError(.protocol, "\"\(key)\" has the wrong type") }
        return string
    }

    func requiredString(_ key: String) throws(HelperError) -> String {
        guard let string = try optionalString(key) else { throw HelperError(.protocol, "the request has no \"\(key)\"") }
        return string
    }

    func requiredArray(_ key: String) throws(HelperError) -> [JSONValue] {
        guard let value = self[key], !value.isNull else { throw HelperError(.protocol, "the request has no \"\(key)\"") }
        guard let array = value.arrayValue else { throw HelperError(.protocol, "\"\(key)\" has the wrong type") }
        return array
    }
}

/// Byte-wise (UTF-8) search and replace: what the helper needs of strings, without the
/// standard library's regex-based algorithms (which would link _StringProcessing, 1 MB).
extension String {
    private func occurrences(of target: [UInt8], in bytes: [UInt8]) -> [Int] {
        guard !target.isEmpty, bytes.count >= target.count else { return [] }
        var found: [Int] = []
        var index = 0
        while index <= bytes.count - target.count {
            if bytes[index] == target[0] && bytes[index..<index + target.count].elementsEqual(target) {
                found.append(index)
                index += target.count
            } else {
                index += 1
            }
        }
        return found
    }

    /// The text with every occurrence of `target` replaced by `replacement`.
    func replacingAll(_ target: String, with replacement: String) -> String {
        let bytes = Array(utf8), pattern = Array(target.utf8)
        let found = occurrences(of: pattern, in: bytes)
        guard !found.isEmpty else { return self }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var start = 0
        for index in found {
            out += bytes[start..<index]
            out += replacement.utf8
            start = index + pattern.count
        }
        out += bytes[start...]
        return String(decoding: out, as: UTF8.self)
    }

    func containsText(_ target: String) -> Bool {
        !occurrences(of: Array(target.utf8), in: Array(utf8)).isEmpty
    }
}
