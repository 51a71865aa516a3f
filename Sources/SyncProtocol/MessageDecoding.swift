import JSONCodec

/// Why a JSON value is not the message it should be: which field, and what is wrong with it.
///
/// Decoding is strict: a missing field, a field of another type, or a value outside the
/// protocol's list (a kind, an outcome, a method, an op) is an error, never a default. Members
/// the protocol does not name are ignored.
public struct MessageDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Problem: Sendable, Equatable {
        /// The field is absent.
        case missing
        /// The field is there but of another type: what was expected, what was found.
        case wrongType(expected: String, found: String)
        /// The field is a string none of `known`.
        case unknown(String, known: [String])
    }

    /// The field's path from the message's top: `outcomes[2].error.kind`; empty for the
    /// message itself.
    public let field: String
    public let problem: Problem

    public init(field: String, _ problem: Problem) {
        self.field = field
        self.problem = problem
    }

    /// `"outcomes[0].etag" is a number, not a string or null`; `no "token"`; ...
    public var description: String {
        switch problem {
        case .missing: "no \"\(field)\""
        case .wrongType(let expected, let found):
            field.isEmpty ? "the message is \(found), not \(expected)" : "\"\(field)\" is \(found), not \(expected)"
        case .unknown(let value, let known):
            "\"\(field)\" is \(value.debugDescription), which is none of \(known.joined(separator: ", "))"
        }
    }
}

/// A message of the protocol: decoded strictly from a JSON value, encoded to one.
public protocol ProtocolMessage: Sendable, Equatable {
    /// Decodes the message, failing on the first field that is missing, of another type or
    /// unknown.
    init(json: JSONValue) throws(MessageDecodingError)
    /// Appends the message as it goes on the wire (one line of JSON text, without its `\n`).
    func encode(into out: inout [UInt8])
}

/// A message that is a JSON object: decoded from its fields (so that one nested in another
/// names its fields by their full path), encoded as its members.
protocol ObjectMessage: ProtocolMessage {
    init(_ fields: Fields) throws(MessageDecodingError)
    var members: [(String, JSONValue)] { get }
}

extension ObjectMessage {
    public init(json: JSONValue) throws(MessageDecodingError) {
        try self.init(Fields(json, path: ""))
    }

    /// The message as a JSON value: how it is encoded, and how one nests in another.
    var json: JSONValue { .object(members) }

    public func encode(into out: inout [UInt8]) { json.encoded(into: &out) }
}

/// The members of an object being decoded, with accessors that throw a
/// ``MessageDecodingError`` naming the field.
///
/// The path of an array's element is built only when something fails (`prefix` and `index`
/// are kept apart), so decoding a listing of ten thousand items allocates no path strings.
struct Fields {
    let object: JSONObject
    private let prefix: String
    private let index: Int?

    init(_ value: JSONValue, path prefix: String, index: Int? = nil) throws(MessageDecodingError) {
        self.prefix = prefix
        self.index = index
        guard let object = value.objectValue else {
            throw MessageDecodingError(
                field: Self.path(prefix, index), .wrongType(expected: "an object", found: value.kindDescription))
        }
        self.object = object
    }

    private static func path(_ prefix: String, _ index: Int?) -> String {
        index.map { "\(prefix)[\($0)]" } ?? prefix
    }

    /// This object's path.
    var path: String { Self.path(prefix, index) }

    /// The path of this object's field `key`.
    func path(_ key: String) -> String {
        let here = path
        return here.isEmpty ? key : here + "." + key
    }

    func wrongType(_ key: String, _ expected: String, _ found: JSONValue) -> MessageDecodingError {
        MessageDecodingError(field: path(key), .wrongType(expected: expected, found: found.kindDescription))
    }

    /// The field's value; absent throws.
    func value(_ key: String) throws(MessageDecodingError) -> JSONValue {
        guard let value = object[key] else { throw MessageDecodingError(field: path(key), .missing) }
        return value
    }

    func string(_ key: String) throws(MessageDecodingError) -> String {
        let value = try value(key)
        guard let string = value.stringValue else { throw wrongType(key, "a string", value) }
        return string
    }

