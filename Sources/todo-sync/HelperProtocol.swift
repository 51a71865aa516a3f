import Glibc
import JSONCodec
import SyncProtocol

/// An error the helper reports as `{"error":{"kind":…,"message":…,"status":…}}` (and
/// `"location"` for a redirect): SyncProtocol's ``ErrorObject``, once its secrets are masked.
///
/// `message` is one line and never holds a password: URLs in it are written without user info.
struct HelperError: Error {
    let kind: ErrorKind
    let message: String
    let status: Int?
    var location: String?

    init(_ kind: ErrorKind, _ message: String, status: Int? = nil, location: String? = nil) {
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

    /// `error` when no password was sent and the server asked for one (401): it says which
    /// sources gave none and how to give one (`tried`, ``Credentials/triedSources``). Any other
    /// error as it is.
    static func noPassword(_ error: HelperError, tried: [String]) -> HelperError {
        guard error.kind == .auth, error.status == 401, !tried.isEmpty else { return error }
        return HelperError(
            error.kind,
            error.message + "; no password was sent, since none came from "
                + tried.joined(separator: ", ")
                + ": give one with --password-command at setup, TODO_SYNC_PASSWORD or ~/.netrc",
            status: error.status, location: error.location)
    }

    /// The error object, with `secrets` masked out of the message as a last safety net.
    func errorObject(masking secrets: [String]) -> ErrorObject {
        func masked(_ text: String) -> String {
            var text = text
            for secret in secrets where !secret.isEmpty { text = text.replacingAll(secret, with: "***") }
            return text
        }
        return ErrorObject(
            kind: kind, message: masked(message.replacingAll("\r", with: " ").replacingAll("\n", with: " ")),
            status: status, location: location.map(masked))
    }

    /// The answer: `{"error": {...}}`.
    func json(masking secrets: [String]) -> JSONValue { errorObject(masking: secrets).answer }
}

/// The protocol's version and what this helper does beyond version 1's first form.
let helloAnswer = HelloAnswer(capabilities: Capability.allCases)

/// One line of the protocol: a JSON object. Writes are unbuffered and whole lines.
enum ProtocolIO {
    static func encode(_ value: JSONValue) -> [UInt8] {
        var bytes = value.encoded
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// A listing's line, written as it is encoded (its JSON is never whole in memory).
    static func write(_ answer: ListingAnswer) {
        answer.encode { writeAll($0) }
        writeAll([UInt8(ascii: "\n")])
    }

    static func writeAll(_ bytes: [UInt8]) {
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

    /// Parses and decodes a request line (strictly: see ``Request``).
    static func parse(_ line: [UInt8]) throws(HelperError) -> Request {
        guard let value = try? JSONParser.parse(line), value.objectValue != nil else {
            throw HelperError(.protocol, "the request is not a JSON object")
        }
        do throws(MessageDecodingError) {
            return try Request(json: value)
        } catch {
            throw HelperError(.protocol, "bad request: \(error)")
        }
    }
}

/// Byte-wise (UTF-8) search and replace: what the helper needs of strings, without the
/// standard library's regex-based algorithms (which would link _StringProcessing into the
/// helper, a large library for what these few loops do).
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
        let bytes = Array(utf8)
        let pattern = Array(target.utf8)
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
