import JSONCodec

/// What went wrong, as the companion tells it.
public enum ErrorKind: String, CaseIterable, Sendable {
    /// The server could not be reached (connection refused, DNS, timeout).
    case unreachable
    /// The server refused the credentials (401) or the user has no access (403).
    case auth
    /// Nothing at the collection's URL (404, 410), or it is not a calendar collection.
    case notFound = "not_found"
    /// The collection holds no VTODOs.
    case noTodoSupport = "no_todo_support"
    /// An unexpected HTTP status.
    case server
    /// The server's answer could not be read, or named something outside the collection.
    case badResponse = "bad_response"
    /// The password command failed or printed nothing.
    case password
    /// The request was not one of the protocol's, or came out of order.
    case `protocol`
    /// The server answered with a redirect, which is never followed (credentials go only to
    /// the collection's origin): `location` is the URL to set up instead.
    case redirect
    /// A collection was to be made where something already is (MKCALENDAR's
    /// DAV:resource-must-be-null, or an extended MKCOL answered 405 over an existing resource):
    /// nothing was made, and another segment may be tried.
    case taken
}

/// The error object: `{"kind", "message", "status"[, "location"]}`, `status` the HTTP status
/// or null, `location` only for a redirect. The message is one line and holds no password.
public struct ErrorObject: ObjectMessage {
    public var kind: ErrorKind
    public var message: String
    public var status: Int?
    public var location: String?

    public init(kind: ErrorKind, message: String, status: Int? = nil, location: String? = nil) {
        self.kind = kind
        self.message = message
        self.status = status
        self.location = location
    }

    init(_ fields: Fields) throws(MessageDecodingError) {
        kind = try fields.oneOf("kind", ErrorKind.self)
        message = try fields.string("message")
        status = try fields.nullableInteger("status")
        location = try fields.optionalString("location")
    }

    var members: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("kind", .string(kind.rawValue)), ("message", .string(message)),
            ("status", status.map { .number(Double($0)) } ?? .null)
        ]
        if let location { members.append(("location", .string(location))) }
        return members
    }

    /// The answer that carries this error: `{"error": {...}}`.
    public var answer: JSONValue { .object([("error", json)]) }
}

/// An answer as it comes: the answer asked for, or `{"error": {...}}` (an object with an
/// `"error"` member is always the error).
public enum Reply<Answer: ProtocolMessage>: ProtocolMessage {
    case answer(Answer)
    case error(ErrorObject)

    public init(json: JSONValue) throws(MessageDecodingError) {
        let fields = try Fields(json, path: "")
        if fields.object["error"] != nil {
            self = .error(try fields.object("error", as: ErrorObject.self))
        } else {
            self = .answer(try Answer(json: json))
        }
    }

    public func encode(into out: inout [UInt8]) {
        switch self {
        case .answer(let answer): answer.encode(into: &out)
        case .error(let error): error.answer.encoded(into: &out)
        }
    }
}

extension ProtocolMessage {
    /// The message as one line of JSON text, ending with its `\n`.
    public var line: [UInt8] {
        var bytes: [UInt8] = []
        encode(into: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}
