#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The database file on disk: created privately before SQLite sees it, told apart from a file
/// that replaced it, and the folder SQLite keeps its companion files in.
///
/// SQLite creates files with mode 0644; a todo list is private, so a missing file is created
/// here with 0600 (its `-wal` and `-shm` files inherit that) and missing folders with 0700.
/// Existing files and folders are never touched: their modes are the owner's choice.
public enum DatabaseFile {
    /// Creates `path`'s missing parent folders (0700) and the file itself (0600) if missing.
    static func prepare(_ path: String) throws(TodoStoreError) {
        try createParentFolders(of: path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
        } else if errno != EEXIST {
            throw .cannotCreate(path: path, errno: errno)
        }
    }

    /// Which file a path names: its device and inode. Two opens of the same path see the same
    /// identity unless the file was replaced (renamed over, as editors and file-sync tools do)
    /// or deleted and recreated in between.
    struct Identity: Equatable, Sendable {
        let device: UInt64
        let inode: UInt64
    }

    /// The identity of the file at `path` now, or `nil` when nothing is there.
    static func identity(of path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The identities of the `-wal` and `-shm` files SQLite keeps beside `path`, keyed by
    /// suffix; absent ones are left out.
    static func companionIdentities(of path: String) -> [String: Identity] {
        var identities: [String: Identity] = [:]
        for suffix in ["-wal", "-shm"] {
            if let identity = identity(of: path + suffix) { identities[suffix] = identity }
        }
        return identities
    }

    /// The folder holding `path`, where SQLite also keeps its `-wal`, `-shm` and `-journal`
    /// files: `.` for a bare name, `/` for a file at the root.
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func createParentFolders(of path: String) throws(TodoStoreError) {
        var components = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        guard !components.isEmpty else { return }
        var folder = path.hasPrefix("/") ? "" : "."
        if path.hasPrefix("/") { components = components.dropFirst() }
        for component in components where !component.isEmpty {
            folder += "/" + component
            if mkdir(folder, 0o700) != 0 && errno != EEXIST {
                throw .cannotCreate(path: folder, errno: errno)
            }
        }
    }
}
