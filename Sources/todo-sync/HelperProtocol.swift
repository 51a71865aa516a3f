import Foundation

/// An error the helper reports as `{"error":{"kind":…,"message":…,"status":…}}`.
///
/// `message` is one line and never holds a password: URLs in it are written without user info.
struct HelperError: Error {
    enum Kind: String {
        case unreachable, auth, notFound = "not_found", noTodoSupport = "no_todo_support"
        case server, badResponse = "bad_response", password, `protocol`
    }

    let kind: Kind
    let message: String
    let status: Int?

    init(_ kind: Kind, _ message: String, status: Int? = nil) {
        self.kind = kind
        self.message = message
        self.status = status
    }

    /// The error for an unexpected HTTP status on a request about `what`.
    static func status(_ status: Int, _ what: String) -> HelperError {
        switch status {
        case 401, 403: return HelperError(.auth, "\(what): authentication failed (HTTP \(status))", status: status)
        case 404, 410: return HelperError(.notFound, "\(what): no such collection (HTTP \(status))", status: status)
        default: return HelperError(.server, "\(what): unexpected HTTP status \(status)", status: status)
        }
    }

    /// The response object, with `secrets` masked out of the message as a last safety net.
    func json(masking secrets: [String]) -> [String: Any] {
        var text = message.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        for secret in secrets where !secret.isEmpty {
            text = text.replacingOccurrences(of: secret, with: "***")
        }
        return ["error": ["kind": kind.rawValue, "message": text, "status": status.map { $0 as Any } ?? NSNull()]]
    }
}

/// One line of the protocol: a JSON object. Writes are unbuffered and whole lines.
enum ProtocolIO {
    static func encode(_ object: [String: Any]) -> Data {
        var data = (try? JSONSerialization.data(withJSONObject: object, options: [.withoutEscapingSlashes]))
            ?? Data(#"{"error":{"kind":"protocol","message":"unencodable response","status":null}}"#.utf8)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    static func write(_ object: [String: Any]) {
        let data = encode(object)
        data.withUnsafeBytes { buffer in
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
    static func parse(_ line: String) throws -> (op: String, request: [String: Any]) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw HelperError(.protocol, "the request is not a JSON object")
        }
        guard let op = object["op"] as? String else {
            throw HelperError(.protocol, "the request has no string \"op\"")
        }
        return (op, object)
    }
}

/// A value of the request or `nil` when absent or JSON null; throws when of another type.
func optional<T>(_ request: [String: Any], _ key: String, as type: T.Type = T.self) throws -> T? {
    guard let value = request[key], !(value is NSNull) else { return nil }
    guard let typed = value as? T else { throw HelperError(.protocol, "\"\(key)\" has the wrong type") }
    return typed
}

func required<T>(_ request: [String: Any], _ key: String, as type: T.Type = T.self) throws -> T {
    guard let value = try optional(request, key, as: T.self) else {
        throw HelperError(.protocol, "the request has no \"\(key)\"")
    }
    return value
}
