import Foundation

/// Output a test expected in one shape and got in another; the message quotes the raw text.
public struct UnexpectedOutput: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}

/// Parses `text` (a program's output) as JSON of shape `T`: `[[String: Any]]`, `[String: Any]`…
///
/// Throws, quoting the raw text, when it is not JSON or not of that shape. It never stands in an
/// empty value, which would let a test pass on output it could not read.
public func parseJSON<T>(_ text: String, as type: T.Type = T.self, _ label: @autoclosure () -> String = "output") throws
    -> T
{
    let object: Any
    do {
        object = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    } catch {
        throw UnexpectedOutput("\(label()) is not JSON (\(error)): \(String(text.prefix(2_000)).debugDescription)")
    }
    guard let value = object as? T else {
        throw UnexpectedOutput("\(label()) is not a \(T.self): \(String(text.prefix(2_000)).debugDescription)")
    }
    return value
}

/// `object[key]` as a `T`; throws, quoting the object, when the key is missing or of another type.
public func field<T>(_ object: [String: Any], _ key: String, as type: T.Type = T.self) throws -> T {
    guard let value = object[key] as? T else {
        throw UnexpectedOutput("no \(T.self) under \"\(key)\" in \(String(String(describing: object).prefix(2_000)))")
    }
    return value
}
