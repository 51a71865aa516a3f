/// One JSON value (RFC 8259), as ``JSONParser`` reads it.
///
/// Numbers are `Double`, the interoperable range RFC 8259 recommends: integers are exact up to
/// 2^53. Objects keep their members in document order and never hold two members with the same
/// key (the parser rejects duplicates, so `{"done": false, "done": true}` cannot mean two things).
public enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number; always finite.
    case number(Double)
    /// A string, with every escape resolved.
    case string(String)
    /// An array, in document order.
    case array([JSONValue])
    /// An object, its members in document order.
    case object(JSONObject)

    /// The member named `key` when this is an object that has one; `nil` otherwise.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    /// The Boolean, when this is `true` or `false`.
    public var boolValue: Bool? {
        guard case .bool(let value) = self else { return nil }
        return value
    }

    /// The number, when this is a number.
    public var doubleValue: Double? {
        guard case .number(let value) = self else { return nil }
        return value
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        guard case .array(let value) = self else { return nil }
        return value
    }

    /// The object, when this is an object.
    public var objectValue: JSONObject? {
        guard case .object(let value) = self else { return nil }
        return value
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// What kind of value this is, for error messages: "an object", "a string", "null", ...
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON object: members with distinct keys, in document order.
///
/// Lookup by key is a linear scan, the fastest choice for the dozen-key records this module
/// reads (no hashing, no dictionary allocated per record). Equality ignores member order, as
/// JSON's does.
public struct JSONObject: Sendable, Equatable {
    /// One `"key": value` pair.
    public struct Member: Sendable, Equatable {
        /// The member's key, with escapes resolved.
        public let key: String
        /// The member's value.
        public let value: JSONValue

        /// Creates a member.
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The members, in document order; no two share a key.
    public let members: [Member]

    /// Creates an object from members whose keys are distinct.
    ///
    /// - Precondition: no two members have the same key (the parser guarantees it; a
    ///   hand-built object that breaks it would answer lookups with the first match).
    public init(members: [Member]) {
        self.members = members
    }

    /// The value of the member named `key`, or `nil` when there is none.
    public subscript(key: String) -> JSONValue? {
        for member in members where member.key == key { return member.value }
        return nil
    }

    /// The keys, in document order.
    public var keys: [String] { members.map(\.key) }

    /// The number of members.
    public var count: Int { members.count }

    /// Whether both objects have the same keys with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        return lhs.members.allSatisfy { rhs[$0.key] == $0.value }
    }
}

// Literals, so tests and callers can write expected values as JSON-looking Swift.
extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
    /// `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integral number.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A number.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object; the keys must be distinct.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(members: elements.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }
}