    /// A field that must be there, as a string or null.
    func nullableString(_ key: String) throws(MessageDecodingError) -> String? {
        let value = try value(key)
        if value.isNull { return nil }
        guard let string = value.stringValue else { throw wrongType(key, "a string or null", value) }
        return string
    }

    /// A field that may be left out: absent or null is `nil`.
    func optionalString(_ key: String) throws(MessageDecodingError) -> String? {
        guard object[key] != nil else { return nil }
        return try nullableString(key)
    }

    func bool(_ key: String) throws(MessageDecodingError) -> Bool {
        let value = try value(key)
        guard let bool = value.boolValue else { throw wrongType(key, "true or false", value) }
        return bool
    }

    /// A field that may be left out (`nil`); present, `true` or `false`.
    func optionalBool(_ key: String) throws(MessageDecodingError) -> Bool? {
        guard object[key] != nil else { return nil }
        return try bool(key)
    }

    /// `true`, and nothing else (`{"ok": true}`).
    func isTrue(_ key: String) throws(MessageDecodingError) {
        let value = try value(key)
        guard value == .bool(true) else { throw wrongType(key, "true", value) }
    }

    /// A field that must be there, as an integer (a number without a fraction, exact in a
    /// Double) or null.
    func nullableInteger(_ key: String) throws(MessageDecodingError) -> Int? {
        let value = try value(key)
        if value.isNull { return nil }
        guard let integer = Self.integer(value) else { throw wrongType(key, "an integer or null", value) }
        return integer
    }

    /// A field that may be left out: absent or null is `nil`.
    func optionalInteger(_ key: String) throws(MessageDecodingError) -> Int? {
        guard object[key] != nil else { return nil }
        return try nullableInteger(key)
    }

    func integer(_ key: String) throws(MessageDecodingError) -> Int {
        let value = try value(key)
        guard let integer = Self.integer(value) else { throw wrongType(key, "an integer", value) }
        return integer
    }

    private static func integer(_ value: JSONValue) -> Int? {
        guard let number = value.doubleValue, number == number.rounded(), abs(number) < 9.0e15 else { return nil }
        return Int(number)
    }

    func array(_ key: String) throws(MessageDecodingError) -> [JSONValue] {
        let value = try value(key)
        guard let array = value.arrayValue else { throw wrongType(key, "an array", value) }
        return array
    }

    func strings(_ key: String) throws(MessageDecodingError) -> [String] {
        let array = try array(key)
        var strings: [String] = []
        strings.reserveCapacity(array.count)
        for (index, element) in array.enumerated() {
            guard let string = element.stringValue else {
                throw MessageDecodingError(
                    field: path(key) + "[\(index)]", .wrongType(expected: "a string", found: element.kindDescription))
            }
            strings.append(string)
        }
        return strings
    }

    /// An array of messages, each decoded from its own fields.
    func objects<Message: ObjectMessage>(_ key: String, as type: Message.Type) throws(MessageDecodingError) -> [Message]
    {
        let array = try array(key)
        let elementPrefix = path(key)
        var elements: [Message] = []
        elements.reserveCapacity(array.count)
        for (index, element) in array.enumerated() {
            elements.append(try Message(try Fields(element, path: elementPrefix, index: index)))
        }
        return elements
    }

    /// A nested object, decoded from its own fields.
    func object<Message: ObjectMessage>(_ key: String, as type: Message.Type) throws(MessageDecodingError) -> Message {
        try Message(try Fields(try value(key), path: path(key)))
    }

    /// A string that must be one of an enumeration's raw values.
    func oneOf<Value: RawRepresentable & CaseIterable>(_ key: String, _ type: Value.Type) throws(MessageDecodingError)
        -> Value
    where Value.RawValue == String {
        let raw = try string(key)
        guard let value = Value(rawValue: raw) else {
            throw MessageDecodingError(field: path(key), .unknown(raw, known: Value.allCases.map(\.rawValue)))
        }
        return value
    }
}
