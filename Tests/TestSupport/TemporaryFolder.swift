import Foundation

/// A fresh folder under the system temporary directory, removed when the value is released.
public final class TemporaryFolder: @unchecked Sendable {
    /// The folder's absolute path.
    public let path: String

    public init() {
        path = NSTemporaryDirectory() + "todo-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The path of `name` inside the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    /// The bytes of a file, or `nil` when it does not exist.
    public func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    /// The permission bits of a file or folder.
    public func mode(_ path: String) -> Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return (attributes?[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}
