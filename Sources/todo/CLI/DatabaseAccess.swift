import TodoStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Names the file at fault when SQLite cannot open or write a database.
///
/// SQLite says "unable to open database file" or "attempt to write a readonly database"
/// whichever of several files is to blame: the database itself, a folder given in its place,
/// or the `-wal`, `-shm` and `-journal` files it keeps beside it (and must be able to create in
/// the folder). Looked at only after a failure, so a working command pays nothing.
enum DatabaseAccess {
    /// The first problem found, in words, or `nil` when none is visible from here.
    static func problem(at path: String) -> String? {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            return "\(path) is a folder, not a database file"
        }
        for file in [path, path + "-wal", path + "-shm", path + "-journal"] where access(file, F_OK) == 0 {
            if access(file, R_OK | W_OK) != 0 { return "cannot write \(file): \(String(cString: strerror(errno)))" }
        }
        let folder = DatabaseFile.folder(of: path)
        if access(folder, W_OK | X_OK) != 0 {
            return
                "cannot write in the folder \(folder), where SQLite keeps the database's -wal and -shm files: \(String(cString: strerror(errno)))"
        }
        return nil
    }
}
