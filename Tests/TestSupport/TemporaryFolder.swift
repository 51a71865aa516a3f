import Foundation

/// A fresh folder for one test's files, removed when the value is released.
///
/// It is made in memory (`/dev/shm`) when the machine has it, else under the system temporary
/// directory: the tests' thousands of SQLite commits each end with an fsync, which a disk makes
/// the slowest part of the suite while a memory file system makes it free. Durability itself is
/// tested by the power-loss VFS, which never reaches a real fsync.
public final class TemporaryFolder: @unchecked Sendable {
    /// The folder's absolute path.
    public let path: String

    /// Where folders are made: `/dev/shm` when it is a writable folder, else `NSTemporaryDirectory()`.
    static let base: String = access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm/" : NSTemporaryDirectory()

    public init() {
        path = Self.base + "todo-tests-" + UUID().uuidString
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
